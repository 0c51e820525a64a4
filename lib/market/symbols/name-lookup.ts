import { entryIdentity, type NameMatch, type NameSource } from "./name-index";
import { activeNameSources } from "./name-sources";
import { nameKey } from "./normalize-text";
import type { TMarket, TNameEntry } from "./schemas";

// More prefix candidates than this is reported as ambiguous without listing them all.
const PREFIX_CANDIDATES = 20;
// One character ("六", "a") is too little evidence to pick a company by prefix; it must match exactly.
export const MIN_PREFIX_LENGTH = 2;

/**
 * Cross-listed companies carry the same name in several markets (中国平安 is 601318 and 02318, 阿里巴巴
 * is 09988 and BABA). When every candidate has that one name and each sits in a different market, the
 * first market of this order wins instead of rejecting the name; this follows the reference service,
 * whose name resolver falls back to the A-share list. Pass null to reject such names as ambiguous.
 */
export const DEFAULT_CROSS_LISTING_PREFERENCE: readonly TMarket[] = ["cn", "hk", "us"];

export interface NameLookupOptions {
  sources?: readonly NameSource[];
  crossListingPreference?: readonly TMarket[] | null;
}

export type NameLookupResult =
  | { status: "found"; entry: TNameEntry; match: "exact" | "prefix" }
  | { status: "ambiguous"; candidates: readonly TNameEntry[]; more: boolean; match: "exact" | "prefix" }
  | { status: "unknown" };

function distinct(matches: readonly NameMatch[]): NameMatch[] {
  const seen = new Set<string>();
  return matches.filter((match) => {
    const id = entryIdentity(match.entry);
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

function preferCrossListing(matches: readonly NameMatch[], order: readonly TMarket[] | null): TNameEntry | undefined {
  if (!order) return undefined;
  const sameName = matches.every((match) => match.key === matches[0]!.key && match.entry.kind === "stock");
  const markets = new Set(matches.map((match) => match.entry.market));
  if (!sameName || markets.size !== matches.length) return undefined;
  for (const market of order) {
    const chosen = matches.find((match) => match.entry.market === market);
    if (chosen) return chosen.entry;
  }
  return undefined;
}

function decide(
  found: readonly NameMatch[],
  match: "exact" | "prefix",
  options: NameLookupOptions,
  more = false,
): NameLookupResult {
  const matches = distinct(found);
  if (matches.length === 1 && !more) return { status: "found", entry: matches[0]!.entry, match };
  // undefined means "use the default"; null explicitly switches the preference off.
  const order =
    options.crossListingPreference === undefined ? DEFAULT_CROSS_LISTING_PREFERENCE : options.crossListingPreference;
  const preferred = more ? undefined : preferCrossListing(matches, order);
  if (preferred) return { status: "found", entry: preferred, match };
  return { status: "ambiguous", candidates: matches.map((item) => item.entry), more, match };
}

/** Exact name (or alias, or pinyin initials) only; the first source that knows the name decides. */
export function lookupExactName(text: string, options: NameLookupOptions = {}): NameLookupResult {
  const key = nameKey(text);
  if (!key) return { status: "unknown" };
  for (const source of options.sources ?? activeNameSources()) {
    const exact = source.findExact(key);
    if (exact.length > 0) return decide(exact, "exact", options);
  }
  return { status: "unknown" };
}

/**
 * Name lookup for the analyze request: an exact match in any source first, then a unique prefix
 * ("宁德" → 宁德时代). Several candidates are ambiguous unless they are one cross-listed name.
 */
export function lookupName(text: string, options: NameLookupOptions = {}): NameLookupResult {
  const exact = lookupExactName(text, options);
  if (exact.status !== "unknown") return exact;
  const key = nameKey(text);
  if (key.length < MIN_PREFIX_LENGTH) return exact;
  for (const source of options.sources ?? activeNameSources()) {
    const prefixed = source.findByPrefix(key, PREFIX_CANDIDATES + 1);
    if (prefixed.length === 0) continue;
    const more = prefixed.length > PREFIX_CANDIDATES;
    return decide(prefixed.slice(0, PREFIX_CANDIDATES), "prefix", options, more);
  }
  return { status: "unknown" };
}
