import { indexProviderSymbol, round } from "./symbol-map";
import { httpGetText, num, parseJson } from "./http";
import { unixToMarketDate, unixToZonedIso } from "@/lib/market/market-time";
import type { TMarket } from "@/lib/market/symbols";
import {
  ProviderResponseError,
  ZDailyBars,
  ZQuote,
  type CallContext,
  type MarketDataProvider,
  type TDailyBar,
  type TFxRate,
  type TMarketSymbol,
  type TQuote,
} from "./types";

// Yahoo's v8 chart endpoint needs no cookie or crumb (v7 quote does), so both bars and the quote come
// from it, by plain fetch (yahoo-finance2 is not a dependency). Fixture: tests/fixtures/market-data/yahoo.
const CHART_URL = "https://query2.finance.yahoo.com/v8/finance/chart/";

/** Yahoo's symbol: AAPL, BRK-B, 0700.HK, 9988.HK; indices from the registry (^GSPC, ^HSI). */
export function yahooSymbol(symbol: TMarketSymbol): string | null {
  if (symbol.market === "cn") return null; // A-shares come from Eastmoney/Tencent (Yahoo is US/HK)
  if (symbol.kind === "index") return indexProviderSymbol(symbol, "yahoo");
  if (symbol.market === "hk") return `${String(Number(symbol.code)).padStart(4, "0")}.HK`;
  return symbol.code.replace(".", "-");
}

export function yahooRange(days: number): string {
  const ranges: [number, string][] = [
    [5, "5d"],
    [21, "1mo"],
    [63, "3mo"],
    [126, "6mo"],
    [252, "1y"],
    [504, "2y"],
    [1260, "5y"],
  ];
  return ranges.find(([n]) => days <= n)?.[1] ?? "10y";
}

interface ChartResult {
  meta: Record<string, unknown>;
  timestamp?: unknown;
  indicators?: { quote?: Record<string, unknown[]>[] };
}

function chartResult(text: string): ChartResult | null {
  const body = parseJson(text, "yahoo chart") as {
    chart?: { result?: unknown; error?: { code?: string; description?: string } | null };
  };
  const chart = body?.chart;
  if (!chart || typeof chart !== "object") throw new ProviderResponseError("yahoo chart: no chart object");
  if (chart.error) {
    if (chart.error.code === "Not Found") return null; // unknown symbol: no data
    throw new ProviderResponseError(`yahoo chart: ${chart.error.code ?? "error"} ${chart.error.description ?? ""}`);
  }
  const result = Array.isArray(chart.result) ? (chart.result[0] as ChartResult | undefined) : undefined;
  if (!result) return null;
  if (!result.meta || typeof result.meta !== "object") throw new ProviderResponseError("yahoo chart: no meta");
  return result;
}

function barsOf(result: ChartResult, market: TMarket): TDailyBar[] {
  const ts = Array.isArray(result.timestamp) ? result.timestamp : [];
  const q = result.indicators?.quote?.[0] ?? {};
  const rows: Record<string, unknown>[] = [];
  ts.forEach((t, i) => {
    const open = num(q.open?.[i]);
    const high = num(q.high?.[i]);
    const low = num(q.low?.[i]);
    const close = num(q.close?.[i]);
    // Partial days carry nulls; they are not bars. A non-numeric timestamp is garbage and fails below.
    if (open === null && high === null && low === null && close === null) return;
    rows.push({
      date: typeof t === "number" ? unixToMarketDate(t, market) : t,
      open: open === null ? null : round(open),
      high: high === null ? null : round(high),
      low: low === null ? null : round(low),
      close: close === null ? null : round(close),
      volume: num(q.volume?.[i]),
      amount: null,
      turnover_rate: null,
      source: "yahoo",
    });
  });
  return ZDailyBars.parse(rows);
}

/** Chart reply → daily bars (split-adjusted OHLC as Yahoo sends them), oldest first. */
export function parseYahooChartBars(text: string, market: TMarket): TDailyBar[] {
  const result = chartResult(text);
  return result ? barsOf(result, market) : [];
}

const MAX_PREV_GAP_DAYS = 10;

/**
 * Chart reply → quote: price, day high/low/volume and time from `meta`; open from the session's bar;
 * previous close from the last bar before the session. When the bars do not reach back to the session
 * before (a stale or historical range) there is no daily change to report, so no quote.
 */
export function parseYahooChartQuote(text: string, market: TMarket): TQuote | null {
  const result = chartResult(text);
  if (!result) return null;
  const meta = result.meta;
  const price = num(meta.regularMarketPrice);
  const time = num(meta.regularMarketTime);
  if (price === null || time === null) return null;
  const session = unixToMarketDate(time, market);
  const bars = barsOf(result, market);
  const today = bars.find((b) => b.date === session);
  const before = bars.filter((b) => b.date < session).at(-1);
  if (!before) return null;
  const gapDays = (Date.parse(session) - Date.parse(before.date)) / 86_400_000;
  if (gapDays > MAX_PREV_GAP_DAYS) return null;
  const prev = before.close;
  return ZQuote.parse({
    price,
    change: round(price - prev),
    change_pct: round(((price - prev) / prev) * 100, 4),
    volume: num(meta.regularMarketVolume) ?? today?.volume ?? null,
    amount: null,
    volume_ratio: null,
    turnover_rate: null,
    high: num(meta.regularMarketDayHigh) ?? today?.high ?? null,
    low: num(meta.regularMarketDayLow) ?? today?.low ?? null,
    open: today?.open ?? null,
    prev_close: prev,
    time: unixToZonedIso(time, market),
    ...(typeof meta.shortName === "string" ? { name: meta.shortName } : {}),
    source: "yahoo",
  });
}

/** A currency pair's chart (USDCNY=X) → its latest rate and session date; null when Yahoo has no such pair. */
export function parseYahooFxRate(text: string): TFxRate | null {
  const result = chartResult(text);
  if (!result) return null;
  const price = num(result.meta.regularMarketPrice);
  const time = num(result.meta.regularMarketTime);
  if (price === null || price <= 0 || time === null)
    throw new ProviderResponseError("yahoo fx: no price or time in meta");
  return { rate: price, date: new Date(time * 1000).toISOString().slice(0, 10), source: "yahoo" };
}

async function fetchChart(symbol: TMarketSymbol, range: string, ctx: CallContext): Promise<string> {
  const sym = yahooSymbol(symbol)!;
  const params = new URLSearchParams({ interval: "1d", range, includePrePost: "false" });
  return httpGetText(`${CHART_URL}${encodeURIComponent(sym)}?${params}`, { signal: ctx.signal });
}

export function createYahooProvider(): MarketDataProvider {
  return {
    name: "yahoo",
    serves: (symbol) => yahooSymbol(symbol) !== null,
    async dailyBars(symbol, days, ctx) {
      return parseYahooChartBars(await fetchChart(symbol, yahooRange(days), ctx), symbol.market).slice(-days);
    },
    async quote(symbol, ctx) {
      return parseYahooChartQuote(await fetchChart(symbol, "5d", ctx), symbol.market);
    },
    async fxRate(currency, ctx) {
      const params = new URLSearchParams({ interval: "1d", range: "5d" });
      return parseYahooFxRate(
        await httpGetText(`${CHART_URL}${encodeURIComponent(`${currency}CNY=X`)}?${params}`, { signal: ctx.signal }),
      );
    },
  };
}
