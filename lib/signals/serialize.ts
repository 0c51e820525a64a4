import type { DecisionSignal, DecisionSignalFeedback, DecisionSignalOutcome } from "@/generated/prisma/client";
import type {
  TDecisionSignalItem,
  TDecisionSignalOutcomeItem,
  TFeedbackItem,
  TOutcomeHorizon,
  TPlanQuality,
  TSignalAction,
  TSignalHorizon,
  TSignalMarketPhase,
  TSignalSourceType,
  TSignalStatus,
} from "./schemas";
import type { TMarket } from "@/lib/market/symbols";

export function parseMetadata(text: string | null): Record<string, unknown> | null {
  if (text === null) return null;
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === "object" && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/** A stored signal as the wire record (docs/api.md §4 Item). */
export function toSignalItem(row: DecisionSignal): TDecisionSignalItem {
  return {
    id: row.id,
    stock_code: row.stockCode,
    stock_name: row.stockName,
    market: row.market as TMarket,
    source_type: row.sourceType as TSignalSourceType,
    source_agent: row.sourceAgent,
    source_report_id: row.sourceReportId,
    trace_id: row.traceId,
    market_phase: row.marketPhase as TSignalMarketPhase | null,
    trigger_source: row.triggerSource,
    decision_profile: row.decisionProfile as TDecisionSignalItem["decision_profile"],
    action: row.action as TSignalAction,
    action_label: row.actionLabel,
    confidence: row.confidence,
    score: row.score,
    horizon: row.horizon as TSignalHorizon,
    entry_low: row.entryLow,
    entry_high: row.entryHigh,
    stop_loss: row.stopLoss,
    target_price: row.targetPrice,
    invalidation: row.invalidation,
    watch_conditions: row.watchConditions,
    reason: row.reason,
    risk_summary: row.riskSummary,
    catalyst_summary: row.catalystSummary,
    evidence: row.evidence,
    data_quality_summary: row.dataQualitySummary,
    plan_quality: row.planQuality as TPlanQuality,
    status: row.status as TSignalStatus,
    expires_at: row.expiresAt ? row.expiresAt.toISOString() : null,
    metadata: parseMetadata(row.metadata),
    report_language: row.reportLanguage,
    decision_engine_version: row.decisionEngineVersion,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

type SignalFacts = Pick<DecisionSignal, "action" | "market" | "marketPhase" | "sourceType" | "planQuality">;

/** An outcome row with the facts of its signal that stats group by (docs/api.md §4 Outcome item). */
export function toOutcomeItem(row: DecisionSignalOutcome, signal: SignalFacts | null): TDecisionSignalOutcomeItem {
  return {
    id: row.id,
    signal_id: row.signalId,
    horizon: row.horizon as TOutcomeHorizon,
    engine_version: row.engineVersion,
    eval_status: row.evalStatus as TDecisionSignalOutcomeItem["eval_status"],
    outcome: row.outcome as TDecisionSignalOutcomeItem["outcome"],
    direction_expected: row.directionExpected as TDecisionSignalOutcomeItem["direction_expected"],
    direction_correct: row.directionCorrect,
    unable_reason: row.unableReason,
    retryable: row.evalStatus === "unable" && row.retryable,
    anchor_date: row.anchorDate,
    eval_window_days: row.evalWindowDays,
    start_price: row.startPrice,
    end_date: row.endDate,
    end_close: row.endClose,
    max_high: row.maxHigh,
    min_low: row.minLow,
    stock_return_pct: row.stockReturnPct,
    max_favorable_excursion_pct: row.maxFavorableExcursionPct,
    max_adverse_excursion_pct: row.maxAdverseExcursionPct,
    entry_reachable: row.entryReachable,
    first_hit: row.firstHit as TDecisionSignalOutcomeItem["first_hit"],
    first_hit_date: row.firstHitDate,
    action: (signal?.action ?? null) as TSignalAction | null,
    market: (signal?.market ?? null) as TMarket | null,
    market_phase: (signal?.marketPhase ?? null) as TSignalMarketPhase | null,
    source_type: (signal?.sourceType ?? null) as TSignalSourceType | null,
    plan_quality: (signal?.planQuality ?? null) as TPlanQuality | null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export function toFeedbackItem(signalId: number, row: DecisionSignalFeedback | null): TFeedbackItem {
  return {
    signal_id: signalId,
    feedback_value: (row?.feedbackValue ?? null) as TFeedbackItem["feedback_value"],
    reason_code: row?.reasonCode ?? null,
    note: row?.note ?? null,
    source: (row?.source ?? null) as TFeedbackItem["source"],
    created_at: row?.createdAt.toISOString() ?? null,
    updated_at: row?.updatedAt.toISOString() ?? null,
  };
}
