import type { TDecisionProfile } from "./schemas";
import { pricePlanViolation, type PricePlan } from "./lifecycle";
import type { TSignalAction } from "./schemas";
import type { TGuardrailResult } from "./reassess-schemas";

// The decision-profile gate (docs/api.md §4.6): structural checks on a stored report's buy or add before it is
// stored under a profile. It never recomputes the call and has no tuned constant: each check asks whether the
// report itself carries what acting on it needs (a stop, usable data, a stated confidence that is not low, prices
// in order). A failing call is shown as watch, or alert when its prices contradict each other, and is not stored.

export const PROFILE_POLICY_VERSION = "profile-gate-v1";

export interface GateInput {
  action: TSignalAction;
  profile: TDecisionProfile;
  dataQuality: "good" | "degraded" | "insufficient" | "unknown";
  confidence: "high" | "medium" | "low" | null;
  plan: PricePlan;
}

const ACTIONABLE: readonly TSignalAction[] = ["buy", "add"];

function violationsOf(input: GateInput): { violations: string[]; priceContradiction: boolean } {
  const { plan, profile } = input;
  const violations: string[] = [];
  if (plan.stop_loss == null) violations.push("missing_invalidation_or_stop_loss");
  if (input.dataQuality === "insufficient" || input.dataQuality === "unknown")
    violations.push("insufficient_data_quality");
  if (input.confidence === null) violations.push("missing_confidence");
  else if (input.confidence === "low") violations.push("confidence_below_actionable_threshold");
  // Conservative also wants complete data and a planned exit; aggressive's extra checks in the reference (an explicit
  // invalidation, no long horizon) hold by construction here: the stop is the invalidation and horizons are intraday or Nd.
  if (profile === "conservative") {
    if (input.dataQuality === "degraded") violations.push("data_quality_not_good");
    if (plan.target_price == null) violations.push("missing_target_price");
  }
  const price = pricePlanViolation(input.action, plan);
  if (price) violations.push(price.code);
  return { violations, priceContradiction: price !== null };
}

export function applyProfileGate(input: GateInput): TGuardrailResult {
  if (!ACTIONABLE.includes(input.action))
    return {
      raw_action: input.action,
      final_action: input.action,
      passed: true,
      violations: [],
      adjustments: [],
      adjusted: false,
    };
  const { violations, priceContradiction } = violationsOf(input);
  const passed = violations.length === 0;
  const finalAction: TSignalAction = passed ? input.action : priceContradiction ? "alert" : "watch";
  return {
    raw_action: input.action,
    final_action: finalAction,
    passed,
    violations,
    adjustments: passed ? [] : ["action_downgraded_by_guardrail"],
    adjusted: !passed,
  };
}
