// Market review: the public surface the task queue, routes and pages import.
export {
  runMarketReview,
  marketNewsQuery,
  MarketReviewUnavailableError,
  MARKET_REVIEW_CODE,
  MARKET_REVIEW_REPORT_TYPE,
} from "./run";
export type { MarketReviewDeps, MarketReviewJob, MarketReviewOutcome } from "./run";
export { getMarketReviewParts, latestMarketReview, type MarketReviewParts, type StoredMarketReview } from "./read";
export {
  buildRulePayload,
  narrativeOf,
  regionsOf,
  regionLabel,
  renderFullReport,
  renderRuleBody,
  REVIEW_STOCK_NAME,
} from "./rules";
export {
  MARKET_REVIEW_REGIONS,
  ZMarketReviewPayload,
  ZMarketReviewRegion,
  type TMarketReviewPayload,
  type TMarketReviewRegion,
} from "./schemas";
