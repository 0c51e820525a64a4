import { route } from "@/lib/http/route";
import { screeningSourceHistoryOp } from "@/lib/screening/operations";
import { sourceHistory } from "@/lib/screening/read";

export const dynamic = "force-dynamic";

// GET /api/v1/screening/source-history – per universe source over the latest runs
export const GET = route(screeningSourceHistoryOp, ({ query }) => sourceHistory(query.limit));
