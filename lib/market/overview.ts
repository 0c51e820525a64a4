import { z } from "zod";
import { now } from "@/lib/clock";
import { configuredChain, MarketDataUnavailableError, type ChainOptions } from "@/lib/market/providers/chain";
import { httpGetText, num, parseJson, unwrapJsonp } from "@/lib/market/providers/http";
import { sampleCatalogueKeys } from "@/lib/market/providers/sample";
import {
  PROVIDER_NAMES,
  ProviderResponseError,
  TransientProviderError,
  ZQuote,
  type MarketDataProvider,
  type ProviderName,
  type TMarketSymbol,
  type TQuote,
} from "@/lib/market/providers/types";
import { getQuote } from "@/lib/market/quote-cache";
import { classifyAShareCode, listIndexEntries, ZMarket, type TMarket } from "@/lib/market/symbols";

// marketOverview(region): the region's registered indices with their quotes (through the
// quote chain and its cache), market breadth (advancers / decliners / flat, limit-up / limit-down) and
// sector rankings where a provider has them. Each part names its source; a part no configured provider can
// give is null with the reason, never invented.
//
// What is backed by recorded bodies (tests/fixtures/market-data/eastmoney):
//  - A-share breadth: ulist.np/get fields f104/f105/f106 (ulist-np-advancers-decliners.json). The secids
//    of the recording are not known; we ask for the SSE Composite, SZSE Component and BSE 50 (1.000001,
//    0.399001, 0.899050), whose f104–f106 the recording shows to be exchange-wide counts (≈2 350 / 2 930 /
//    340 stocks), and read the reply in request order as the README documents.
//  - Limit-up / limit-down counts and sector rankings: no recorded body (they come from other endpoints:
//    push2ex getTopicZTPool, clist fs=m:90 t:2), so they are null with a reason for live providers.
//  - HK / US breadth: no recorded body, null with a reason.
// With MARKET_DATA_SOURCES=sample the overview is the sample provider's: index quotes are sample quotes and
// breadth is counted over the sample catalogue's stocks of the region (labelled source "sample").

const ZCount = z.number().int().nonnegative();

export const ZOverviewIndex = z.object({
  canonical_id: z.string(),
  display_code: z.string(),
  name: z.string(),
  name_en: z.string(),
  quote: ZQuote.nullable(),
  source: z.enum(PROVIDER_NAMES).nullable(),
  /** Why there is no quote (every provider's reason), else null. */
  error: z.string().nullable(),
});

export const ZMarketBreadth = z.object({
  advancers: ZCount,
  decliners: ZCount,
  flat: ZCount,
  limit_up: ZCount.nullable(),
  limit_down: ZCount.nullable(),
  /** Why limit_up / limit_down are null, else null. */
  limit_note: z.string().nullable(),
  /** What was counted ("SH, SZ and BJ A-shares", "sample catalogue: 5 stocks"). */
  universe: z.string(),
  /** Sum of the counted stocks' turnover in the market's currency; null when the provider does not report it. */
  total_amount: z.number().finite().nonnegative().nullable(),
  by_exchange: z.array(z.object({ exchange: z.string(), advancers: ZCount, decliners: ZCount, flat: ZCount })),
  source: z.enum(PROVIDER_NAMES),
});

export const ZSectorRank = z.object({ code: z.string(), name: z.string(), change_pct: z.number().finite() });

export const ZSectorRankings = z.object({
  gainers: z.array(ZSectorRank),
  losers: z.array(ZSectorRank),
  source: z.enum(PROVIDER_NAMES),
});

export const ZMarketOverview = z
  .object({
    region: ZMarket,
    as_of: z.iso.datetime({ offset: true }),
    /** The one provider behind every part, "mixed" when parts came from several, null when none answered. */
    source: z.union([z.enum(PROVIDER_NAMES), z.literal("mixed")]).nullable(),
    indices: z.array(ZOverviewIndex),
    breadth: ZMarketBreadth.nullable(),
    breadth_note: z.string().nullable(),
    sectors: ZSectorRankings.nullable(),
    sectors_note: z.string().nullable(),
  })
  .meta({ id: "MarketOverview" });

export type TOverviewIndex = z.infer<typeof ZOverviewIndex>;
export type TMarketBreadth = z.infer<typeof ZMarketBreadth>;
export type TSectorRankings = z.infer<typeof ZSectorRankings>;
export type TMarketOverview = z.infer<typeof ZMarketOverview>;

