import { testAlertRuleOp } from "@/lib/alerts/operations";
import { testAlertRule } from "@/lib/alerts/service";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// POST /api/v1/alerts/rules/{rule_id}/test – dry run of one rule
export const POST = route(testAlertRuleOp, ({ params }) => testAlertRule(params.rule_id));
