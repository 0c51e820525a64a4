import { describe, expect, it } from "vitest";
import type { AnalysisHistory } from "@/generated/prisma/client";
import { levelPrice, planFromStrategy, signalRequestFromAnalysis } from "./from-analysis";

const STRATEGY = {
  ideal_buy: "1450.00（MA5）",
  secondary_buy: "1420.50（支撑）",
  stop_loss: "1380.00 (below support)",
  take_profit: "1,600.00 (resistance)",
};

function record(action: string | null): AnalysisHistory {
  return {
    id: 42,
    queryId: "q42",
    traceId: "trace-42",
    stockCode: "600519",
    displayCode: "600519",
    stockName: "贵州茅台",
    market: "cn",
    assetType: "stock",
    targetKey: "stock:cn:600519",
    reportType: "detailed",
    reportLanguage: "zh",
    region: "cn",
    analysisPhase: "postmarket",
    sentimentScore: 68,
    trendPrediction: null,
    operationAdvice: null,
    action,
    analysisSummary: null,
    currentPrice: 1460,
    changePct: 0.5,
    volumeRatio: 1,
    turnoverRate: 0.2,
    modelUsed: null,
    engineVersion: "rules-v1",
    dataSource: "sample",
    marketPhaseSummary: null,
    reportJson: JSON.stringify({
      summary: {
        action,
        action_label: "买入",
        sentiment_score: 68,
        analysis_summary: "summary",
        operation_advice: "advice",
      },
      strategy: STRATEGY,
      details: {},
    }),
    rawResult: null,
    contextSnapshot: null,
    diagnostics: null,
    flow: null,
    createdAt: new Date(),
  };
}

describe("signals from analyses", () => {
  it("reads prices from the report's level texts", () => {
    expect(levelPrice("1450.00（MA5）")).toBe(1450);
    expect(levelPrice("1,600.00 (resistance)")).toBe(1600);
    expect(levelPrice(null)).toBeNull();
    expect(levelPrice("n/a")).toBeNull();
  });

  it("a buy takes the report's plan; a sell takes none; a hold keeps stop and target", () => {
    expect(planFromStrategy("buy", STRATEGY)).toEqual({
      entry_low: 1420.5,
      entry_high: 1450,
      stop_loss: 1380,
      target_price: 1600,
    });
    expect(planFromStrategy("sell", STRATEGY)).toEqual({});
    // rules-v2 short-side plan: wrong above the stop, aiming at the support below.
    expect(
      planFromStrategy("reduce", {
        ideal_buy: null,
        secondary_buy: null,
        stop_loss: "1520.00（压力位上方留出波动缓冲）",
        take_profit: "1400.00（MA60）",
      }),
    ).toEqual({ stop_loss: 1520, target_price: 1400 });
    expect(planFromStrategy("hold", STRATEGY)).toEqual({ stop_loss: 1380, target_price: 1600 });
    // A plan that contradicts the action is left out rather than stored wrong.
    expect(planFromStrategy("buy", { ...STRATEGY, stop_loss: "1500.00" })).toEqual({});
  });

  it("directional actions become an analysis signal linked to the record; watch, alert and none do not", () => {
    expect(signalRequestFromAnalysis(record("buy"), "api")).toMatchObject({
      stock_code: "600519",
      market: "cn",
      source_type: "analysis",
      source_report_id: 42,
      trace_id: "trace-42",
      trigger_source: "api",
      action: "buy",
      action_label: "买入",
      score: 68,
      market_phase: "postmarket",
      entry_low: 1420.5,
      status: "active",
      metadata: { query_id: "q42", report_type: "detailed" },
    });
    for (const action of ["watch", "alert", null]) expect(signalRequestFromAnalysis(record(action), "api")).toBeNull();
  });
});
