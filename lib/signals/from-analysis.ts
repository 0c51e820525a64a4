import type { AnalysisHistory } from "@/generated/prisma/client";
import type { StoredReportParts } from "@/lib/history/repository";
import { logger } from "@/lib/log/logger";
import type { TMarket } from "@/lib/market/symbols";
import { createSignal } from "./create";
import { isDirectional, pricePlanProblem, type PricePlan } from "./lifecycle";
import {
  SIGNAL_MARKET_PHASES,
  type TDecisionSignalCreateRequest,
  type TSignalAction,
  type TSignalMarketPhase,
} from "./schemas";

/** "1450.00（MA5）" / "1450.00 (MA5)" → 1450; null when the level is absent or unreadable. */
export function levelPrice(text: string | null | undefined): number | null {
  if (!text) return null;
  const match = /\d+(?:\.\d+)?/.exec(text.replace(/,/g, ""));
  const value = match ? Number(match[0]) : NaN;
  return Number.isFinite(value) && value > 0 ? value : null;
}

/**
 * The report's plan in the action's terms: a buy or add signal takes the entries, the stop and the target; a
 * hold keeps the stop and the target; a reduce/sell/avoid signal takes the stop above and the target below
 * (rules-v2). A plan that fails the sanity check is left out rather than stored wrong.
 */
export function planFromStrategy(action: TSignalAction, strategy: StoredReportParts["strategy"]): PricePlan {
  const ideal = levelPrice(strategy.ideal_buy);
  const secondary = levelPrice(strategy.secondary_buy);
  const stop = levelPrice(strategy.stop_loss);
  const target = levelPrice(strategy.take_profit);
  let plan: PricePlan = {};
  if (action === "buy" || action === "add")
    plan = { entry_low: secondary ?? ideal, entry_high: ideal ?? secondary, stop_loss: stop, target_price: target };
  if (action === "hold") plan = { stop_loss: stop, target_price: target };
  // rules-v2 short-side plans are in the call's own terms (wrong above the stop, aiming at the support below);
  // an older buy-style plan on a short call fails the check below and is left out.
  if (action === "reduce" || action === "sell" || action === "avoid") plan = { stop_loss: stop, target_price: target };
  return pricePlanProblem(action, plan) ? {} : plan;
}

/** The create request for a stored analysis, or null when its action is not directional (watch, alert, none). */
export function signalRequestFromAnalysis(
  record: AnalysisHistory,
  triggerSource: string,
): TDecisionSignalCreateRequest | null {
  const action = record.action as TSignalAction | null;
  if (!isDirectional(action)) return null;
  const parts = JSON.parse(record.reportJson) as StoredReportParts;
  const phase = (SIGNAL_MARKET_PHASES as readonly string[]).includes(record.analysisPhase ?? "")
    ? (record.analysisPhase as TSignalMarketPhase)
    : null;
  const score = parts.summary.sentiment_score;
  return {
    stock_code: record.stockCode,
    stock_name: record.stockName,
    market: record.market as TMarket,
    source_type: "analysis",
    source_report_id: record.id,
    trace_id: record.traceId ? record.traceId.slice(0, 64) : null,
    market_phase: phase,
    trigger_source: (triggerSource || "analysis").slice(0, 64),
    action,
    action_label: parts.summary.action_label?.slice(0, 64) ?? null,
    score: score === null ? null : Math.max(0, Math.min(100, Math.round(score))),
    ...planFromStrategy(action, parts.strategy),
    reason: parts.summary.analysis_summary?.slice(0, 4000) ?? null,
    status: "active",
    report_language: record.reportLanguage,
    decision_engine_version: record.engineVersion,
    metadata: {
      query_id: record.queryId,
      report_type: record.reportType,
      operation_advice: parts.summary.operation_advice ?? null,
    },
  };
}

/**
 * Every completed analysis with a directional action becomes a signal linked to its history
 * record, through the same create path as the API. Never throws: a failure is logged and the analysis stands.
 */
export async function createSignalFromAnalysis(record: AnalysisHistory, triggerSource: string): Promise<void> {
  try {
    const request = signalRequestFromAnalysis(record, triggerSource);
    if (request) await createSignal(request);
  } catch (error) {
    logger.warn(
      { err: error, trace_id: record.traceId, query_id: record.queryId },
      "decision signal from analysis failed",
    );
  }
}
