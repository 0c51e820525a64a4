import { route } from "@/lib/http/route";
import { marketReviewOp } from "@/lib/tasks/operations";
import { ZMarketReviewRequest } from "@/lib/tasks/schemas";
import { submitMarketReview } from "@/lib/tasks/submit";

export const dynamic = "force-dynamic";

// POST /api/v1/analysis/market-review – queue a market review (one at a time)
export const POST = route(marketReviewOp, ({ body, traceId }) =>
  submitMarketReview(body ?? ZMarketReviewRequest.parse({}), traceId),
);
