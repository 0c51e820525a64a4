// Theme constants shared by the server (which writes the <html> class) and the client-side toggle.
export const THEME_CHOICES = ["light", "dark", "system"] as const;
export type ThemeChoice = (typeof THEME_CHOICES)[number];

export const DEFAULT_THEME: ThemeChoice = "system";
export const THEME_COOKIE = "dsa_theme";

export function isThemeChoice(value: unknown): value is ThemeChoice {
  return typeof value === "string" && (THEME_CHOICES as readonly string[]).includes(value);
}

// "system" leaves <html> without a class so the prefers-color-scheme branch of the dark variant applies.
export function themeClassName(choice: ThemeChoice): string | undefined {
  return choice === "system" ? undefined : choice;
}
