import { evaluateAlertsOp } from "@/lib/alerts/operations";
import { evaluateAlertsNow } from "@/lib/alerts/service";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// POST /api/v1/alerts/evaluate – run the evaluator now
export const POST = route(evaluateAlertsOp, () => evaluateAlertsNow());
