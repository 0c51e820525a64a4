import { now } from "@/lib/clock";
import { getDailyBars } from "@/lib/market/bars/daily-bars";
import { mergeQuoteBars } from "@/lib/market/one-price";
import { marketOverview, type TMarketBreadth, type TMarketOverview } from "@/lib/market/overview";
import { configuredChain, type ChainOptions } from "@/lib/market/providers/chain";
import type { ProviderName, TDailyBar, TMarketSymbol, TQuote } from "@/lib/market/providers/types";
import { listIndexEntries, type TIndexEntry, type TMarket } from "@/lib/market/symbols";
import { withTimeBudget } from "@/lib/time-budget";

// The Market page's index strip: for one region, every registered index with its quote (from
// marketOverview, so the quote cache and the breadth come along) and its last `days` daily closes (getDailyBars,
// through the bar cache), read in parallel. One index or one provider failing never fails the strip: that part
// is null with the reason. A time budget bounds the wait; the reads that outlive it still fill the caches.

export const STRIP_DAYS = 60;
export const STRIP_BUDGET_MS = 5000;

export interface IndexStripRow {
  canonical_id: string;
  display_code: string;
  name: string;
  name_en: string;
  quote: TQuote | null;
  quote_source: ProviderName | null;
  /** Why there is no quote, else null. */
  quote_error: string | null;
  /**
   * Daily closes, oldest first, at most `days`: the final bars with the quote merged in as the last point when it
   * is newer (one price: the line ends at the price shown beside it).
   */
  closes: { date: string; close: number }[];
  bars_source: ProviderName | null;
  /** Why there are no bars, else null. */
  bars_error: string | null;
}

export interface IndexStrip {
  region: TMarket;
  as_of: string;
  /** True when any figure on the strip comes from the sample provider (the UI labels it). */
  is_sample: boolean;
  indices: IndexStripRow[];
  breadth: TMarketBreadth | null;
  /** Why there is no breadth, else null. */
  breadth_note: string | null;
}

export interface IndexStripOptions {
  days?: number;
  /** Defaults to the configured chain (MARKET_DATA_SOURCES, MARKET_DATA_TIMEOUT_MS). */
  chain?: ChainOptions;
  budgetMs?: number;
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function symbolOf(entry: TIndexEntry): TMarketSymbol {
  return { kind: "index", market: entry.region, code: entry.canonicalId, canonicalId: entry.canonicalId };
}

type BarsOutcome = { bars: TDailyBar[]; source: ProviderName | null; error: string | null };

async function barsOf(entry: TIndexEntry, days: number, chain: ChainOptions, budgetMs: number): Promise<BarsOutcome> {
  try {
    const result = await withTimeBudget(getDailyBars(symbolOf(entry), days, chain), budgetMs);
    if (result.bars.length === 0) return { bars: [], source: null, error: `${result.source}: no daily bars` };
    return { bars: result.bars, source: result.source, error: null };
  } catch (error) {
    return { bars: [], source: null, error: reasonOf(error) };
  }
}

async function overviewOf(
  region: TMarket,
  chain: ChainOptions,
  budgetMs: number,
): Promise<TMarketOverview | { error: string }> {
  try {
    return await withTimeBudget(marketOverview(region, { chain }), budgetMs);
  } catch (error) {
    return { error: reasonOf(error) };
  }
}

/** The registered indices of `region` with quote, day range and recent closes, and the region's breadth. */
export async function indexStrip(region: TMarket, options: IndexStripOptions = {}): Promise<IndexStrip> {
  const days = Math.max(2, Math.floor(options.days ?? STRIP_DAYS));
  const budgetMs = options.budgetMs ?? STRIP_BUDGET_MS;
  const entries = listIndexEntries().filter((entry) => entry.region === region);
  let chain: ChainOptions;
  try {
    chain = options.chain ?? configuredChain();
  } catch (error) {
    const reason = reasonOf(error);
    const indices = entries.map((entry) => ({
      ...baseOf(entry),
      quote: null,
      quote_source: null,
      quote_error: reason,
      closes: [],
      bars_source: null,
      bars_error: reason,
    }));
    return { region, as_of: now().toISOString(), is_sample: false, indices, breadth: null, breadth_note: reason };
  }
  const [overview, bars] = await Promise.all([
    overviewOf(region, chain, budgetMs),
    Promise.all(entries.map((entry) => barsOf(entry, days, chain, budgetMs))),
  ]);
  const quoted = "error" in overview ? null : overview;
  const indices = entries.map((entry, i): IndexStripRow => {
    const found = quoted?.indices.find((index) => index.canonical_id === entry.canonicalId);
    const quote = found?.quote ?? null;
    const series = bars[i]!;
    const merged = mergeQuoteBars(series.bars, quote, region).bars.slice(-days);
    return {
      ...baseOf(entry),
      quote,
      quote_source: found?.source ?? null,
      quote_error: quote ? null : (found?.error ?? ("error" in overview ? overview.error : "no quote")),
      closes: series.bars.length === 0 ? [] : merged.map((bar) => ({ date: bar.date, close: bar.close })),
      bars_source: series.source,
      bars_error: series.error,
    };
  });
  const breadth = quoted?.breadth ?? null;
  const isSample =
    indices.some((row) => row.quote_source === "sample" || row.bars_source === "sample") ||
    breadth?.source === "sample";
  return {
    region,
    as_of: quoted?.as_of ?? now().toISOString(),
    is_sample: isSample,
    indices,
    breadth,
    breadth_note: breadth ? null : "error" in overview ? overview.error : (quoted?.breadth_note ?? null),
  };
}

function baseOf(entry: TIndexEntry) {
  return {
    canonical_id: entry.canonicalId,
    display_code: entry.displayCode,
    name: entry.nameZh,
    name_en: entry.nameEn,
  };
}
