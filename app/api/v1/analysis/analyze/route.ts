import { analyzeRequest } from "@/lib/analysis/analyze";
import { analyzeOp } from "@/lib/analysis/operations";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// POST /api/v1/analysis/analyze – analyse one code now (sync) or queue several (async)
export const POST = route(analyzeOp, ({ body, traceId, req }) => analyzeRequest(body, traceId, req.signal));
