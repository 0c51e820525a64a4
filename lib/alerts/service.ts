import { notFound } from "@/lib/errors/api-error";
import { defaultAlertDeliver } from "./deliver";
import { evaluateAlertRules, evaluateOneRule } from "./evaluator";
import type { TAlertEvaluation, TAlertTargetResult, TAlertTestResult } from "./schemas";

function summary(
  results: readonly TAlertTargetResult[],
): Pick<TAlertTestResult, "status" | "triggered" | "observed_value" | "message"> {
  const triggered = results.filter((r) => r.status === "triggered");
  const errors = results.filter((r) => r.status === "evaluation_error");
  const first = triggered[0] ?? results.find((r) => r.observed_value !== null) ?? results[0];
  const status =
    triggered.length > 0
      ? "triggered"
      : results.length > 0 && errors.length === results.length
        ? "evaluation_error"
        : "not_triggered";
  const message =
    results.length <= 1
      ? (first?.message ?? "nothing to check")
      : `${results.length} targets: ${triggered.length} triggered, ${results.filter((r) => r.status === "not_triggered").length} not triggered, ${errors.length} errors, ${results.filter((r) => r.status === "skipped").length} skipped${triggered[0] ? `; ${triggered[0].display_target}: ${triggered[0].message}` : ""}`;
  return { status, triggered: triggered.length > 0, observed_value: first?.observed_value ?? null, message };
}

// POST /api/v1/alerts/rules/{rule_id}/test – a dry run at any time of day: what each target shows now, nothing
// stored or sent (docs/api.md §12.2.3).
export async function testAlertRule(id: number): Promise<TAlertTestResult> {
  const evaluation = await evaluateOneRule(id, { deliver: defaultAlertDeliver, dryRun: true, anyTime: true });
  if (!evaluation) throw notFound(`Alert rule ${id} not found`);
  const results = evaluation.results;
  return {
    rule_id: id,
    target_scope: evaluation.targetScope,
    ...summary(results),
    evaluated_count: results.length,
    triggered_count: results.filter((r) => r.status === "triggered").length,
    degraded_count: results.filter((r) => r.status === "evaluation_error").length,
    skipped_count: results.filter((r) => r.status === "skipped").length,
    target_results: results,
  };
}

// POST /api/v1/alerts/evaluate – the evaluator now, as the scheduler runs it but at any time of day.
export function evaluateAlertsNow(): Promise<TAlertEvaluation> {
  return evaluateAlertRules({ deliver: defaultAlertDeliver, anyTime: true });
}
