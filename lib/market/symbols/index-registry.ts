import { INDEX_REGISTRY_DATA } from "./data/index-registry";
import { nameKey } from "./normalize-text";
import { ZIndexEntry, type TIndexEntry, type TResolvedIndex } from "./schemas";

// Parsed once at module load: the schema fills defaults and rejects malformed data before any request.
const ENTRIES: readonly TIndexEntry[] = Object.freeze(INDEX_REGISTRY_DATA.map((entry) => ZIndexEntry.parse(entry)));

const byCanonicalId = new Map<string, TIndexEntry>();
const byAliasKey = new Map<string, TIndexEntry>();
const byExchangeCode = new Map<string, TIndexEntry>();
const byCsiCode = new Map<string, TIndexEntry>();
const byShortCode = new Map<string, TIndexEntry>();
const byBareDigits = new Map<string, TIndexEntry>();

// A spelling claimed by two indices would make resolution depend on array order; fail loudly instead.
function claim(map: Map<string, TIndexEntry>, key: string, entry: TIndexEntry, what: string): void {
  const holder = map.get(key);
  if (holder && holder !== entry) {
    throw new Error(
      `index registry: ${what} "${key}" is claimed by both ${holder.canonicalId} and ${entry.canonicalId}`,
    );
  }
  map.set(key, entry);
}

export function aliasKeysOf(entry: TIndexEntry): string[] {
  const spellings = [
    entry.canonicalId,
    entry.displayCode,
    entry.nameZh,
    entry.nameEn,
    entry.providers.eastmoney,
    entry.providers.tencent,
    entry.providers.yahoo,
    ...entry.aliases,
  ];
  if (entry.pinyin) spellings.push(entry.pinyin);
  return [...new Set(spellings.map(nameKey))];
}

for (const entry of ENTRIES) {
  claim(byCanonicalId, entry.canonicalId, entry, "canonical id");
  for (const key of aliasKeysOf(entry)) claim(byAliasKey, key, entry, "alias");
  if (entry.exchange) claim(byExchangeCode, `${entry.exchange}:${entry.localCode}`, entry, "exchange code");
  for (const alternate of entry.alternateCodes)
    claim(byExchangeCode, `${alternate.exchange}:${alternate.code}`, entry, "exchange code");
  if (entry.providers.csi) claim(byCsiCode, entry.providers.csi, entry, "csi code");
  for (const shortCode of entry.shortCodes) claim(byShortCode, shortCode, entry, "short code");
  if (entry.bareDigitsAreIndex) claim(byBareDigits, entry.localCode, entry, "bare digits");
}

export function listIndexEntries(): readonly TIndexEntry[] {
  return ENTRIES;
}

export function getIndexEntry(canonicalId: string): TIndexEntry | undefined {
  return byCanonicalId.get(canonicalId);
}

/** Any registered spelling: canonical id, display code, provider symbol, alias, name or pinyin. */
export function findIndexByAlias(text: string): TIndexEntry | undefined {
  return byAliasKey.get(nameKey(text));
}

export function findIndexByExchangeCode(exchange: "SH" | "SZ" | "BJ", code: string): TIndexEntry | undefined {
  return byExchangeCode.get(`${exchange}:${code}`);
}

export function findIndexByCsiCode(code: string): TIndexEntry | undefined {
  return byCsiCode.get(code);
}

export function findIndexByShortCode(code: string): TIndexEntry | undefined {
  return byShortCode.get(code);
}

/** A bare 6-digit token that names an index rather than a stock (see bareDigitsAreIndex in the data). */
export function findIndexByBareDigits(code: string): TIndexEntry | undefined {
  return byBareDigits.get(code);
}

export function toResolvedIndex(entry: TIndexEntry, token: string): TResolvedIndex {
  const resolved: TResolvedIndex = {
    kind: "index",
    token,
    market: entry.region,
    code: entry.canonicalId,
    canonicalId: entry.canonicalId,
    displayCode: entry.displayCode,
    name: entry.nameZh,
    nameEn: entry.nameEn,
  };
  if (entry.exchange) resolved.exchange = entry.exchange;
  return resolved;
}
