import { listIndexEntries, type TMarket } from "@/lib/market/symbols";
import { now } from "@/lib/clock";
import {
  isWeekday,
  latestTradingDay,
  localParts,
  nextWeekday,
  zonedIso,
  MARKET_TIME_ZONE,
} from "@/lib/market/market-time";
import { symbolKey } from "@/lib/market/symbol-key";
import { round } from "./symbol-map";
import {
  ZDailyBars,
  ZQuote,
  type CallContext,
  type MarketDataProvider,
  type TDailyBar,
  type TFxRate,
  type TMarketSymbol,
  type TQuote,
} from "./types";

// Offline, deterministic data for demos and tests. Every series starts at a fixed date and
// walks forward with a PRNG seeded by the symbol, so a given day's bar never changes as the clock advances
// (the bar cache can keep it) and only new days are appended.

interface CatalogueEntry {
  market: TMarket;
  name: string;
  nameEn: string;
  basePrice: number;
  baseVolume: number; // shares per day
  floatShares: number | null; // null: indices (no turnover rate)
}

const STOCKS: Record<string, CatalogueEntry> = {
  "cn:600519": {
    market: "cn",
    name: "贵州茅台",
    nameEn: "Kweichow Moutai",
    basePrice: 1500,
    baseVolume: 3_000_000,
    floatShares: 1_256_197_800,
  },
  "cn:000001": {
    market: "cn",
    name: "平安银行",
    nameEn: "Ping An Bank",
    basePrice: 11,
    baseVolume: 100_000_000,
    floatShares: 19_405_600_000,
  },
  "cn:300750": {
    market: "cn",
    name: "宁德时代",
    nameEn: "CATL",
    basePrice: 220,
    baseVolume: 20_000_000,
    floatShares: 3_900_000_000,
  },
  "cn:601318": {
    market: "cn",
    name: "中国平安",
    nameEn: "Ping An Insurance",
    basePrice: 48,
    baseVolume: 60_000_000,
    floatShares: 10_800_000_000,
  },
  "cn:000858": {
    market: "cn",
    name: "五粮液",
    nameEn: "Wuliangye Yibin",
    basePrice: 140,
    baseVolume: 20_000_000,
    floatShares: 3_880_000_000,
  },
  "hk:00700": {
    market: "hk",
    name: "腾讯控股",
    nameEn: "Tencent Holdings",
    basePrice: 380,
    baseVolume: 20_000_000,
    floatShares: 9_200_000_000,
  },
  "hk:09988": {
    market: "hk",
    name: "阿里巴巴-W",
    nameEn: "Alibaba Group",
    basePrice: 85,
    baseVolume: 50_000_000,
    floatShares: 19_000_000_000,
  },
  "us:AAPL": {
    market: "us",
    name: "苹果",
    nameEn: "Apple Inc.",
    basePrice: 190,
    baseVolume: 55_000_000,
    floatShares: 15_000_000_000,
  },
  "us:TSLA": {
    market: "us",
    name: "特斯拉",
    nameEn: "Tesla, Inc.",
    basePrice: 220,
    baseVolume: 100_000_000,
    floatShares: 3_200_000_000,
  },
  "us:NVDA": {
    market: "us",
    name: "英伟达",
    nameEn: "NVIDIA Corporation",
    basePrice: 110,
    baseVolume: 300_000_000,
    floatShares: 24_000_000_000,
  },
  "us:MSFT": {
    market: "us",
    name: "微软",
    nameEn: "Microsoft Corporation",
    basePrice: 420,
    baseVolume: 20_000_000,
    floatShares: 7_400_000_000,
  },
  "cn:601398": {
    market: "cn",
    name: "工商银行",
    nameEn: "Industrial and Commercial Bank of China",
    basePrice: 6,
    baseVolume: 300_000_000,
    floatShares: 269_600_000_000,
  },
  "cn:600900": {
    market: "cn",
    name: "长江电力",
    nameEn: "China Yangtze Power",
    basePrice: 28,
    baseVolume: 60_000_000,
    floatShares: 24_470_000_000,
  },
  "hk:00005": {
    market: "hk",
    name: "汇丰控股",
    nameEn: "HSBC Holdings",
    basePrice: 65,
    baseVolume: 20_000_000,
    floatShares: 18_000_000_000,
  },
  "hk:01299": {
    market: "hk",
    name: "友邦保险",
    nameEn: "AIA Group",
    basePrice: 60,
    baseVolume: 25_000_000,
    floatShares: 11_000_000_000,
  },
  "us:GOOGL": {
    market: "us",
    name: "谷歌-A",
    nameEn: "Alphabet Class A",
    basePrice: 165,
    baseVolume: 25_000_000,
    floatShares: 5_800_000_000,
  },
  "us:AMZN": {
    market: "us",
    name: "亚马逊",
    nameEn: "Amazon",
    basePrice: 185,
    baseVolume: 40_000_000,
    floatShares: 9_800_000_000,
  },
};

