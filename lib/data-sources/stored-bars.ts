import { db } from "@/lib/db/client";
import { listIndexEntries } from "@/lib/market/symbols";

// The fetch history kept in the database: the daily bars stored per market (by the symbol key's market, an index
// by its registered region), with the newest fetch. It outlives restarts, unlike the process's call counts.

export interface StoredBars {
  symbols: number;
  lastFetchedAt: string | null;
  /** Newest fetch per source. */
  bySource: Map<string, string>;
}

function marketOfKey(key: string, regions: Map<string, string>): string | null {
  const [head, rest] = [key.slice(0, key.indexOf(":")), key.slice(key.indexOf(":") + 1)];
  if (head === "cn" || head === "hk" || head === "us") return head;
  if (head === "index") return regions.get(rest) ?? null;
  return null;
}

export async function storedBarsByMarket(): Promise<Map<string, StoredBars>> {
  const groups = await db().dailyBar.groupBy({ by: ["symbolKey", "source"], _max: { fetchedAt: true } });
  const regions = new Map(listIndexEntries().map((e) => [e.canonicalId, e.region as string]));
  const out = new Map<string, StoredBars & { keys: Set<string> }>();
  for (const group of groups) {
    const market = marketOfKey(group.symbolKey, regions);
    const at = group._max.fetchedAt?.toISOString() ?? null;
    if (!market || !at) continue;
    const entry = out.get(market) ?? { symbols: 0, lastFetchedAt: null, bySource: new Map(), keys: new Set() };
    entry.keys.add(group.symbolKey);
    entry.symbols = entry.keys.size;
    if (!entry.lastFetchedAt || at > entry.lastFetchedAt) entry.lastFetchedAt = at;
    const sourceAt = entry.bySource.get(group.source);
    if (!sourceAt || at > sourceAt) entry.bySource.set(group.source, at);
    out.set(market, entry);
  }
  return new Map(
    [...out].map(([market, entry]) => [
      market,
      { symbols: entry.symbols, lastFetchedAt: entry.lastFetchedAt, bySource: entry.bySource },
    ]),
  );
}
