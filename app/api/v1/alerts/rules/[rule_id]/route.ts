import { deleteAlertRuleOp, getAlertRuleOp, updateAlertRuleOp } from "@/lib/alerts/operations";
import { deleteAlertRule, getAlertRule, updateAlertRule } from "@/lib/alerts/rules";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// GET /api/v1/alerts/rules/{rule_id} – one rule
export const GET = route(getAlertRuleOp, ({ params }) => getAlertRule(params.rule_id));

// PATCH /api/v1/alerts/rules/{rule_id} – change a rule
export const PATCH = route(updateAlertRuleOp, ({ params, body }) => updateAlertRule(params.rule_id, body));

// DELETE /api/v1/alerts/rules/{rule_id} – delete a rule (its triggers stay)
export const DELETE = route(deleteAlertRuleOp, ({ params }) => deleteAlertRule(params.rule_id));
