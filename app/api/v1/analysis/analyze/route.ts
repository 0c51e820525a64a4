import { analyzeRequest } from "@/lib/analysis/analyze";
import { analyzeOp } from "@/lib/analysis/operations";
import { reply } from "@/lib/http/reply";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// POST /api/v1/analysis/analyze – analyse one code now (sync, 200) or queue one task per code (async, 202)
export const POST = route(analyzeOp, async ({ body, traceId, req }) => {
  const outcome = await analyzeRequest(body, traceId, req.signal);
  return reply(outcome.status, outcome.body);
});
