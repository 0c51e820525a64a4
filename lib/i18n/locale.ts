import "server-only";
import { cookies, headers } from "next/headers";
import { serviceTimeZone } from "@/lib/time/zoned-time";
import { LOCALE_COOKIE, type Locale } from "./config";
import { DICTIONARIES } from "./dictionaries";
import type { Dictionary } from "./dictionaries/types";
import { resolveLocale } from "./negotiate";
import { resolveDisplayTimeZone, TIME_ZONE_COOKIE, type DisplayTimeZone } from "./time";

// The UI language: the dsa_lang cookie (the user's choice) when set, else the browser's Accept-Language
// (zh* → zh-CN, any other language → en), else zh-CN.
export async function getLocale(): Promise<Locale> {
  const [jar, head] = await Promise.all([cookies(), headers()]);
  return resolveLocale(jar.get(LOCALE_COOKIE)?.value, head.get("accept-language"));
}

export function getDictionary(locale: Locale): Dictionary {
  return DICTIONARIES[locale];
}

// The request's locale and its dictionary, for server components.
export async function getI18n(): Promise<{ locale: Locale; t: Dictionary }> {
  const locale = await getLocale();
  return { locale, t: getDictionary(locale) };
}

// The zone every time of the page is written in: the service zone, or the browser's when the user picked
// "local" (the dsa_tz cookie holds that zone). The (ui) layout hands it to client components through
// TimeZoneProvider; server code that formats a time into a plain string (metadata, templates) reads it here.
export async function getDisplayTimeZone(): Promise<DisplayTimeZone> {
  const value = (await cookies()).get(TIME_ZONE_COOKIE)?.value;
  return resolveDisplayTimeZone(value, serviceTimeZone());
}
