import { getHistoryReportOp } from "@/lib/history/operations";
import { getHistoryReport } from "@/lib/history/record";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// GET /api/v1/history/{record_id} – the stored report by id or query_id
export const GET = route(getHistoryReportOp, ({ params }) => getHistoryReport(params.record_id));
