import { afterEach, describe, expect, it } from "vitest";
import { setClock } from "@/lib/clock";
import { currentPrice, getPriceSeries } from "./current-price";
import type { ChainOptions } from "./providers/chain";
import type { MarketDataProvider, TDailyBar, TMarketSymbol, TQuote } from "./providers/types";

// The one price every feature reads (portfolio valuation, alert checks), by the same merge rule
// as the analysis headline. A user's-file provider (cache bypassed) serves fixed bars and a chosen quote.

const AAPL: TMarketSymbol = { kind: "stock", market: "us", code: "AAPL" };
const bar = (date: string, close: number): TDailyBar => ({
  date,
  open: close,
  high: close + 1,
  low: close - 1,
  close,
  volume: 1000,
  amount: null,
  turnover_rate: null,
  source: "csv",
});
const BARS = [bar("2026-07-21", 100), bar("2026-07-22", 102), bar("2026-07-23", 104)];
const quoteAt = (time: string, price: number): TQuote => ({
  price,
  change: 1,
  change_pct: 0.5,
  volume: 500,
  amount: null,
  volume_ratio: 1.1,
  turnover_rate: null,
  high: price + 2,
  low: price - 2,
  open: price - 1,
  prev_close: 104,
  time,
  source: "csv",
});

function chainWith(quote: TQuote | null, bars: TDailyBar[] = BARS): ChainOptions {
  const provider: MarketDataProvider = {
    name: "csv",
    serves: () => true,
    dailyBars: async (_symbol, days) => bars.slice(-days),
    quote: async () => quote,
    bypassesCache: async () => true,
  };
  return { providers: [provider], timeoutMs: 1000, retries: 0 };
}

afterEach(() => setClock(null));

describe("one price everywhere: currentPrice", () => {
  it("a quote newer than the last bar is the price, of its own session", async () => {
    setClock(() => new Date("2026-07-24T15:00:00Z"));
    const p = await currentPrice(AAPL, chainWith(quoteAt("2026-07-24T10:30:00-04:00", 107.5)));
    expect(p).toMatchObject({
      price: 107.5,
      change_pct: 0.5,
      date: "2026-07-24",
      basis: "quote",
      time: "2026-07-24T10:30:00-04:00",
      source: "csv",
    });
  });

  it("a quote of the last bar's session replaces its close", async () => {
    setClock(() => new Date("2026-07-24T15:00:00Z"));
    const p = await currentPrice(AAPL, chainWith(quoteAt("2026-07-23T15:59:00-04:00", 104.2)));
    expect(p).toMatchObject({ price: 104.2, date: "2026-07-23", basis: "quote" });
  });

  it("a quote older than the last bar is ignored: the last close is the price, its change from the closes", async () => {
    setClock(() => new Date("2026-07-24T15:00:00Z"));
    const stale = quoteAt("2026-07-22T16:00:00-04:00", 99);
    const p = await currentPrice(AAPL, chainWith(stale));
    expect(p).toMatchObject({ price: 104, date: "2026-07-23", basis: "close", time: null, quote: stale });
    expect(p.change_pct).toBeCloseTo(((104 - 102) / 102) * 100, 12);
  });

  it("no quote: the last close, and why there is no quote; no bars: the quote alone", async () => {
    setClock(() => new Date("2026-07-24T15:00:00Z"));
    const p = await currentPrice(AAPL, chainWith(null));
    expect(p).toMatchObject({ price: 104, basis: "close", quote: null });
    expect(p.quoteFailure).toMatch(/no market data/);
    const series = await getPriceSeries(AAPL, 250, chainWith(quoteAt("2026-07-24T10:30:00-04:00", 107.5), []));
    expect(series.current).toMatchObject({ price: 107.5, basis: "quote" });
    await expect(currentPrice(AAPL, chainWith(null, []))).rejects.toThrow(/no market data/);
  });
});
