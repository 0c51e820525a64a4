import { now } from "@/lib/clock";
import { bypassesCache, chainQuote, configuredChain, type ChainOptions, type ChainResult } from "@/lib/market/providers/chain";
import type { TMarketSymbol, TQuote } from "@/lib/market/providers/types";
import { symbolKey } from "@/lib/market/symbol-key";

// Quotes are cached in memory for a short time: enough to collapse a burst of analyses of
// the same target into one provider call, short enough to stay a realtime quote. Concurrent callers share
// one in-flight request.
export const QUOTE_TTL_MS = 15_000;

interface Entry {
  result: ChainResult<TQuote>;
  expiresAt: number;
}

const cache = new Map<string, Entry>();
const inFlight = new Map<string, Promise<ChainResult<TQuote>>>();

export function clearQuoteCache(): void {
  cache.clear();
  inFlight.clear();
}

export interface QuoteResult extends ChainResult<TQuote> {
  cached: boolean;
}

/** `refresh` (analyze's force_refresh) ignores a cached quote; a call already in flight is still shared. */
export async function getQuote(symbol: TMarketSymbol, chain: ChainOptions = configuredChain(), options: { refresh?: boolean } = {}): Promise<QuoteResult> {
  // A quote from a user's file is re-read per call (cheap: parsed files are kept by stamp), so a replaced
  // file counts at the next analysis.
  if (await bypassesCache(symbol, chain)) return { ...(await chainQuote(symbol, chain)), cached: false };
  const key = symbolKey(symbol);
  const hit = cache.get(key);
  if (!options.refresh && hit && hit.expiresAt > now().getTime()) return { ...hit.result, cached: true };
  let pending = inFlight.get(key);
  if (!pending) {
    pending = chainQuote(symbol, chain).finally(() => inFlight.delete(key));
    inFlight.set(key, pending);
  }
  const result = await pending;
  cache.set(key, { result, expiresAt: now().getTime() + QUOTE_TTL_MS });
  return { ...result, cached: false };
}
