import { findIndexByAlias, getIndexEntry } from "./index-registry";
import { activeNameSources } from "./name-sources";
import { resolveToken } from "./resolve-token";
import { isRejection, ZMarket } from "./schemas";

export type NameLanguage = "zh" | "en";

/** A stock or index as records keep it: its market (null when unknown), its code and, where known, its kind. */
export interface NamedTarget {
  market?: string | null;
  code: string;
  kind?: string | null;
}

type Names = { nameZh?: string; nameEn?: string };

function indexNames(code: string): Names | undefined {
  return getIndexEntry(code) ?? findIndexByAlias(code);
}

function stockNames(market: string | null | undefined, code: string): Names | undefined {
  const parsed = ZMarket.safeParse(market);
  // Without a market (a list row that does not carry one) the code's own shape says where it trades.
  if (!parsed.success) {
    const resolved = resolveToken(code);
    if (isRejection(resolved)) return undefined;
    return resolved.kind === "index" ? indexNames(resolved.code) : stockNames(resolved.market, resolved.code);
  }
  for (const source of activeNameSources()) {
    const entry = source.findByCode(parsed.data, code.toUpperCase());
    if (entry) return entry;
  }
  return undefined;
}

/**
 * The name of a stock or index for a reader of `language`, from the symbol tables (both names are there): the
 * Chinese name for zh, the English name for en. A name the tables do not know in that language is the stored one,
 * else the table's other name.
 */
export function displayName(target: NamedTarget, language: NameLanguage, stored: string | null = null): string | null {
  const names = target.kind === "index" ? indexNames(target.code) : stockNames(target.market, target.code);
  const wanted = language === "en" ? names?.nameEn : names?.nameZh;
  return wanted ?? stored ?? names?.nameZh ?? names?.nameEn ?? null;
}

/** The UI locale ("zh-CN", "en") as the language of names. */
export function nameLanguage(locale: string): NameLanguage {
  return locale === "en" ? "en" : "zh";
}