export const ULIST_URL = "https://push2.eastmoney.com/api/qt/ulist.np/get";
export const BREADTH_SECIDS: readonly { secid: string; exchange: string }[] = [
  { secid: "1.000001", exchange: "SH" },
  { secid: "0.399001", exchange: "SZ" },
  { secid: "0.899050", exchange: "BJ" },
];
const HEADERS = { Referer: "https://quote.eastmoney.com/" };
const LIMIT_NOTE_LIVE = "no provider body for limit-up/limit-down counts is recorded, so they are not fetched";

// ---------------------------------------------------------------------------------------------------------
// Eastmoney ulist.np/get breadth

const ZUlist = z.looseObject({
  rc: z.number(),
  data: z
    .looseObject({ total: z.number().optional(), diff: z.array(z.looseObject({})) })
    .nullable()
    .optional(),
});

/** ulist.np/get reply (f104 advancers, f105 decliners, f106 flat per secid, in request order) → breadth. */
export function parseEastmoneyBreadth(
  text: string,
  exchanges: readonly string[] = BREADTH_SECIDS.map((s) => s.exchange),
): TMarketBreadth | null {
  const parsed = ZUlist.safeParse(parseJson(unwrapJsonp(text), "eastmoney ulist"));
  if (!parsed.success) throw new ProviderResponseError("eastmoney ulist: unexpected body");
  if (parsed.data.rc !== 0 && parsed.data.rc !== 100)
    throw new ProviderResponseError(`eastmoney ulist: rc ${parsed.data.rc}`);
  const diff = parsed.data.data?.diff ?? [];
  const rows = diff.map((row, i) => ({
    exchange: exchanges[i] ?? `#${i + 1}`,
    advancers: num(row.f104),
    decliners: num(row.f105),
    flat: num(row.f106),
  }));
  const complete = rows.filter(
    (r): r is { exchange: string; advancers: number; decliners: number; flat: number } =>
      r.advancers !== null && r.decliners !== null && r.flat !== null,
  );
  if (complete.length === 0) return null;
  const sum = (k: "advancers" | "decliners" | "flat") => complete.reduce((s, r) => s + r[k], 0);
  return ZMarketBreadth.parse({
    advancers: sum("advancers"),
    decliners: sum("decliners"),
    flat: sum("flat"),
    limit_up: null,
    limit_down: null,
    limit_note: LIMIT_NOTE_LIVE,
    universe: `${complete.map((r) => r.exchange).join(", ")} A-shares`,
    // f104–f106 are counted per exchange, but the index secids' own turnover (f6) covers only their members.
    total_amount: null,
    by_exchange: complete,
    source: "eastmoney",
  });
}

