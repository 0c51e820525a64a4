// News search: the public surface other domains import.
export {
  searchNews,
  searchNewsWith,
  configuredNewsChain,
  NEWS_PROVIDER_ORDER,
  type NewsChain,
  type NewsQueryOptions,
} from "./search";
export { searchStockNews, stockNewsQuery, type NewsTarget, type StockNewsOptions } from "./stock-news";
export {
  NO_NEWS_EVIDENCE,
  SNIPPET_MAX,
  ZNewsItem,
  type NewsAttempt,
  type NewsProvider,
  type NewsProviderName,
  type NewsSearchResult,
  type TNewsItem,
} from "./types";
