// Locale constants shared by server code and the client-side language switch (no server-only imports here).
export const LOCALES = ["zh-CN", "en"] as const;
export type Locale = (typeof LOCALES)[number];

export const DEFAULT_LOCALE: Locale = "zh-CN";
export const LOCALE_COOKIE = "dsa_lang";

export function isLocale(value: unknown): value is Locale {
  return typeof value === "string" && (LOCALES as readonly string[]).includes(value);
}

// Each language names itself in the switch, so a reader can find their own language whatever is shown.
export const LOCALE_NAMES: Record<Locale, string> = { "zh-CN": "中文", en: "EN" };
