import { describe, expect, it } from "vitest";
import { structuredReport } from "./structured-report";
import type { TAnalysisReport } from "./schemas";

const report = (language: "zh" | "en", over: Partial<TAnalysisReport["summary"]> = {}) =>
  ({
    meta: { report_language: language },
    summary: {
      analysis_summary: "Trend up, pullback to the 20-day line.",
      operation_advice: "Buy on the pullback",
      action: "buy",
      ...over,
    },
    strategy: { ideal_buy: "1500.00", secondary_buy: null, stop_loss: "1420.00", take_profit: "1650.00" },
    details: {
      evidence: {
        statement: "No measurable edge on this stock (n = 31).",
        scopes: [{ scope: "stock", n_calls: 31, verdict: "no_measurable_edge" }],
      },
      data_quality: { level: "degraded", reasons: [], bars: 300, last_bar_date: "2026-12-02", source: "sample" },
    },
  }) as unknown as TAnalysisReport;

describe("structuredReport", () => {
  it("takes every part from the report's own fields: thesis, evidence, the plan's levels, data quality", () => {
    const s = structuredReport(report("en"));
    expect(s.thesis).toBe("Trend up, pullback to the 20-day line.");
    expect(s.evidence).toEqual([{ scope: "stock", n_calls: 31, verdict: "no_measurable_edge" }]);
    expect(s.evidence_statement).toBe("No measurable edge on this stock (n = 31).");
    expect(s.invalidation_conditions).toEqual([
      "A close below the stop 1420.00: the plan is void, exit",
      "The target 1650.00 is reached: reassess rather than hold on the old plan",
    ]);
    expect(s.next_actions[0]).toBe("Buy on the pullback");
    expect(s.next_actions[1]).toContain("1500.00");
    expect(s.data_quality?.level).toBe("degraded");
  });

  it("words its own sentences in the report's language, and names no entry level for a sell", () => {
    const s = structuredReport(report("zh", { action: "sell", operation_advice: "减仓" }));
    expect(s.invalidation_conditions[0]).toBe("收盘跌破止损位 1420.00：计划失效，离场");
    expect(s.next_actions).toEqual(["减仓", "下一个交易日收盘后重新分析"]);
  });
});
