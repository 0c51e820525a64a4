import { getHistoryFlowOp } from "@/lib/history/operations";
import { getHistoryFlow } from "@/lib/history/record";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// GET /api/v1/history/{record_id}/flow – the run-flow snapshot stored with the record
export const GET = route(getHistoryFlowOp, ({ params }) => getHistoryFlow(params.record_id));
