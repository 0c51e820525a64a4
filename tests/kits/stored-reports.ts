import { buildRuleReport, type RuleReportTarget } from "@/lib/analysis/engine";
import { barsFromCloses } from "@/tests/kits/test-bars";
import { setClock } from "@/lib/clock";
import { marketOverview } from "@/lib/market/overview";
import type { ChainOptions } from "@/lib/market/providers/chain";
import { createSampleProvider } from "@/lib/market/providers/sample";
import { clearQuoteCache } from "@/lib/market/quote-cache";
import { buildRulePayload, renderFullReport, renderRuleBody } from "@/lib/market-review/rules";
import type { TMarketReviewPayload } from "@/lib/market-review/schemas";
import { ruleOnlyReport } from "@/lib/history/rule-only-report";
import type { TAnalysisReport } from "@/lib/history/schemas";

// Records shaped as the pipeline and the market review store them, for the history unit tests (Markdown,
// share card). Built by the real engines on fixed inputs, so they change when what is stored changes.

const moutai: RuleReportTarget = {
  kind: "stock",
  market: "cn",
  code: "600519",
  displayCode: "600519",
  name: "贵州茅台",
  nameEn: "Kweichow Moutai",
};
const closes = Array.from({ length: 80 }, (_, i) => 1500 + Math.sin(i / 4) * 30 + i * 2);

// A report shaped as the pipeline stores it (lib/analysis/pipeline.ts reportDetails).
export function storedReport(language: "zh" | "en", overrides: Partial<TAnalysisReport["meta"]> = {}): TAnalysisReport {
  const bars = barsFromCloses(closes);
  const rule = buildRuleReport({
    target: moutai,
    bars,
    language,
    dataSource: "eastmoney",
    at: new Date("2026-05-06T08:00:00Z"),
  });
  const report = ruleOnlyReport(
    rule,
    {
      id: 42,
      query_id: "q".repeat(32),
      stock_code: "600519",
      stock_name: language === "zh" ? "贵州茅台" : "Kweichow Moutai",
      report_type: "detailed",
      report_language: language,
      created_at: "2026-05-06T08:00:00.000Z",
      current_price: 1660.5,
      change_pct: 0,
      model_used: null,
      asset_type: "stock",
    },
    bars.length,
    "eastmoney",
  );
  return { ...report, meta: { ...report.meta, ...overrides } };
}

const REVIEW_AT = new Date("2026-11-20T12:00:00Z"); // a Friday, after the A-share close

/** A market review record as lib/market-review/run.ts stores it, built on the offline sample provider. */
export async function storedMarketReview(
  language: "zh" | "en",
): Promise<{ report: TAnalysisReport; payload: TMarketReviewPayload }> {
  const chain: ChainOptions = {
    providers: [createSampleProvider({ latencyMs: () => 0 })],
    timeoutMs: 2000,
    retries: 0,
  };
  clearQuoteCache();
  setClock(() => REVIEW_AT);
  try {
    const overview = await marketOverview("cn", { chain });
    const payload = buildRulePayload({
      region: "cn",
      overviews: [overview],
      news: [],
      language,
      generatedAt: REVIEW_AT,
    });
    const body = renderRuleBody(payload);
    const report: TAnalysisReport = {
      meta: {
        id: 77,
        query_id: "review-task-0077",
        stock_code: "MARKET",
        stock_name: language === "zh" ? "大盘复盘" : "Market review",
        report_type: "market_review",
        report_language: language,
        created_at: REVIEW_AT.toISOString(),
        current_price: null,
        change_pct: null,
        model_used: null,
        market_phase_summary: null,
        asset_type: null,
      },
      summary: {
        analysis_summary: payload.summary,
        operation_advice: payload.outlook.text,
        action: null,
        action_label: null,
        trend_prediction: payload.outlook.label,
        sentiment_score: payload.market_light.score,
        sentiment_label: payload.market_light.label,
      },
      strategy: { ideal_buy: null, secondary_buy: null, stop_loss: null, take_profit: null },
      details: {
        news_content: null,
        raw_result: { engine: "rules", markdown: body, report: renderFullReport(payload, body), rule_markdown: body },
        context_snapshot: {
          market_review_payload: payload,
          data_source: payload.data_source,
          is_sample_data: payload.is_sample_data,
        },
        analysis_context_pack_overview: null,
        financial_report: null,
        dividend_metrics: null,
        belong_boards: null,
        sector_rankings: null,
        concept_rankings: null,
        market_structure: { temperature: payload.market_light },
      },
    };
    return { report, payload };
  } finally {
    setClock(null);
    clearQuoteCache();
  }
}
