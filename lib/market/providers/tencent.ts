import { aShareExchange, indexProviderSymbol, round } from "./symbol-map";
import { httpGetText, num, parseJson } from "./http";
import { MARKET_TIME_ZONE, zonedIso } from "@/lib/market/market-time";
import type { TMarket } from "@/lib/market/symbols";
import {
  ProviderResponseError,
  ZDailyBars,
  ZQuote,
  type CallContext,
  type MarketDataProvider,
  type TDailyBar,
  type TMarketSymbol,
  type TQuote,
} from "./types";

// Tencent qt.gtimg.cn (GBK text) and fqkline (JSON). Field indexes: tests/fixtures/market-data/README.md.
const QT_URL = "https://qt.gtimg.cn/q=";
const KLINE_URL = "https://web.ifzq.gtimg.cn/appstock/app/fqkline/get";
const HEADERS = { Referer: "https://gu.qq.com/" };

/** Tencent's own symbol: sh600519, sz000001, bj920748, hk00700, usAAPL; indices from the registry. */
export function tencentSymbol(symbol: TMarketSymbol): string | null {
  if (symbol.kind === "index") return indexProviderSymbol(symbol, "tencent");
  if (symbol.market === "hk") return `hk${symbol.code.padStart(5, "0")}`;
  if (symbol.market === "us") return `us${symbol.code}`;
  const exchange = aShareExchange(symbol);
  return exchange ? `${exchange.toLowerCase()}${symbol.code}` : null;
}

/** `v_<sym>="a~b~...";` statements → fields by symbol. `v_pv_none_match` (unknown symbol) is skipped. */
export function splitTencentQt(text: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const re = /v_([A-Za-z0-9_.]+)="([^"]*)";?/g;
  for (const m of text.matchAll(re)) {
    if (m[1] === "pv_none_match") continue;
    out.set(m[1] ?? "", (m[2] ?? "").split("~"));
  }
  return out;
}

function tencentTime(raw: string | undefined, market: TMarket): string | null {
  const t = (raw ?? "").trim();
  let m = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/.exec(t);
  m ??= /^(\d{4})[/-](\d{2})[/-](\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(t);
  if (!m) return null;
  // A-shares and HK stamp local exchange time; US quotes are stamped in New York time.
  return zonedIso(`${m[1]}-${m[2]}-${m[3]}`, `${m[4]}:${m[5]}:${m[6]}`, MARKET_TIME_ZONE[market]);
}

/** One qt entry's fields → quote; null when the entry carries no price (delisted, suspended, empty). */
export function tencentFieldsToQuote(f: string[], market: TMarket): TQuote | null {
  const price = num(f[3]);
  if (price === null || price <= 0) return null;
  const isCn = market === "cn";
  const volume = num(f[6]);
  // A-share amount: the exact CNY figure inside #35 "last/volume/amount", else #37 in units of 10k CNY.
  const packed = isCn ? (f[35] ?? "").split("/") : [];
  const amount = isCn ? (num(packed[2]) ?? mul(num(f[37]), 10_000)) : num(f[37]);
  return ZQuote.parse({
    price,
    change: num(f[31]),
    change_pct: num(f[32]),
    volume: isCn ? mul(volume, 100) : volume,
    amount,
    // #49 is the volume ratio for A-shares only (HK/US put the 52-week low there).
    volume_ratio: isCn ? num(f[49]) : null,
    turnover_rate: num(f[38]),
    high: positive(num(f[33])),
    low: positive(num(f[34])),
    open: positive(num(f[5])),
    prev_close: positive(num(f[4])),
    time: tencentTime(f[30], market),
    ...(f[1] ? { name: f[1].trim() } : {}),
    source: "tencent",
  });
}

function mul(value: number | null, factor: number): number | null {
  return value === null ? null : round(value * factor, 2);
}

// Tencent sends 0 for high/low/open of a stock that has not traded today; those are not prices.
function positive(value: number | null): number | null {
  return value === null || value <= 0 ? null : value;
}

export function parseTencentQuote(text: string, sym: string, market: TMarket): TQuote | null {
  const fields = splitTencentQt(text).get(sym);
  return fields ? tencentFieldsToQuote(fields, market) : null;
}

/** fqkline reply → bars (rows [date, open, close, high, low, volume, ...extras]), oldest first. */
export function parseTencentKline(text: string, sym: string, market: TMarket): TDailyBar[] {
  const body = parseJson(text, "tencent kline") as { code?: unknown; msg?: unknown; data?: Record<string, unknown> };
  if (!body || typeof body !== "object") throw new ProviderResponseError("tencent kline: not an object");
  if (body.code !== 0)
    throw new ProviderResponseError(`tencent kline: code ${String(body.code)} ${String(body.msg ?? "")}`);
  const data = body.data ?? {};
  // US keys may come back with the venue suffix (usAAPL.OQ).
  const entry = (data[sym] ?? Object.entries(data).find(([k]) => k.startsWith(`${sym}.`))?.[1]) as
    | Record<string, unknown>
    | undefined;
  if (!entry || typeof entry !== "object") return [];
  const rows = entry.qfqday ?? entry.day ?? entry.hfqday;
  if (rows === undefined) return [];
  if (!Array.isArray(rows)) throw new ProviderResponseError("tencent kline: bars are not an array");
  const factor = market === "cn" ? 100 : 1;
  return ZDailyBars.parse(
    rows.map((row: unknown) => {
      if (!Array.isArray(row)) throw new ProviderResponseError("tencent kline: row is not an array");
      return {
        date: String(row[0]),
        open: num(row[1]),
        close: num(row[2]),
        high: num(row[3]),
        low: num(row[4]),
        volume: mul(num(row[5]), factor),
        amount: null,
        turnover_rate: null,
        source: "tencent",
      };
    }),
  );
}

export function createTencentProvider(): MarketDataProvider {
  return {
    name: "tencent",
    serves: (symbol) => tencentSymbol(symbol) !== null,
    async dailyBars(symbol: TMarketSymbol, days: number, ctx: CallContext) {
      const sym = tencentSymbol(symbol)!;
      const url = `${KLINE_URL}?param=${sym},day,,,${days},qfq`;
      const text = await httpGetText(url, { signal: ctx.signal, headers: HEADERS });
      return parseTencentKline(text, sym, symbol.market).slice(-days);
    },
    async quote(symbol: TMarketSymbol, ctx: CallContext) {
      const sym = tencentSymbol(symbol)!;
      const text = await httpGetText(`${QT_URL}${sym}`, { signal: ctx.signal, headers: HEADERS, encoding: "gbk" });
      return parseTencentQuote(text, sym, symbol.market);
    },
  };
}
