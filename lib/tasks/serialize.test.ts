import { describe, expect, it } from "vitest";
import { toTaskInfo } from "./serialize";
import type { TaskRow } from "./store";

function row(fields: Partial<TaskRow>): TaskRow {
  return {
    id: "t1",
    traceId: null,
    kind: "analysis",
    stockCode: "AAPL",
    stockName: "Apple",
    market: "us",
    assetType: "stock",
    activeKey: null,
    request: "{}",
    originalQuery: null,
    selectionSource: null,
    reportType: "simple",
    analysisPhase: "auto",
    skills: null,
    region: "us",
    status: "pending",
    progress: 0,
    message: "queued",
    error: null,
    errorCode: null,
    errorParams: null,
    attempts: 0,
    leaseOwner: null,
    leaseUntil: null,
    createdAt: new Date("2026-01-05T02:00:00Z"),
    startedAt: null,
    completedAt: null,
    ...fields,
  };
}

describe("toTaskInfo", () => {
  it("carries the target's Chinese and English names, so each UI shows its own", () => {
    expect(toTaskInfo(row({})).stock_names).toEqual({ zh: "苹果", en: "Apple" });
    const index = toTaskInfo(row({ stockCode: "sh000300", market: "cn", assetType: "index", stockName: "沪深300" }));
    expect(index.stock_names).toEqual({ zh: "沪深300", en: "CSI 300 Index" });
  });

  it("gives no names for a market review, nor for a code the tables do not know", () => {
    expect(toTaskInfo(row({ kind: "market_review", stockCode: "market_review" })).stock_names).toBeNull();
    expect(toTaskInfo(row({ stockCode: "ZZZZ", stockName: null })).stock_names).toEqual({ zh: null, en: null });
  });
});

describe("a failed task's reason", () => {
  it("travels as error_code and error_params, so a UI words it in its own language", () => {
    const info = toTaskInfo(
      row({
        status: "failed",
        error: "No market data for AAPL: ...",
        errorCode: "market_data_unavailable",
        errorParams: '{"code":"AAPL","providers":"eastmoney, yahoo"}',
      }),
    );
    expect(info).toMatchObject({
      error_code: "market_data_unavailable",
      error_params: { code: "AAPL", providers: "eastmoney, yahoo" },
    });
    expect(toTaskInfo(row({ errorParams: "not json" })).error_params).toBeNull();
  });
});
