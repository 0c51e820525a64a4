import { nameKey } from "./normalize-text";
import type { TMarket, TNameEntry } from "./schemas";

/** A name entry together with the key (name, alias or pinyin) that matched the query. */
export interface NameMatch {
  entry: TNameEntry;
  key: string;
}

/**
 * Where names come from. The bundled list implements it; a database-backed full list (filled by the
 * stocks refresh) can implement it too and be placed before the bundled one (see name-sources.ts).
 * The interface is synchronous on purpose: resolution runs per token on the request path, so a
 * database source is expected to load its rows into createNameIndex() and refresh that in memory.
 * Keys passed in are already normalised with nameKey(); codes are normalised codes.
 */
export interface NameSource {
  findExact(key: string): readonly NameMatch[];
  findByPrefix(key: string, limit: number): readonly NameMatch[];
  findContaining(key: string, limit: number): readonly NameMatch[];
  findByCode(market: TMarket, code: string): TNameEntry | undefined;
  findByCodePrefix(prefix: string, limit: number): readonly TNameEntry[];
}

export function entryIdentity(entry: TNameEntry): string {
  return `${entry.kind}:${entry.market}:${entry.code}`;
}

function keysOf(entry: TNameEntry): string[] {
  const texts = [entry.nameZh, entry.nameEn, ...(entry.aliases ?? []), entry.pinyin];
  const keys = texts.filter((text): text is string => Boolean(text)).map(nameKey);
  return [...new Set(keys)].filter((key) => key.length > 0);
}

function codesOf(entry: TNameEntry): string[] {
  const codes = [entry.code, ...(entry.altCodes ?? [])].map((code) => code.toUpperCase());
  // Hong Kong codes are often typed without the leading zeros (700 for 00700).
  if (entry.market === "hk" && entry.kind === "stock") codes.push(entry.code.replace(/^0+/, ""));
  return [...new Set(codes)].filter((code) => code.length > 0);
}

interface Keyed<T> {
  key: string;
  value: T;
}

function byKey<T>(a: Keyed<T>, b: Keyed<T>): number {
  if (a.key < b.key) return -1;
  return a.key > b.key ? 1 : 0;
}

// First position whose key is >= prefix; keys sharing the prefix follow it contiguously.
function lowerBound<T>(sorted: readonly Keyed<T>[], prefix: string): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle]!.key < prefix) low = middle + 1;
    else high = middle;
  }
  return low;
}

function collectPrefix<T>(
  sorted: readonly Keyed<T>[],
  prefix: string,
  limit: number,
  identity: (value: T) => string,
): Keyed<T>[] {
  const found: Keyed<T>[] = [];
  const seen = new Set<string>();
  for (let at = lowerBound(sorted, prefix); at < sorted.length && found.length < limit; at += 1) {
    const item = sorted[at]!;
    if (!item.key.startsWith(prefix)) break;
    const id = identity(item.value);
    if (seen.has(id)) continue;
    seen.add(id);
    found.push(item);
  }
  return found;
}

/**
 * An in-memory NameSource over a fixed set of entries. Maps and sorted key arrays are built once, so an
 * exact or by-code lookup is a hash lookup and a prefix lookup is a binary search; only "contains"
 * (used by the autocomplete, never by resolution) scans.
 */
export function createNameIndex(entries: Iterable<TNameEntry>): NameSource {
  const exact = new Map<string, NameMatch[]>();
  const byCode = new Map<string, TNameEntry>();
  const names: Keyed<TNameEntry>[] = [];
  const codes: Keyed<TNameEntry>[] = [];

  for (const entry of entries) {
    const codeKey = `${entry.market}:${entry.kind}:${entry.code}`;
    if (byCode.has(codeKey)) throw new Error(`name index: duplicate entry ${entry.market} ${entry.code}`);
    byCode.set(codeKey, entry);
    for (const key of keysOf(entry)) {
      const list = exact.get(key) ?? [];
      list.push({ entry, key });
      exact.set(key, list);
      names.push({ key, value: entry });
    }
    for (const code of codesOf(entry)) codes.push({ key: code, value: entry });
  }
  names.sort(byKey);
  codes.sort(byKey);

  return {
    findExact: (key) => exact.get(key) ?? [],
    findByPrefix: (key, limit) =>
      collectPrefix(names, key, limit, entryIdentity).map((item) => ({ entry: item.value, key: item.key })),
    findContaining(key, limit) {
      const found: NameMatch[] = [];
      const seen = new Set<string>();
      for (const item of names) {
        if (found.length >= limit) break;
        if (!item.key.includes(key) || seen.has(entryIdentity(item.value))) continue;
        seen.add(entryIdentity(item.value));
        found.push({ entry: item.value, key: item.key });
      }
      return found;
    },
    findByCode: (market, code) => byCode.get(`${market}:stock:${code}`) ?? byCode.get(`${market}:index:${code}`),
    findByCodePrefix: (prefix, limit) =>
      collectPrefix(codes, prefix.toUpperCase(), limit, entryIdentity).map((item) => item.value),
  };
}
