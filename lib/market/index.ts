// Public surface of the market-data layer: cached daily bars, cached quotes, the
// provider chain and its records. Symbol resolution lives in ./symbols.
export { getDailyBars, MAX_DAILY_BARS, type CacheOutcome, type DailyBarsResult } from "./bars/daily-bars";
export { getQuote, QUOTE_TTL_MS, type QuoteResult } from "./quote-cache";
export {
  mergeQuoteBars,
  onePriceOf,
  seriesChangePct,
  type MergedSeries,
  type OnePrice,
  type QuoteMerge,
} from "./one-price";
export { currentPrice, getPriceSeries, type PriceSeries } from "./current-price";
export {
  chainFxRate,
  configuredChain,
  fxProviders,
  MarketDataUnavailableError,
  type ProviderAttempt,
} from "./providers/chain";
export {
  InvalidDataFileError,
  ZDailyBar,
  ZQuote,
  type TDailyBar,
  type TFxRate,
  type TMarketSymbol,
  type TQuote,
  type ProviderName,
} from "./providers/types";
export { sampleCatalogueKeys, sampleStocks } from "./providers/sample";
export { isLocalSource } from "./source-family";
export { symbolKey } from "./symbol-key";
