import { getDailyBars } from "./bars/daily-bars";
import { mergeQuoteBars, onePriceOf, type MergedSeries, type OnePrice } from "./one-price";
import { configuredChain, MarketDataUnavailableError, type ChainOptions } from "./providers/chain";
import type { TMarketSymbol, TQuote } from "./providers/types";
import { getQuote } from "./quote-cache";

// The reads behind one price everywhere: portfolio valuation and alert checks take a security's
// price from here, merged by the same rule (one-price.ts) as the analysis pipeline's headline and chart.

export interface PriceSeries extends MergedSeries {
  quote: TQuote | null;
  /** The price of the series' last bar and its moment; null when there is no data at all. */
  current: OnePrice | null;
  /** Why there is no quote (the provider chain's message), null when there is one. */
  quoteFailure: string | null;
}

/**
 * The final daily bars (`days` of them) merged with the quote: the one series valuations and checks read. A failed
 * quote leaves the bars' close; failed bars with a quote leave the quote; with neither it throws.
 */
export async function getPriceSeries(
  symbol: TMarketSymbol,
  days: number,
  chain: ChainOptions = configuredChain(),
): Promise<PriceSeries> {
  const [bars, quote] = await Promise.allSettled([getDailyBars(symbol, days, chain), getQuote(symbol, chain)]);
  const quoteData = quote.status === "fulfilled" ? quote.value.data : null;
  if (bars.status === "rejected" && quoteData === null) throw bars.reason;
  const series = mergeQuoteBars(bars.status === "fulfilled" ? bars.value.bars : [], quoteData, symbol.market);
  const quoteFailure = quote.status === "rejected" ? String((quote.reason as Error)?.message ?? quote.reason) : null;
  return { ...series, quote: quoteData, current: onePriceOf(series, quoteData), quoteFailure };
}

/** A security's current price as every feature shows it. Throws MarketDataUnavailableError. */
export async function currentPrice(
  symbol: TMarketSymbol,
  chain: ChainOptions = configuredChain(),
): Promise<OnePrice & Pick<PriceSeries, "quote" | "quoteFailure">> {
  // Two bars: the last close, and the one before it for the day's change when the quote is stale.
  const series = await getPriceSeries(symbol, 2, chain);
  if (!series.current) throw new MarketDataUnavailableError(symbol.code, []);
  return { ...series.current, quote: series.quote, quoteFailure: series.quoteFailure };
}
