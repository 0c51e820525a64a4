import { getHistoryDiagnosticsOp } from "@/lib/history/operations";
import { getHistoryDiagnostics } from "@/lib/history/record";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// GET /api/v1/history/{record_id}/diagnostics – the run diagnostics stored with the record
export const GET = route(getHistoryDiagnosticsOp, ({ params }) => getHistoryDiagnostics(params.record_id));
