import { describe, expect, it } from "vitest";
import { applyProfileGate, type GateInput } from "./profile-gate";

const GOOD: GateInput = {
  action: "buy",
  profile: "balanced",
  dataQuality: "good",
  confidence: "medium",
  plan: { entry_low: 10, entry_high: 10.5, stop_loss: 9.5, target_price: 12 },
};

describe("decision-profile gate", () => {
  it("passes a buy the report backs fully, under every profile", () => {
    for (const profile of ["conservative", "balanced", "aggressive"] as const)
      expect(applyProfileGate({ ...GOOD, profile })).toEqual({
        raw_action: "buy",
        final_action: "buy",
        passed: true,
        violations: [],
        adjustments: [],
        adjusted: false,
      });
  });

  it("degraded data and a missing target hold back only the conservative profile", () => {
    const input = { ...GOOD, dataQuality: "degraded" as const, plan: { ...GOOD.plan, target_price: null } };
    expect(applyProfileGate(input).passed).toBe(true);
    expect(applyProfileGate({ ...input, profile: "aggressive" }).passed).toBe(true);
    expect(applyProfileGate({ ...input, profile: "conservative" })).toMatchObject({
      final_action: "watch",
      passed: false,
      violations: ["data_quality_not_good", "missing_target_price"],
    });
  });

  it("a stop, usable data and a stated confidence that is not low are needed by every profile", () => {
    const cases: [Partial<GateInput>, string][] = [
      [{ plan: { ...GOOD.plan, stop_loss: null } }, "missing_invalidation_or_stop_loss"],
      [{ dataQuality: "insufficient" }, "insufficient_data_quality"],
      [{ dataQuality: "unknown" }, "insufficient_data_quality"],
      [{ confidence: null }, "missing_confidence"],
      [{ confidence: "low" }, "confidence_below_actionable_threshold"],
    ];
    for (const [change, code] of cases) {
      const result = applyProfileGate({ ...GOOD, action: "add", ...change });
      expect(result, code).toMatchObject({ final_action: "watch", passed: false, violations: [code] });
    }
  });

  it("contradicting prices downgrade to alert", () => {
    expect(applyProfileGate({ ...GOOD, plan: { ...GOOD.plan, stop_loss: 13 } })).toMatchObject({
      final_action: "alert",
      violations: ["stop_loss_not_below_entry"],
    });
    expect(applyProfileGate({ ...GOOD, plan: { ...GOOD.plan, target_price: 10.2 } }).violations).toEqual([
      "target_price_not_above_entry",
    ]);
  });

  it("leaves every other action as it is", () => {
    for (const action of ["hold", "reduce", "sell", "avoid", "watch", "alert"] as const)
      expect(
        applyProfileGate({ ...GOOD, action, dataQuality: "unknown", confidence: null, plan: {} }),
        action,
      ).toMatchObject({ final_action: action, passed: true, violations: [] });
  });
});
