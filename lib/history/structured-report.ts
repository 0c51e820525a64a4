import type { TAnalysisReport, TStructuredReport } from "./schemas";

// The report as the reference's newer client reads it (CONTRACT §14.3): a thesis, the evidence, what would prove it
// wrong and what to do next, each taken from the stored report's own fields (no new number is made here), in the
// report's language.

type Parts = Pick<TAnalysisReport, "meta" | "summary" | "strategy" | "details">;

const WORDS = {
  zh: {
    stop: (level: string) => `收盘跌破止损位 ${level}：计划失效，离场`,
    target: (level: string) => `到达目标位 ${level}：重新评估，不再按原计划持有`,
    insufficient: "数据不足以支撑结论：补全数据后重新分析",
    entry: (level: string) => `等待回落到理想买入位 ${level} 附近`,
    again: "下一个交易日收盘后重新分析",
  },
  en: {
    stop: (level: string) => `A close below the stop ${level}: the plan is void, exit`,
    target: (level: string) => `The target ${level} is reached: reassess rather than hold on the old plan`,
    insufficient: "The data cannot carry a call: analyse again once it is complete",
    entry: (level: string) => `Wait for a pullback to the ideal entry near ${level}`,
    again: "Analyse again after the next session's close",
  },
} as const;

const present = (value: string | null | undefined): value is string =>
  typeof value === "string" && value.trim() !== "" && value.trim() !== "-";

export function structuredReport(report: Parts): TStructuredReport {
  const words = WORDS[report.meta.report_language];
  const { summary, strategy, details } = report;
  const invalidation: string[] = [];
  if (present(strategy.stop_loss)) invalidation.push(words.stop(strategy.stop_loss));
  if (present(strategy.take_profit)) invalidation.push(words.target(strategy.take_profit));
  if (details.data_quality?.level === "insufficient") invalidation.push(words.insufficient);
  const next: string[] = [];
  if (present(summary.operation_advice)) next.push(summary.operation_advice);
  if (
    present(strategy.ideal_buy) &&
    (summary.action === "buy" || summary.action === "add" || summary.action === "watch")
  )
    next.push(words.entry(strategy.ideal_buy));
  next.push(words.again);
  return {
    thesis: summary.analysis_summary ?? summary.operation_advice ?? "",
    evidence: details.evidence?.scopes ?? [],
    evidence_statement: details.evidence?.statement ?? null,
    invalidation_conditions: invalidation,
    next_actions: next,
    data_quality: details.data_quality ?? null,
  };
}
