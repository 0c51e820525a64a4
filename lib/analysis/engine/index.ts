// Public surface of the rule-based analysis engine: indicators, phase, the rule
// decision, the action classifier (shared with the LLM path) and the localised rule report.
export {
  computeIndicators,
  computeVolume,
  MACD_MIN_BARS,
  mergeQuoteBars,
  REGIME_SLOPE_BARS,
  type MergedSeries,
} from "./indicators";
export { resolveMarketPhase } from "./phase";
export { decideByRules, levelText, FACTOR_WEIGHTS, CHASE_BIAS_PCT, type RuleDecision } from "./rules";
export { planProblem, structurePlan, type Plan, type PlanNumbers } from "./plan";
export { dailyLimitPct, decideStructure, type StructureReason } from "./structure-decision";
export {
  actionLabel,
  classifyAdviceText,
  classifyDecisionAction,
  normalizeActionValue,
  scoreBand,
  sentimentLabel,
  ACTION_LABELS,
} from "./action";
export { normalizeReportLanguage, SAMPLE_DATA_NOTICE } from "./language";
export { buildRuleReport, type RuleReportInput, type RuleReportTarget } from "./rule-report";
export * from "./schemas";
export {
  cciSeries,
  kdjSeries,
  macdSeries,
  rsiSeries,
  smaSeries,
  type Candle,
  type KdjPoint,
  type MacdPoint,
  type NumberSeries,
} from "./series";
export { RULE_ENGINE_VERSION, ANALYSIS_WINDOW_BARS } from "./version";
export { decideAtClose, type SliceDecision } from "./decide-slice";
