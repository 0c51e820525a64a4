import type { TReviewRegion, TTaskInfo } from "@/lib/tasks/schemas";

// Values of lib/tasks/schemas the browser needs, restated so client bundles do not pull in zod and the API
// schemas; the type annotations keep them in step with the originals.

/** The stock_code of a market-review task (spec 4.2 market-review). */
export const MARKET_REVIEW_TASK_CODE = "market_review" satisfies TTaskInfo["stock_code"];

/** The review regions, in the order of the Market page's buttons. */
export const REVIEW_REGION_LIST: readonly TReviewRegion[] = ["cn", "hk", "us", "both"];
