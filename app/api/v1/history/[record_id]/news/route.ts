import { getHistoryNewsOp } from "@/lib/history/operations";
import { getHistoryNews } from "@/lib/history/record";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// GET /api/v1/history/{record_id}/news – the news the analysis used
export const GET = route(getHistoryNewsOp, ({ params, query }) => getHistoryNews(params.record_id, query.limit));
