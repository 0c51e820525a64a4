import { DEFAULT_LOCALE, isLocale, type Locale } from "./config";

// The UI language of a request. The user's choice (the dsa_lang cookie, set by the language switch)
// wins; without one, the browser's Accept-Language decides on the first visit: a Chinese first preference (zh,
// zh-CN, zh-TW, zh-Hans…) gets zh-CN, any other language en. No usable header (none, or only "*", as Node's
// fetch sends) keeps the product default, zh-CN.

type Range = { tag: string; q: number; order: number };

function parseRanges(header: string): Range[] {
  const ranges: Range[] = [];
  header.split(",").forEach((part, order) => {
    const [rawTag = "", ...params] = part.split(";");
    const tag = rawTag.trim().toLowerCase();
    if (!tag || tag === "*") return;
    let q = 1;
    for (const param of params) {
      const [key, value] = param.split("=").map((s) => s.trim());
      if (key?.toLowerCase() === "q")
        q = value !== undefined && /^(0(\.\d{0,3})?|1(\.0{0,3})?)$/.test(value) ? Number(value) : 0;
    }
    if (q > 0) ranges.push({ tag, q, order });
  });
  // Highest quality first; equal qualities keep the header's order.
  return ranges.sort((a, b) => b.q - a.q || a.order - b.order);
}

/** The UI locale an Accept-Language header asks for, or null when it names no language. */
export function localeFromAcceptLanguage(header: string | null | undefined): Locale | null {
  if (!header) return null;
  const first = parseRanges(header)[0];
  if (!first) return null;
  return first.tag === "zh" || first.tag.startsWith("zh-") ? "zh-CN" : "en";
}

/** The cookie's locale when valid, else the header's, else zh-CN. */
export function resolveLocale(
  cookieValue: string | null | undefined,
  acceptLanguage: string | null | undefined,
): Locale {
  if (isLocale(cookieValue)) return cookieValue;
  return localeFromAcceptLanguage(acceptLanguage) ?? DEFAULT_LOCALE;
}
