import { afterAll, describe, expect, it } from "vitest";
import type { AnalysisHistory } from "@/generated/prisma/client";
import { setEnvironmentForTests } from "@/lib/settings/settings";
import { NOT_GATHERED_DETAILS, type TAnalysisReport } from "@/lib/history/schemas";
import type { TMarketReviewPayload } from "@/lib/market-review/schemas";
import { alertMessage, analysisMessage, marketReviewMessage } from "./messages";

// The summaries the three callers send: what a finished analysis, a market review and an alert say.

afterAll(() => setEnvironmentForTests(process.env));

const record = { id: 42, queryId: "q-42", dataSource: "eastmoney", targetKey: "stock:cn:600519" } as AnalysisHistory;

function report(language: "zh" | "en", overrides: Partial<TAnalysisReport["summary"]> = {}): TAnalysisReport {
  return {
    meta: {
      id: 42,
      query_id: "q-42",
      stock_code: "600519",
      stock_name: language === "zh" ? "贵州茅台" : "Kweichow Moutai",
      report_type: "detailed",
      report_language: language,
      created_at: "2026-11-22T08:00:00Z",
      current_price: 1500.5,
      change_pct: -1.234,
      model_used: null,
      market_phase_summary: null,
      asset_type: "stock",
    },
    summary: {
      analysis_summary: "Uptrend intact;\n  buy the pullback.",
      operation_advice: "Buy near 1480, stop 1420.",
      action: "buy",
      action_label: language === "zh" ? "买入" : "Buy",
      trend_prediction: null,
      sentiment_score: 72,
      sentiment_label: language === "zh" ? "乐观" : "Bullish",
      ...overrides,
    },
    strategy: { ideal_buy: null, secondary_buy: null, stop_loss: null, take_profit: null },
    details: {
      news_content: null,
      raw_result: null,
      context_snapshot: null,
      analysis_context_pack_overview: null,
      ...NOT_GATHERED_DETAILS,
    },
  };
}

describe("analysis summary", () => {
  it("code, name, action, score, price and change, summary line, advice, and the history link on PUBLIC_BASE_URL", () => {
    setEnvironmentForTests({ ENV_FILE: "/nonexistent/.env", PUBLIC_BASE_URL: "https://dsa.example.com/" });
    expect(analysisMessage(record, report("en"))).toEqual({
      kind: "report",
      title: "Kweichow Moutai (600519) · Buy · 72",
      body: [
        "- **Action**: Buy · Score 72 (Bullish)",
        "- **Price**: 1500.50 (-1.23%)",
        "- **Summary**: Uptrend intact; buy the pullback.",
        "- **Advice**: Buy near 1480, stop 1420.",
      ].join("\n"),
      link: { url: "https://dsa.example.com/history/42", label: "Open the full report" },
      related: { kind: "analysis", id: "q-42" },
      severity: "info",
      subject: "stock:cn:600519",
    });
  });

  it("in Chinese, without a base URL the link is this server on localhost; absent fields are left out", () => {
    setEnvironmentForTests({ ENV_FILE: "/nonexistent/.env", PORT: "3123" });
    const message = analysisMessage(
      { ...record, dataSource: "sample" },
      report("zh", { operation_advice: null, sentiment_label: null, trend_prediction: "震荡上行" }),
    );
    expect(message.title).toBe("贵州茅台 (600519) · 买入 · 72分");
    expect(message.body).toBe(
      [
        "- **建议**: 买入 · 评分 72",
        "- **现价**: 1500.50 (-1.23%)",
        "- **趋势**: 震荡上行",
        "- **结论**: Uptrend intact; buy the pullback.",
        "- 样例数据",
      ].join("\n"),
    );
    expect(message.link).toEqual({ url: "http://localhost:3123/history/42", label: "查看完整报告" });
  });

  it("the price says its source and date: a close of an old file, or a live quote of today's session", () => {
    setEnvironmentForTests({ ENV_FILE: "/nonexistent/.env" });
    const withAsOf = (snapshot: Record<string, unknown>, language: "zh" | "en") => {
      const r = report(language);
      return { ...r, details: { ...r.details, context_snapshot: snapshot } };
    };
    const close = withAsOf({ as_of: { date: "2026-02-13", basis: "close", live: false }, data_source: "csv" }, "en");
    expect(analysisMessage({ ...record, dataSource: "csv" }, close).body).toContain(
      "- **Price**: 1500.50 (-1.23%) · csv · 2026-02-13 close",
    );
    const live = withAsOf(
      { as_of: { date: "2026-11-22", basis: "quote", live: true }, quote: { source: "tencent" } },
      "zh",
    );
    expect(analysisMessage(record, live).body).toContain("- **现价**: 1500.50 (-1.23%) · tencent · 2026-11-22 实时");
  });
});

describe("market review and alert summaries", () => {
  it("market review: temperature, stance, quoted indices, summary and the review link", () => {
    setEnvironmentForTests({ ENV_FILE: "/nonexistent/.env", PUBLIC_BASE_URL: "http://h" });
    // Only the fields the summary reads; the payload's other parts are covered by lib/market-review.
    const payload = {
      title: "大盘复盘 · A股 · 2026-11-20",
      region: "cn",
      language: "zh",
      summary: "指数普涨，成交放大。",
      sample_notice: null,
      regions: ["cn"],
      label: "A股",
      market_light: { score: 64, label: "偏暖" },
      outlook: { label: "均衡" },
      indices: [
        { name: "上证指数", current: 3401.234, change_pct: 0.5 },
        { name: "深证成指", current: null, change_pct: null },
      ],
    } as unknown as TMarketReviewPayload;
    expect(marketReviewMessage({ ...record, id: 9, queryId: "q-9" }, payload)).toEqual({
      kind: "report",
      title: "大盘复盘 · A股 · 2026-11-20",
      body: "**市场温度**: 64 偏暖\n\n**策略**: 均衡\n\n- 上证指数: 3401.23 (+0.50%)\n\n指数普涨，成交放大。",
      link: { url: "http://h/history/9", label: "查看复盘" },
      related: { kind: "market_review", id: "q-9" },
      severity: "info",
      subject: "market_review:cn",
    });
  });

  it("alert: kind alert, severity in the title, observed value and threshold", () => {
    expect(
      alertMessage({
        triggerId: 5,
        ruleName: "茅台突破",
        target: "600519",
        message: "价格 1510 上穿 1500",
        observedValue: 1510,
        threshold: 1500,
        severity: "warning",
      }),
    ).toEqual({
      kind: "alert",
      title: "提醒 [warning] · 茅台突破 · 600519",
      body: "价格 1510 上穿 1500\n- **观测值**: 1510\n- **阈值**: 1500",
      link: null,
      related: { kind: "alert", id: 5 },
      severity: "warning",
      subject: "alert:600519",
    });
  });
});
