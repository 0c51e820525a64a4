import { createAlertRuleOp, listAlertRulesOp } from "@/lib/alerts/operations";
import { createAlertRule, listAlertRules } from "@/lib/alerts/rules";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// GET /api/v1/alerts/rules – rules with filters and paging
export const GET = route(listAlertRulesOp, ({ query }) => listAlertRules(query));

// POST /api/v1/alerts/rules – create a rule
export const POST = route(createAlertRuleOp, ({ body }) => createAlertRule(body));