// Rough recent levels so the demo looks plausible; indices not listed start at 3000.
const INDEX_LEVELS: Record<string, number> = {
  "000001.SH": 3200,
  "399001.SZ": 10_000,
  "000300.SH": 3800,
  "000905.SH": 5800,
  "000852.SH": 6000,
  "399006.SZ": 2000,
  "000688.SH": 900,
  "000016.SH": 2600,
  HSI: 18_000,
  HSTECH: 4000,
  HSCEI: 6500,
  SPX: 5000,
  IXIC: 16_000,
  NDX: 18_000,
  DJI: 39_000,
};

function catalogueEntry(symbol: TMarketSymbol): CatalogueEntry | undefined {
  const key = symbolKey(symbol);
  if (symbol.kind === "stock") return STOCKS[key];
  const id = symbol.canonicalId ?? symbol.code;
  const entry = listIndexEntries().find((e) => e.canonicalId === id);
  if (!entry) return undefined;
  return {
    market: entry.region,
    name: entry.nameZh,
    nameEn: entry.nameEn,
    basePrice: INDEX_LEVELS[id] ?? 3000,
    baseVolume: entry.region === "cn" ? 30_000_000_000 : 3_000_000_000,
    floatShares: null,
  };
}

/** Symbol keys the sample provider has data for: the stocks above and every registered index. */
/** The sample data's stocks with both names, in catalogue order: what a user of the sample data can analyse. */
export function sampleStocks(): { market: TMarket; code: string; name: string; nameEn: string }[] {
  return Object.entries(STOCKS).map(([key, entry]) => ({
    market: entry.market,
    code: key.slice(key.indexOf(":") + 1),
    name: entry.name,
    nameEn: entry.nameEn,
  }));
}

export function sampleCatalogueKeys(): string[] {
  return [...Object.keys(STOCKS), ...listIndexEntries().map((e) => `index:${e.canonicalId}`)];
}

const SERIES_START = "2019-01-02";

