import { enableAlertRuleOp } from "@/lib/alerts/operations";
import { setAlertRuleEnabled } from "@/lib/alerts/rules";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// POST /api/v1/alerts/rules/{rule_id}/enable – enable a rule
export const POST = route(enableAlertRuleOp, ({ params }) => setAlertRuleEnabled(params.rule_id, true));
