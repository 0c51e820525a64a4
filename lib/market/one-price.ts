import { localParts, MARKET_TIME_ZONE } from "./market-time";
import type { TDailyBar, TQuote } from "./providers/types";
import type { TMarket } from "./symbols";

// One price everywhere: the analysis headline, the chart's last candle, the history row, the
// share card, portfolio valuation and alert checks all read a security's price through this module, so the
// same moment shows the same figure. The rule: the quote when it is at least as new as the last daily bar (today's
// bar is then built from it, or the bar of its own session takes its price), else the last bar's close.
// Pure functions here; current-price.ts reads the data.

export type QuoteMerge = "appended" | "replaced" | "ignored_stale" | "none";

export interface MergedSeries {
  /** Oldest first; the last bar is provisional (built from the quote) when merge is "appended". */
  bars: TDailyBar[];
  merge: QuoteMerge;
}

/**
 * The quote is the freshest price. Intraday the bars usually end yesterday: today becomes a provisional bar from
 * the quote (its open, high, low, price and volume) so MAs, bias and the chart use today's price. On the bar's
 * own date the quote's price replaces the close. A quote older than the last bar is stale and ignored: the last
 * close is the price. A provisional bar without a quote volume carries NaN (unknown).
 */
export function mergeQuoteBars(bars: readonly TDailyBar[], quote: TQuote | null, market: TMarket): MergedSeries {
  const out = [...bars];
  if (!quote) return { bars: out, merge: "none" };
  const lastBar = bars.at(-1);
  const quoteDate = localParts(new Date(quote.time), MARKET_TIME_ZONE[market]).date;
  if (lastBar && quoteDate < lastBar.date) return { bars: out, merge: "ignored_stale" };
  if (lastBar && quoteDate === lastBar.date) {
    out[out.length - 1] = {
      ...lastBar,
      close: quote.price,
      high: Math.max(lastBar.high, quote.price),
      low: Math.min(lastBar.low, quote.price),
    };
    return { bars: out, merge: "replaced" };
  }
  const open = quote.open ?? quote.prev_close ?? lastBar?.close ?? quote.price;
  out.push({
    date: quoteDate,
    open,
    high: Math.max(quote.high ?? quote.price, quote.price, open),
    low: Math.min(quote.low ?? quote.price, quote.price, open),
    close: quote.price,
    volume: quote.volume ?? Number.NaN,
    amount: quote.amount,
    turnover_rate: quote.turnover_rate,
    source: quote.source,
  });
  return { bars: out, merge: "appended" };
}

/** The day's change in percent: the quote's own figure when it is current (0 stays 0), else the last two closes. */
export function seriesChangePct(
  bars: readonly { close: number }[],
  quote: TQuote | null,
  merge: QuoteMerge,
): number | null {
  if (quote && merge !== "ignored_stale") return quote.change_pct;
  if (bars.length < 2) return null;
  const prev = bars[bars.length - 2]!.close;
  return ((bars[bars.length - 1]!.close - prev) / prev) * 100;
}

export interface OnePrice {
  price: number;
  change_pct: number | null;
  /** The session the price belongs to (the market's local date). */
  date: string;
  /** "quote": today's (or the last session's) quote; "close": the last daily bar's close. */
  basis: "quote" | "close";
  /** The quote's time when the basis is the quote. */
  time: string | null;
  source: string;
}

/** The price a merged series stands for, with its moment; null for an empty series. */
export function onePriceOf(series: MergedSeries, quote: TQuote | null): OnePrice | null {
  const last = series.bars.at(-1);
  if (!last) return null;
  const fromQuote = quote !== null && (series.merge === "appended" || series.merge === "replaced");
  return {
    price: last.close,
    change_pct: seriesChangePct(series.bars, quote, series.merge),
    date: last.date,
    basis: fromQuote ? "quote" : "close",
    time: fromQuote ? quote.time : null,
    source: fromQuote ? quote.source : last.source,
  };
}
