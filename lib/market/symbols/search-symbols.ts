import { classifyCode } from "./classify-code";
import { findIndexByAlias } from "./index-registry";
import type { NameSource } from "./name-index";
import { activeNameSources } from "./name-sources";
import { nameKey, normalizeToken } from "./normalize-text";
import { resolvedFromEntry, resolveToken, type ResolveOptions } from "./resolve-token";
import { dedupKey } from "./resolve-tokens";
import { isRejection, type TNameEntry, type TResolvedSymbol, type TSymbolSearchHit } from "./schemas";

export const DEFAULT_SEARCH_LIMIT = 10;
export const MAX_SEARCH_LIMIT = 50;

type Match = TSymbolSearchHit["match"];

// Lower ranks first: what the user typed exactly, then codes, then names starting with it, then names
// containing it. Within a rank, shorter names and codes first (closer to the query), then market order.
const MATCH_RANK: Record<Match, number> = { exact: 0, code_prefix: 1, name_prefix: 2, name_contains: 3 };
const MARKET_RANK: Record<string, number> = { cn: 0, hk: 1, us: 2 };

interface Candidate {
  hit: TSymbolSearchHit;
  weight: number;
}

function toHit(symbol: TResolvedSymbol, match: Match): TSymbolSearchHit {
  const hit: TSymbolSearchHit = {
    kind: symbol.kind,
    market: symbol.market,
    code: symbol.code,
    displayCode: symbol.displayCode,
    match,
  };
  if (symbol.kind === "index") hit.canonicalId = symbol.canonicalId;
  if (symbol.name) hit.name = symbol.name;
  if (symbol.nameEn) hit.nameEn = symbol.nameEn;
  return hit;
}

function compare(a: Candidate, b: Candidate): number {
  return (
    MATCH_RANK[a.hit.match] - MATCH_RANK[b.hit.match] ||
    a.weight - b.weight ||
    MARKET_RANK[a.hit.market]! - MARKET_RANK[b.hit.market]! ||
    a.hit.code.localeCompare(b.hit.code)
  );
}

// A complete code the name lists may not know (sz000003, 0941.HK, BRK.B) is offered as typed. Bare short
// digits and bare words are left to the prefix searches: "6005" is someone typing 600519, not HK 06005.
function isCompleteCode(text: string): boolean {
  if (findIndexByAlias(text)) return true;
  const code = classifyCode(text);
  if (code.type === "index") return true;
  if (code.type === "ticker") return code.explicit;
  if (code.type !== "stock") return false;
  return code.market === "cn" || !/^\d{1,4}$/.test(text);
}

/**
 * Ranked matches for an autocomplete: exact resolution, code prefix, name prefix, name contains
 * (zh, en, aliases, pinyin initials), across the active name sources. Codes outside the name lists
 * still appear when the query is a complete code (e.g. sz000003), so the box can always offer it.
 */
export function searchSymbols(
  query: string,
  limit = DEFAULT_SEARCH_LIMIT,
  options: ResolveOptions = {},
): TSymbolSearchHit[] {
  const text = normalizeToken(query);
  if (!text) return [];
  const size = Math.min(Math.max(Math.trunc(limit) || DEFAULT_SEARCH_LIMIT, 1), MAX_SEARCH_LIMIT);
  const sources: readonly NameSource[] = options.sources ?? activeNameSources();
  const found = new Map<string, Candidate>();

  const offer = (symbol: TResolvedSymbol, match: Match, weight: number): void => {
    const key = dedupKey(symbol);
    const candidate = { hit: toHit(symbol, match), weight };
    const held = found.get(key);
    if (!held || compare(candidate, held) < 0) found.set(key, candidate);
  };
  const offerEntry = (entry: TNameEntry, match: Match, weight: number): void => {
    const resolved = resolvedFromEntry(entry, query);
    if (!isRejection(resolved)) offer(resolved, match, weight);
  };

  if (isCompleteCode(text)) {
    const resolved = resolveToken(text, { ...options, sources });
    if (!isRejection(resolved)) offer(resolved, "exact", 0);
  }

  const key = nameKey(text);
  const codePrefixes = new Set([text.toUpperCase()]);
  if (/^\d+$/.test(text)) codePrefixes.add(text.replace(/^0+/, "") || text);
  const wanted = size * 3;
  for (const source of sources) {
    for (const prefix of codePrefixes) {
      for (const entry of source.findByCodePrefix(prefix, wanted)) {
        const exact = entry.code.toUpperCase() === text.toUpperCase();
        offerEntry(entry, exact ? "exact" : "code_prefix", entry.code.length);
      }
    }
    if (!key) continue;
    for (const match of source.findExact(key)) offerEntry(match.entry, "exact", match.key.length);
    for (const match of source.findByPrefix(key, wanted)) offerEntry(match.entry, "name_prefix", match.key.length);
    for (const match of source.findContaining(key, wanted)) offerEntry(match.entry, "name_contains", match.key.length);
  }

  return [...found.values()]
    .sort(compare)
    .slice(0, size)
    .map((candidate) => candidate.hit);
}
