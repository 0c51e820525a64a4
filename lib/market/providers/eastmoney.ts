import { round, aShareExchange, indexProviderSymbol } from "./symbol-map";
import { httpGetText, num, parseJson, unwrapJsonp } from "./http";
import { unixToZonedIso } from "@/lib/market/market-time";
import type { TMarket } from "@/lib/market/symbols";
import {
  ProviderResponseError,
  type CallContext,
  type MarketDataProvider,
  type TDailyBar,
  type TMarketSymbol,
  type TQuote,
  ZDailyBars,
  ZQuote,
} from "./types";

// Eastmoney push2 / push2his JSON API (fixtures: tests/fixtures/market-data/eastmoney, README there).
const HEADERS = { Referer: "https://quote.eastmoney.com/" };
const KLINE_URL = "https://push2his.eastmoney.com/api/qt/stock/kline/get";
const QUOTE_URL = "https://push2.eastmoney.com/api/qt/stock/get";
const QUOTE_FIELDS = "f43,f44,f45,f46,f47,f48,f50,f57,f58,f59,f60,f86,f168,f169,f170";
// US tickers: the exchange is not part of the resolved symbol; a wrong prefix answers data: null.
const US_PREFIXES = ["105", "106", "107"];

/** The secids to try, in order: one for A/HK stocks and indices, up to three for US tickers. */
export function eastmoneySecids(symbol: TMarketSymbol): string[] {
  if (symbol.kind === "index") {
    const secid = indexProviderSymbol(symbol, "eastmoney");
    return secid ? [secid] : [];
  }
  if (symbol.market === "hk") return [`116.${symbol.code.padStart(5, "0")}`];
  if (symbol.market === "us") return US_PREFIXES.map((p) => `${p}.${symbol.code.replace(".", "_")}`);
  const exchange = aShareExchange(symbol);
  if (!exchange) return [];
  return [`${exchange === "SH" ? "1" : "0"}.${symbol.code}`];
}

interface Envelope {
  rc?: unknown;
  data?: unknown;
}

function envelope(text: string, what: string): Envelope {
  const body = parseJson(unwrapJsonp(text), what);
  if (!body || typeof body !== "object" || !("rc" in body)) throw new ProviderResponseError(`${what}: no rc in reply`);
  const env = body as Envelope;
  // rc 100 with data null is Eastmoney's "no data" (unknown secid, no bars): an empty answer, not an error.
  if (env.rc !== 0 && env.rc !== 100) throw new ProviderResponseError(`${what}: rc ${String(env.rc)}`);
  return env;
}

// A-share volumes come in lots of 100 shares; HK and US in shares.
function volumeFactor(market: TMarket): number {
  return market === "cn" ? 100 : 1;
}

/** Kline reply (JSON or JSONP) → bars, oldest first; [] for Eastmoney's "no data". */
export function parseEastmoneyKline(text: string, market: TMarket): TDailyBar[] {
  const env = envelope(text, "eastmoney kline");
  if (env.data === null || env.data === undefined) return [];
  const klines = (env.data as { klines?: unknown }).klines;
  if (!Array.isArray(klines)) throw new ProviderResponseError("eastmoney kline: data.klines is not an array");
  const rows = klines.map((row) => {
    if (typeof row !== "string") throw new ProviderResponseError("eastmoney kline: row is not a string");
    // f51 date, f52 open, f53 close, f54 high, f55 low, f56 volume, f57 amount, f58 amplitude,
    // f59 change %, f60 change, f61 turnover % — note close before high.
    const c = row.split(",");
    const volume = num(c[5]);
    return {
      date: (c[0] ?? "").slice(0, 10),
      open: num(c[1]),
      close: num(c[2]),
      high: num(c[3]),
      low: num(c[4]),
      volume: volume === null ? null : volume * volumeFactor(market),
      amount: num(c[6]),
      turnover_rate: num(c[10]),
      source: "eastmoney",
    };
  });
  return ZDailyBars.parse(rows);
}

/** stock/get reply (without fltt: prices are integers scaled by 10^decimals, percents by 100) → quote. */
export function parseEastmoneyQuote(text: string, market: TMarket): TQuote | null {
  const env = envelope(text, "eastmoney quote");
  if (env.data === null || env.data === undefined) return null;
  const d = env.data as Record<string, unknown>;
  const rawPrice = num(d.f43);
  if (rawPrice === null) return null; // "-": not trading
  const decimals = num(d.f59) ?? (market === "cn" ? 2 : 3);
  const px = (v: unknown) => {
    const n = num(v);
    return n === null ? null : round(n / 10 ** decimals, decimals + 2);
  };
  const pct = (v: unknown) => {
    const n = num(v);
    return n === null ? null : n / 100;
  };
  const price = round(rawPrice / 10 ** decimals, decimals + 2);
  const prevClose = px(d.f60);
  const change = px(d.f169) ?? (prevClose === null ? null : round(price - prevClose, decimals + 2));
  const changePct = pct(d.f170) ?? (prevClose ? round(((price - prevClose) / prevClose) * 100, 2) : null);
  const volume = num(d.f47);
  const time = num(d.f86);
  return ZQuote.parse({
    price,
    change,
    change_pct: changePct,
    volume: volume === null ? null : volume * volumeFactor(market),
    amount: num(d.f48),
    volume_ratio: pct(d.f50),
    turnover_rate: pct(d.f168),
    high: px(d.f44),
    low: px(d.f45),
    open: px(d.f46),
    prev_close: prevClose,
    time: time === null ? null : unixToZonedIso(time, market),
    ...(typeof d.f58 === "string" && d.f58 !== "-" ? { name: d.f58 } : {}),
    source: "eastmoney",
  });
}

export function createEastmoneyProvider(): MarketDataProvider {
  return {
    name: "eastmoney",
    serves: (symbol) => eastmoneySecids(symbol).length > 0,
    async dailyBars(symbol: TMarketSymbol, days: number, ctx: CallContext) {
      for (const secid of eastmoneySecids(symbol)) {
        const params = new URLSearchParams({
          secid,
          fields1: "f1,f2,f3,f4,f5,f6",
          fields2: "f51,f52,f53,f54,f55,f56,f57,f58,f59,f60,f61",
          klt: "101",
          fqt: "1",
          end: "20500101", // "latest"; lmt counts back from it
          lmt: String(days),
        });
        const text = await httpGetText(`${KLINE_URL}?${params}`, { signal: ctx.signal, headers: HEADERS });
        const bars = parseEastmoneyKline(text, symbol.market);
        if (bars.length > 0) return bars.slice(-days);
      }
      return [];
    },
    async quote(symbol: TMarketSymbol, ctx: CallContext) {
      for (const secid of eastmoneySecids(symbol)) {
        const params = new URLSearchParams({ secid, fields: QUOTE_FIELDS });
        const text = await httpGetText(`${QUOTE_URL}?${params}`, { signal: ctx.signal, headers: HEADERS });
        const quote = parseEastmoneyQuote(text, symbol.market);
        if (quote) return quote;
      }
      return null;
    },
  };
}
