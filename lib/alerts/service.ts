import { notFound } from "@/lib/http/api-error";
import { defaultAlertDeliver } from "./deliver";
import { evaluateAlertRules } from "./evaluator";
import type { TAlertCheck, TAlertEvaluation } from "./schemas";

// POST /api/v1/alerts/rules/{rule_id}/test – a dry run: what the rule sees now, nothing stored or sent.
export async function testAlertRule(id: number): Promise<TAlertCheck> {
  const result = await evaluateAlertRules({ deliver: defaultAlertDeliver, ruleIds: [id], dryRun: true, anyTime: true });
  const first = result.checked[0];
  if (!first) throw notFound(`Alert rule ${id} not found`);
  return first;
}

// POST /api/v1/alerts/evaluate – the evaluator now, as the scheduler runs it but at any time of day.
export function evaluateAlertsNow(): Promise<TAlertEvaluation> {
  return evaluateAlertRules({ deliver: defaultAlertDeliver, anyTime: true });
}
