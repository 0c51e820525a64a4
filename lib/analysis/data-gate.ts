import type { TDataQuality } from "@/lib/evidence/schemas";
import type { TReportStrategy, TReportSummary } from "@/lib/history/schemas";
import {
  actionLabel,
  levelText,
  structurePlan,
  type TDashboard,
  type TIndicators,
  type TReportLanguage,
} from "./engine";
import type { TLlmReport } from "./llm/report-schema";

// docs/api.md §13: on data rated `insufficient` the report's action is watch, whatever the rules or the model said,
// and its advice says why (also when the rules had said watch). The plan becomes the watch plan (no entry).

export function gateOnDataQuality(
  quality: TDataQuality,
  summary: TReportSummary,
  strategy: TReportStrategy,
  indicators: TIndicators,
  language: TReportLanguage,
): { summary: TReportSummary; strategy: TReportStrategy; gated: boolean } {
  if (quality.level !== "insufficient") return { summary, strategy, gated: false };
  const why = quality.reasons.map((r) => r.message).join(language === "zh" ? "；" : "; ");
  const advice =
    language === "zh" ? `观望：数据不足以支撑操作判断（${why}）。` : `Watch: the data cannot carry a call (${why}).`;
  const plan = structurePlan(indicators, "watch", "data_quality");
  return {
    summary: {
      ...summary,
      action: "watch",
      action_label: actionLabel("watch", language),
      operation_advice: advice,
      analysis_summary: `${advice} ${summary.analysis_summary ?? ""}`.trim(),
    },
    strategy: {
      ideal_buy: levelText(plan.ideal_buy, language),
      secondary_buy: levelText(plan.secondary_buy, language),
      stop_loss: levelText(plan.stop_loss, language),
      take_profit: levelText(plan.take_profit, language),
    },
    gated: summary.action !== "watch",
  };
}

type Confidence = "high" | "medium" | "low";
const RANK: Record<Confidence, number> = { low: 0, medium: 1, high: 2 };

/** Data that are not good cap the stated confidence: degraded at medium, insufficient at low. */
export function cappedConfidence(stated: Confidence, quality: TDataQuality): Confidence {
  const cap: Confidence = quality.level === "good" ? "high" : quality.level === "degraded" ? "medium" : "low";
  return RANK[stated] <= RANK[cap] ? stated : cap;
}

/**
 * The core conclusion the page and the Markdown read beside the summary (the rules' dashboard, the model's report),
 * held to the data quality: confidence capped, the reasons added; at `insufficient` the signal is watch and the
 * position advice is the gate's advice, so no part of the report still reads as a call.
 */
export function gateConclusion<
  T extends { core_conclusion: TDashboard["core_conclusion"] | TLlmReport["core_conclusion"] },
>(report: T, quality: TDataQuality, advice: string | null): T {
  if (quality.level === "good") return report;
  const core = { ...report.core_conclusion, confidence: cappedConfidence(report.core_conclusion.confidence, quality) };
  if ("confidence_reasons" in core)
    core.confidence_reasons = [...core.confidence_reasons, ...quality.reasons.map((r) => r.message)];
  if (quality.level === "insufficient" && advice) {
    if ("signal_type" in core) core.signal_type = "watch";
    if ("action" in core) core.action = "watch";
    core.position_advice = { no_position: advice, has_position: advice };
  }
  return { ...report, core_conclusion: core };
}
