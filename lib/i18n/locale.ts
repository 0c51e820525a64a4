import "server-only";
import { cookies } from "next/headers";
import { DEFAULT_LOCALE, isLocale, LOCALE_COOKIE, type Locale } from "./config";
import { en } from "./dictionaries/en";
import type { Dictionary } from "./dictionaries/types";
import { zhCN } from "./dictionaries/zh-CN";

const DICTIONARIES: Record<Locale, Dictionary> = { "zh-CN": zhCN, en };

// The UI language from the dsa_lang cookie; zh-CN when unset or unknown.
export async function getLocale(): Promise<Locale> {
  const value = (await cookies()).get(LOCALE_COOKIE)?.value;
  return isLocale(value) ? value : DEFAULT_LOCALE;
}

export function getDictionary(locale: Locale): Dictionary {
  return DICTIONARIES[locale];
}

// The request's locale and its dictionary, for server components.
export async function getI18n(): Promise<{ locale: Locale; t: Dictionary }> {
  const locale = await getLocale();
  return { locale, t: getDictionary(locale) };
}
