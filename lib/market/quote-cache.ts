import { LRUCache } from "lru-cache";
import { now } from "@/lib/clock";
import {
  bypassesCache,
  chainQuote,
  configuredChain,
  type ChainOptions,
  type ChainResult,
} from "@/lib/market/providers/chain";
import type { TMarketSymbol, TQuote } from "@/lib/market/providers/types";
import { symbolKey } from "@/lib/market/symbol-key";

// Quotes are cached in memory for a short time: enough to collapse a burst of analyses of the same target into one
// provider call, short enough to stay a realtime quote. Concurrent callers share one in-flight request (lru-cache's
// fetch). Time is the service clock, which tests move.
export const QUOTE_TTL_MS = 15_000;
/** Symbols kept at most: far more than a watchlist, a bound on a process asked about every code there is. */
const MAX_SYMBOLS = 10_000;

interface QuoteAsk {
  symbol: TMarketSymbol;
  chain: ChainOptions;
}

const cache = new LRUCache<string, ChainResult<TQuote>, QuoteAsk>({
  max: MAX_SYMBOLS,
  ttl: QUOTE_TTL_MS,
  ttlResolution: 0,
  perf: { now: () => now().getTime() },
  fetchMethod: (_key, _stale, { context }) => chainQuote(context.symbol, context.chain),
});

export function clearQuoteCache(): void {
  cache.clear();
}

export interface QuoteResult extends ChainResult<TQuote> {
  cached: boolean;
}

/** `refresh` (analyze's force_refresh) ignores a cached quote; a call already in flight is still shared. */
export async function getQuote(
  symbol: TMarketSymbol,
  chain: ChainOptions = configuredChain(),
  options: { refresh?: boolean } = {},
): Promise<QuoteResult> {
  // A quote from a user's file is re-read per call (cheap: parsed files are kept by stamp), so a replaced
  // file counts at the next analysis.
  if (await bypassesCache(symbol, chain)) return { ...(await chainQuote(symbol, chain)), cached: false };
  const status: LRUCache.Status<string, ChainResult<TQuote>, QuoteAsk> = {};
  const result = await cache.fetch(symbolKey(symbol), {
    context: { symbol, chain },
    forceRefresh: options.refresh === true,
    status,
  });
  if (!result) throw new Error(`No quote answer for ${symbolKey(symbol)}`);
  return { ...result, cached: status.fetch === "hit" };
}