function seedOf(text: string): number {
  let h = 0x811c9dc5; // FNV-1a
  for (let i = 0; i < text.length; i += 1) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function gaussian(rand: () => number): number {
  const u = Math.max(rand(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rand());
}

const memo = new Map<string, TDailyBar[]>();

/** The whole series from SERIES_START to `until`, deterministic in (symbol, date). */
function series(key: string, entry: CatalogueEntry, until: string): TDailyBar[] {
  const memoKey = `${key}@${until}`;
  const hit = memo.get(memoKey);
  if (hit) return hit;
  const rand = mulberry32(seedOf(key));
  const decimals = entry.market === "hk" && entry.floatShares !== null ? 3 : 2;
  const lot = entry.market === "cn" && entry.floatShares !== null ? 100 : 1;
  const sigma = entry.floatShares === null ? 0.011 : 0.019;
  const anchor = Math.log(entry.basePrice);
  let logClose = anchor + gaussian(rand) * 0.1;
  const bars: TDailyBar[] = [];
  for (
    let date = isWeekday(SERIES_START) ? SERIES_START : nextWeekday(SERIES_START);
    date <= until;
    date = nextWeekday(date)
  ) {
    const prevClose = Math.exp(logClose);
    const ret = 0.0002 + sigma * gaussian(rand) + 0.02 * (anchor - logClose);
    logClose += ret;
    const close = Math.exp(logClose);
    const open = prevClose * (1 + 0.35 * sigma * gaussian(rand));
    const high = Math.max(open, close) * (1 + Math.abs(gaussian(rand)) * sigma * 0.45);
    const low = Math.min(open, close) * (1 - Math.abs(gaussian(rand)) * sigma * 0.45);
    const shares = entry.baseVolume * Math.exp(0.3 * gaussian(rand)) * (1 + 6 * Math.abs(ret));
    const volume = Math.max(lot, Math.round(shares / lot) * lot);
    const o = round(open, decimals);
    const h = round(high, decimals);
    const l = round(low, decimals);
    const c = round(close, decimals);
    bars.push({
      date,
      open: o,
      high: Math.max(h, o, c),
      low: Math.min(l, o, c),
      close: c,
      volume,
      amount: round((volume * (o + h + l + c)) / 4, 2),
      turnover_rate: entry.floatShares === null ? null : round((volume / entry.floatShares) * 100, 2),
      source: "sample",
    });
  }
  memo.clear(); // one "until" at a time is all a process needs
  memo.set(memoKey, bars);
  return bars;
}

const CLOSE_TIME: Record<TMarket, string> = { cn: "15:00:00", hk: "16:10:00", us: "16:00:00" };

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}

// Offline FX (deterministic): a fixed rate per currency with a small wave by calendar day, dated today in Shanghai.
const SAMPLE_FX: Record<string, number> = { USD: 7.15, HKD: 0.915, EUR: 7.8, GBP: 9.1, JPY: 0.048, SGD: 5.3 };

export function sampleFxRate(currency: string, at: Date): TFxRate | null {
  const base = SAMPLE_FX[currency];
  if (base === undefined) return null;
  const date = localParts(at, "Asia/Shanghai").date;
  const day = Math.floor(Date.parse(`${date}T00:00:00Z`) / 86_400_000);
  return { rate: round(base * (1 + 0.002 * Math.sin(day)), 6), date, source: "sample" };
}

export function createSampleProvider(options: { latencyMs: () => number }): MarketDataProvider {
  function barsUpToToday(symbol: TMarketSymbol): { entry: CatalogueEntry; bars: TDailyBar[] } | null {
    const entry = catalogueEntry(symbol);
    if (!entry) return null;
    return { entry, bars: series(symbolKey(symbol), entry, latestTradingDay(entry.market, now())) };
  }
  return {
    name: "sample",
    // Every well-formed symbol is "served"; one outside the catalogue simply has no data (like a delisted code).
    serves: () => true,
    async dailyBars(symbol, days, ctx: CallContext) {
      await sleep(options.latencyMs(), ctx.signal);
      const found = barsUpToToday(symbol);
      return found ? ZDailyBars.parse(found.bars.slice(-days)) : [];
    },
    async fxRate(currency, ctx: CallContext) {
      await sleep(options.latencyMs(), ctx.signal);
      return sampleFxRate(currency, now());
    },
    async quote(symbol, ctx: CallContext): Promise<TQuote | null> {
      await sleep(options.latencyMs(), ctx.signal);
      const found = barsUpToToday(symbol);
      if (!found || found.bars.length < 7) return null;
      const { entry, bars } = found;
      const last = bars.at(-1)!;
      const prev = bars.at(-2)!;
      const avg5 = bars.slice(-6, -1).reduce((s, b) => s + b.volume, 0) / 5;
      const closeIso = zonedIso(last.date, CLOSE_TIME[entry.market], MARKET_TIME_ZONE[entry.market]);
      const at = now();
      return ZQuote.parse({
        price: last.close,
        change: round(last.close - prev.close, 4),
        change_pct: round(((last.close - prev.close) / prev.close) * 100, 2),
        volume: last.volume,
        amount: last.amount,
        volume_ratio: round(last.volume / avg5, 2),
        turnover_rate: last.turnover_rate,
        high: last.high,
        low: last.low,
        open: last.open,
        prev_close: prev.close,
        // Today's bar before the close is "as of now".
        time: Date.parse(closeIso) > at.getTime() ? at.toISOString() : closeIso,
        name: entry.name,
        source: "sample",
      });
    },
  };
}
