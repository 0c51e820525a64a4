import { disableAlertRuleOp } from "@/lib/alerts/operations";
import { setAlertRuleEnabled } from "@/lib/alerts/rules";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// POST /api/v1/alerts/rules/{rule_id}/disable – disable a rule
export const POST = route(disableAlertRuleOp, ({ params }) => setAlertRuleEnabled(params.rule_id, false));
