import type { TRuleReport } from "@/lib/analysis/engine";
import { NOT_GATHERED_DETAILS, type TAnalysisReport } from "./schemas";

/**
 * A rule engine result in the stored report's shape, as the pipeline stores it when no model answered
 * (lib/analysis/pipeline.ts reportDetails) and without news: for reports that are built but never stored (the share
 * renderer's warm-up, tests).
 */
export function ruleOnlyReport(
  rule: TRuleReport,
  meta: Omit<TAnalysisReport["meta"], "market_phase_summary">,
  bars: number,
  dataSource: string,
): TAnalysisReport {
  const isSample = dataSource === "sample";
  return {
    meta: { ...meta, market_phase_summary: rule.market_phase_summary as unknown as Record<string, unknown> },
    summary: rule.summary,
    strategy: rule.strategy,
    details: {
      news_content: null,
      raw_result: {
        engine: "rules",
        dashboard: rule.dashboard,
        guardrail_reasons: rule.guardrail_reasons,
        score_breakdown: rule.score_breakdown,
      },
      context_snapshot: { quote: null, indicators: rule.indicators, data_source: dataSource, is_sample_data: isSample },
      analysis_context_pack_overview: { bars, data_source: dataSource, is_sample_data: isSample },
      ...NOT_GATHERED_DETAILS,
    },
  };
}
