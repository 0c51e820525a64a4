// The full A-share / HK / US stock list: fetched from Eastmoney by `npm run stocks:refresh`
// (scripts/stocks-refresh.ts), stored in the stock_listing table, and read back into memory as the
// preferred name source for symbol lookup (the bundled list stays the fallback). See name-source.ts for
// where the server should call ensureStockListNameSource().
export {
  clistUrl,
  DEFAULT_PAGE_SIZE,
  fetchMarketList,
  LIST_FILTERS,
  normaliseListCode,
  parseClistPage,
  type ClistPage,
  type FetchListOptions,
  type FetchListResult,
  type StockListRow,
} from "./eastmoney-clist";
export { countListings, storeListings, type StoreResult } from "./store";
export {
  ensureStockListNameSource,
  listingEntries,
  loadStockListNameSource,
  resetStockListNameSource,
  type LoadedNameSource,
} from "./name-source";
export {
  LIST_MARKETS,
  REFRESH_STATE_KEY,
  refreshStockList,
  type MarketRefresh,
  type RefreshOptions,
  type RefreshSummary,
} from "./refresh";
