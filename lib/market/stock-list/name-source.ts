import { db } from "@/lib/db/client";
import {
  bundledNameEntries,
  createNameIndex,
  setPreferredNameSource,
  type NameSource,
  type TMarket,
  type TNameEntry,
} from "@/lib/market/symbols";

// The database-backed full list as a NameSource ("lookup then prefers" it). Resolution is
// synchronous and per token, so the table is read once into createNameIndex() and installed process-wide
// with setPreferredNameSource(); the bundled list stays behind it as the fallback (indices, aliases, and
// every name when the table is empty).
//
// Where to call it (not wired here on purpose):
//  - the server: once, lazily, before the first symbol lookup — e.g. `await ensureStockListNameSource()` at
//    the top of the analyze and /api/v1/stocks/search handlers (or in instrumentation.ts `register()`); it
//    memoises, so every later call is free, and a failure leaves the bundled list in charge;
//  - after `npm run stocks:refresh` in the same process (the script does this as a smoke check); a running
//    server picks up a refresh made by the script on its next start, or when it calls
//    loadStockListNameSource() again.

export interface LoadedNameSource {
  /** Rows read from stock_listing. */
  count: number;
  byMarket: Record<TMarket, number>;
  /** The installed source, or null when the table is empty (the bundled list then serves alone). */
  source: NameSource | null;
}

function bundledStocksByKey(): Map<string, TNameEntry> {
  const map = new Map<string, TNameEntry>();
  for (const entry of bundledNameEntries()) if (entry.kind === "stock") map.set(`${entry.market}:${entry.code}`, entry);
  return map;
}

interface ListingRow {
  market: string;
  code: string;
  nameZh: string;
  nameEn: string | null;
}

/**
 * Listing rows → name entries. The provider's current name wins (renames such as "*ST" prefixes); the
 * bundled list's English name, aliases and pinyin for the same code are kept, so the database source is a
 * superset of what the bundled list knew about that stock and a prefix like "Apple" still finds AAPL there.
 */
export function listingEntries(rows: readonly ListingRow[]): TNameEntry[] {
  const bundled = bundledStocksByKey();
  const entries: TNameEntry[] = [];
  for (const row of rows) {
    if (row.market !== "cn" && row.market !== "hk" && row.market !== "us") continue;
    const known = bundled.get(`${row.market}:${row.code}`);
    const entry: TNameEntry = { kind: "stock", market: row.market, code: row.code, nameZh: row.nameZh };
    const nameEn = known?.nameEn ?? row.nameEn ?? undefined;
    if (nameEn) entry.nameEn = nameEn;
    const aliases = [
      ...(known?.aliases ?? []),
      ...(known?.nameZh && known.nameZh !== row.nameZh ? [known.nameZh] : []),
    ];
    if (aliases.length > 0) entry.aliases = [...new Set(aliases)];
    if (known?.pinyin) entry.pinyin = known.pinyin;
    entries.push(entry);
  }
  return entries;
}

/** Reads stock_listing into memory and installs it as the preferred name source (see the note above). */
export async function loadStockListNameSource(): Promise<LoadedNameSource> {
  const rows = await db().stockListing.findMany({ select: { market: true, code: true, nameZh: true, nameEn: true } });
  const byMarket: Record<TMarket, number> = { cn: 0, hk: 0, us: 0 };
  for (const row of rows) if (row.market in byMarket) byMarket[row.market as TMarket] += 1;
  if (rows.length === 0) {
    setPreferredNameSource(null);
    return { count: 0, byMarket, source: null };
  }
  const source = createNameIndex(listingEntries(rows));
  setPreferredNameSource(source);
  return { count: rows.length, byMarket, source };
}

let loading: Promise<LoadedNameSource | null> | null = null;

/**
 * loadStockListNameSource() once per process; later calls share the first result. A database error (no
 * table yet, locked file) is swallowed: lookup keeps using the bundled list, and the next call retries.
 */
export function ensureStockListNameSource(): Promise<LoadedNameSource | null> {
  loading ??= loadStockListNameSource().catch(() => {
    loading = null;
    return null;
  });
  return loading;
}

/** Tests: forget the memo and uninstall the database source. */
export function resetStockListNameSource(): void {
  loading = null;
  setPreferredNameSource(null);
}
