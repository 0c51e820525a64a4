import { now } from "@/lib/clock";
import { db } from "@/lib/db/client";
import type { TMarket } from "@/lib/market/symbols";
import { fetchMarketList, type FetchListOptions } from "./eastmoney-clist";
import { storeListings } from "./store";

// One refresh of the stock list (what `npm run stocks:refresh` runs): each market is fetched in full, then
// stored in its own transaction. Markets are independent: one failing does not stop the others, and the
// rows of a partly read market are still upserted (nothing is ever deleted by a refresh).

export const LIST_MARKETS: readonly TMarket[] = ["cn", "hk", "us"];
export const REFRESH_STATE_KEY = "stocks_refresh";

export interface MarketRefresh {
  market: TMarket;
  /** Rows matching the filter per the provider. */
  listed: number;
  /** Rows read and upserted this time. */
  written: number;
  /** Rows of this market in the table afterwards. */
  stored: number;
  complete: boolean;
  error: string | null;
  offline: boolean;
}

export interface RefreshSummary {
  source: "eastmoney";
  at: string;
  markets: MarketRefresh[];
  ok: boolean;
  /** Every market failed on the network before any row was read. */
  offline: boolean;
}

export interface RefreshOptions extends FetchListOptions {
  markets?: readonly TMarket[];
}

export async function refreshStockList(options: RefreshOptions = {}): Promise<RefreshSummary> {
  const markets: MarketRefresh[] = [];
  for (const market of options.markets ?? LIST_MARKETS) {
    const fetched = await fetchMarketList(market, options);
    const stored = fetched.rows.length > 0 ? await storeListings(market, fetched.rows, "eastmoney") : null;
    markets.push({
      market,
      listed: fetched.total,
      written: stored?.written ?? 0,
      stored: stored?.stored ?? (await db().stockListing.count({ where: { market } })),
      complete: fetched.complete,
      error: fetched.error,
      offline: fetched.offline,
    });
  }
  const summary: RefreshSummary = {
    source: "eastmoney",
    at: now().toISOString(),
    markets,
    ok: markets.every((m) => m.complete),
    offline: markets.length > 0 && markets.every((m) => m.offline && m.written === 0),
  };
  if (markets.some((m) => m.written > 0)) {
    // AppState keeps "when did the last refresh write anything", for diagnostics and the admin page.
    const value = JSON.stringify(summary);
    await db().appState.upsert({
      where: { key: REFRESH_STATE_KEY },
      create: { key: REFRESH_STATE_KEY, value },
      update: { value },
    });
  }
  return summary;
}