async function eastmoneyBreadth(timeoutMs: number): Promise<TMarketBreadth | null> {
  const params = new URLSearchParams({
    fltt: "2",
    secids: BREADTH_SECIDS.map((s) => s.secid).join(","),
    fields: "f104,f105,f106",
  });
  const url = `${ULIST_URL}?${params}`;
  for (let attempt = 0; ; attempt += 1) {
    try {
      const text = await httpGetText(url, { signal: AbortSignal.timeout(timeoutMs), headers: HEADERS });
      return parseEastmoneyBreadth(text);
    } catch (error) {
      if (!(error instanceof TransientProviderError) || attempt >= 1) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

// ---------------------------------------------------------------------------------------------------------
// Sample breadth: counted over the sample catalogue's stocks of the region, from their sample quotes.

/** Daily price limit in percent of an A-share by board (main 10, ChiNext/STAR 20, Beijing 30), else null. */
export function aShareLimitPct(code: string): number | null {
  const cls = classifyAShareCode(code);
  if (cls.type !== "stock") return null;
  if (cls.exchange === "BJ") return 30;
  if (/^(300|301|688|689)/.test(code)) return 20;
  return 10;
}

// A limit move rounds to the cent, so 9.95 % can be a 10 % limit: count within 0.1 point of the limit.
const LIMIT_TOLERANCE = 0.1;

async function sampleBreadth(
  region: TMarket,
  provider: MarketDataProvider,
  timeoutMs: number,
): Promise<TMarketBreadth | null> {
  const codes = sampleCatalogueKeys()
    .filter((key) => key.startsWith(`${region}:`))
    .map((key) => key.slice(region.length + 1));
  const quotes: { code: string; quote: TQuote }[] = [];
  for (const code of codes) {
    const symbol: TMarketSymbol = { kind: "stock", market: region, code };
    const quote = await provider.quote(symbol, { signal: AbortSignal.timeout(timeoutMs) });
    if (quote) quotes.push({ code, quote });
  }
  if (quotes.length === 0) return null;
  const advancers = quotes.filter((q) => q.quote.change_pct > 0).length;
  const decliners = quotes.filter((q) => q.quote.change_pct < 0).length;
  const flat = quotes.length - advancers - decliners;
  let limitUp: number | null = null;
  let limitDown: number | null = null;
  if (region === "cn") {
    limitUp = 0;
    limitDown = 0;
    for (const { code, quote } of quotes) {
      const limit = aShareLimitPct(code);
      if (limit === null) continue;
      if (quote.change_pct >= limit - LIMIT_TOLERANCE) limitUp += 1;
      if (quote.change_pct <= -limit + LIMIT_TOLERANCE) limitDown += 1;
    }
  }
  return ZMarketBreadth.parse({
    advancers,
    decliners,
    flat,
    limit_up: limitUp,
    limit_down: limitDown,
    limit_note: region === "cn" ? null : `${region} stocks have no daily price limit`,
    universe: `sample catalogue: ${quotes.length} ${region} stocks`,
    total_amount: quotes.every((q) => q.quote.amount !== null)
      ? quotes.reduce((sum, q) => sum + (q.quote.amount ?? 0), 0)
      : null,
    by_exchange: [],
    source: "sample",
  });
}

// ---------------------------------------------------------------------------------------------------------

function providersOf(chain: ChainOptions): MarketDataProvider[] {
  return chain.providers.filter((p): p is MarketDataProvider => !("unknown" in p));
}

async function indexQuotes(region: TMarket, chain: ChainOptions): Promise<TOverviewIndex[]> {
  const entries = listIndexEntries().filter((entry) => entry.region === region);
  return Promise.all(
    entries.map(async (entry): Promise<TOverviewIndex> => {
      const base = {
        canonical_id: entry.canonicalId,
        display_code: entry.displayCode,
        name: entry.nameZh,
        name_en: entry.nameEn,
      };
      const symbol: TMarketSymbol = {
        kind: "index",
        market: region,
        code: entry.canonicalId,
        canonicalId: entry.canonicalId,
      };
      try {
        const result = await getQuote(symbol, chain);
        return { ...base, quote: result.data, source: result.source, error: null };
      } catch (error) {
        const reason =
          error instanceof MarketDataUnavailableError
            ? error.message
            : error instanceof Error
              ? error.message
              : String(error);
        return { ...base, quote: null, source: null, error: reason };
      }
    }),
  );
}

async function breadthOf(
  region: TMarket,
  chain: ChainOptions,
): Promise<{ breadth: TMarketBreadth | null; note: string | null }> {
  const reasons: string[] = [];
  for (const provider of providersOf(chain)) {
    try {
      if (provider.name === "eastmoney") {
        if (region !== "cn") {
          reasons.push(`eastmoney: no recorded breadth reply for ${region}, not fetched`);
          continue;
        }
        const breadth = await eastmoneyBreadth(chain.timeoutMs);
        if (breadth) return { breadth, note: null };
        reasons.push("eastmoney: empty answer");
      } else if (provider.name === "sample") {
        const breadth = await sampleBreadth(region, provider, chain.timeoutMs);
        if (breadth) return { breadth, note: null };
        reasons.push(`sample: no ${region} stocks in the catalogue`);
      } else {
        reasons.push(`${provider.name}: has no market-breadth data`);
      }
    } catch (error) {
      reasons.push(`${provider.name}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return { breadth: null, note: reasons.length > 0 ? reasons.join("; ") : "no market-data provider configured" };
}

function sectorsNote(chain: ChainOptions): string {
  const reasons = providersOf(chain).map((provider) => {
    if (provider.name === "eastmoney") return "eastmoney: no recorded sector-ranking body, not implemented";
    if (provider.name === "sample") return "sample: the sample catalogue has no sectors";
    return `${provider.name}: has no sector rankings`;
  });
  return reasons.length > 0 ? reasons.join("; ") : "no market-data provider configured";
}

export interface MarketOverviewOptions {
  /** Defaults to the configured chain (MARKET_DATA_SOURCES, MARKET_DATA_TIMEOUT_MS). */
  chain?: ChainOptions;
}

export async function marketOverview(region: TMarket, options: MarketOverviewOptions = {}): Promise<TMarketOverview> {
  const chain = options.chain ?? configuredChain();
  const [indices, { breadth, note }] = await Promise.all([indexQuotes(region, chain), breadthOf(region, chain)]);
  const sources = new Set<ProviderName>();
  for (const index of indices) if (index.source) sources.add(index.source);
  if (breadth) sources.add(breadth.source);
  const source = sources.size === 0 ? null : sources.size === 1 ? [...sources][0]! : "mixed";
  return ZMarketOverview.parse({
    region,
    as_of: now().toISOString(),
    source,
    indices,
    breadth,
    breadth_note: note,
    sectors: null,
    sectors_note: sectorsNote(chain),
  });
}
