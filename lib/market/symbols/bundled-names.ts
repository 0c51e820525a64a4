import type { NameRow } from "./data/name-row";
import { CN_NAMES } from "./data/names-cn";
import { HK_NAMES } from "./data/names-hk";
import { US_NAMES } from "./data/names-us";
import { listIndexEntries } from "./index-registry";
import { createNameIndex, type NameSource } from "./name-index";
import type { TMarket, TNameEntry } from "./schemas";

function stockEntry(market: TMarket, [code, nameZh, nameEn, aliases]: NameRow): TNameEntry {
  const entry: TNameEntry = { kind: "stock", market, code };
  if (nameZh) entry.nameZh = nameZh;
  if (nameEn) entry.nameEn = nameEn;
  if (aliases && aliases.length > 0) entry.aliases = [...aliases];
  return entry;
}

// Registered indices are names too (沪深300, Hang Seng Tech), so search and prefix lookup reach them.
function indexEntries(): TNameEntry[] {
  return listIndexEntries().map((index) => {
    const entry: TNameEntry = {
      kind: "index",
      market: index.region,
      code: index.canonicalId,
      nameZh: index.nameZh,
      nameEn: index.nameEn,
      aliases: [...index.aliases],
      altCodes: [index.displayCode, index.localCode],
    };
    if (index.pinyin) entry.pinyin = index.pinyin;
    return entry;
  });
}

export function bundledNameEntries(): TNameEntry[] {
  return [
    ...CN_NAMES.map((row) => stockEntry("cn", row)),
    ...HK_NAMES.map((row) => stockEntry("hk", row)),
    ...US_NAMES.map((row) => stockEntry("us", row)),
    ...indexEntries(),
  ];
}

/** The name list shipped with the code, indexed once at module load. */
export const BUNDLED_NAMES: NameSource = createNameIndex(bundledNameEntries());
