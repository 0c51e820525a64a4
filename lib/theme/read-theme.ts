import "server-only";
import { cookies } from "next/headers";
import { DEFAULT_THEME, isThemeChoice, THEME_COOKIE, type ThemeChoice } from "./theme";

// The user's explicit theme choice from the dsa_theme cookie; "system" when unset or unknown.
export async function readThemeChoice(): Promise<ThemeChoice> {
  const value = (await cookies()).get(THEME_COOKIE)?.value;
  return isThemeChoice(value) ? value : DEFAULT_THEME;
}
