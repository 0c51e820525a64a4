import type { AnalysisHistory } from "@/generated/prisma/client";
import { db } from "@/lib/db/client";
import { ApiError } from "@/lib/errors/api-error";
import { toAnalysisReport } from "@/lib/history/report";
import type { TAnalysisReport } from "@/lib/history/schemas";
import { at, strAt } from "@/lib/history/stored-json";
import { lastClosedTradingDay } from "@/lib/market/market-time";
import type { TMarket } from "@/lib/market/symbols";
import { signalNow } from "./clock";
import { createSignal } from "./create";
import { levelPrice, planFromStrategy } from "./from-analysis";
import { defaultHorizon, type PricePlan } from "./lifecycle";
import { applyProfileGate, PROFILE_POLICY_VERSION, type GateInput } from "./profile-gate";
import {
  CONFIDENCE_LEVELS,
  type TReassessMetadata,
  type TReassessPreview,
  type TReassessRequest,
  type TReassessResponse,
  type TReassessWarning,
} from "./reassess-schemas";
import {
  SIGNAL_MARKET_PHASES,
  ZSignalAction,
  type TDecisionProfile,
  type TSignalAction,
  type TSignalMarketPhase,
} from "./schemas";

const BLOCKED_REASON = "actionable_signal_blocked_by_guardrail";
const TRIGGER = "decision_profile_reassess";

const MESSAGES = {
  zh: {
    adjusted: (raw: string, final: string) => `按所选风格，${raw} 降为 ${final}`,
    blocked: (violations: string[]) =>
      `报告缺少按此风格行动所需的条件（${violations.join("、")}），不会保存为可执行信号`,
    stale: (last: string, closed: string) => `报告的最后一根K线是 ${last}，此后已收盘到 ${closed}：计划价位可能已过时`,
  },
  en: {
    adjusted: (raw: string, final: string) => `Under this profile ${raw} becomes ${final}`,
    blocked: (violations: string[]) =>
      `The report lacks what acting under this profile needs (${violations.join(", ")}); it is not stored as an actionable signal`,
    stale: (last: string, closed: string) =>
      `The report's last bar is ${last} and sessions have closed since, up to ${closed}: its price levels may be out of date`,
  },
} as const;

/**
 * POST /api/v1/decision-signals/reassess (CONTRACT §14.3, docs/api.md §4.6): the stored report's call under a decision
 * profile. The call is read, never recomputed: the profile gate can only hold a buy or add back (watch or alert).
 * persist stores the result through the ordinary create (deduplicated per report, action and profile); a gate that
 * fails refuses the persist with 400 guardrail_blocked and stores nothing.
 */
export async function reassessSignal(request: TReassessRequest): Promise<TReassessResponse> {
  const record = await db().analysisHistory.findUnique({ where: { id: request.source_report_id } });
  if (!record) throw ApiError.of("source_report_not_found", `No stored report has id ${request.source_report_id}`);
  if (record.reportType === "market_review")
    throw ApiError.of("unsupported_report_type", "A market review has no call on one stock to reassess");
  const report = toAnalysisReport(record);
  const action = ZSignalAction.safeParse(report.summary.action);
  if (!action.success)
    throw ApiError.of("unsupported_report_snapshot", "The stored report carries no structured action");

  const { preview, warnings, passed } = previewOf(record, report, action.data, request.decision_profile);
  if (!request.persist)
    return { preview, item: null, created: false, warnings, blocked_reason: passed ? null : BLOCKED_REASON };
  if (!passed)
    throw ApiError.of("guardrail_blocked", "The profile gate refused this report's call; nothing was stored", {
      blocked_reason: BLOCKED_REASON,
      warnings,
    });
  const { item, created } = await createSignal({
    stock_code: record.stockCode,
    stock_name: record.stockName,
    market: record.market as TMarket,
    source_type: "analysis",
    source_agent: TRIGGER,
    source_report_id: record.id,
    trace_id: record.traceId ? record.traceId.slice(0, 64) : null,
    market_phase: preview.market_phase,
    trigger_source: TRIGGER,
    decision_profile: request.decision_profile,
    action: preview.action,
    action_label: report.summary.action_label?.slice(0, 64) ?? null,
    score: preview.score,
    horizon: preview.horizon,
    entry_low: preview.entry_low,
    entry_high: preview.entry_high,
    stop_loss: preview.stop_loss,
    target_price: preview.target_price,
    invalidation: preview.invalidation,
    watch_conditions: preview.watch_conditions,
    reason: preview.reason,
    risk_summary: preview.risk_summary,
    status: "active",
    report_language: record.reportLanguage,
    decision_engine_version: record.engineVersion,
    metadata: preview.metadata,
  });
  return { preview, item, created, warnings, blocked_reason: null };
}

/** A buy or add keeps its raw levels (so the gate sees contradicting prices); other actions the plan a signal would store. */
function planOf(action: TSignalAction, strategy: TAnalysisReport["strategy"]): PricePlan {
  if (action !== "buy" && action !== "add") return planFromStrategy(action, strategy);
  const entries = [levelPrice(strategy.ideal_buy), levelPrice(strategy.secondary_buy)].filter((p) => p !== null);
  return {
    entry_low: entries.length ? Math.min(...entries) : null,
    entry_high: entries.length ? Math.max(...entries) : null,
    stop_loss: levelPrice(strategy.stop_loss),
    target_price: levelPrice(strategy.take_profit),
  };
}

/** The confidence the report stated: the LLM report's when it wrote the call, else the rule dashboard's. */
function confidenceOf(report: TAnalysisReport): GateInput["confidence"] {
  const raw = report.details.raw_result;
  const stated =
    strAt(raw, "engine") === "llm"
      ? strAt(raw, "llm_report", "core_conclusion", "confidence")
      : strAt(raw, "dashboard", "core_conclusion", "confidence");
  return (CONFIDENCE_LEVELS as readonly string[]).includes(stated ?? "") ? (stated as GateInput["confidence"]) : null;
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string" && v.trim() !== "") : [];
}

function joined(items: string[], language: "zh" | "en"): string | null {
  return items.length ? items.join(language === "zh" ? "；" : "; ").slice(0, 4000) : null;
}

function previewOf(
  record: AnalysisHistory,
  report: TAnalysisReport,
  action: TSignalAction,
  profile: TDecisionProfile,
): { preview: TReassessPreview; warnings: TReassessWarning[]; passed: boolean } {
  const language = report.meta.report_language;
  const words = MESSAGES[language];
  const quality = report.details.data_quality;
  const plan = planOf(action, report.strategy);
  const confidence = confidenceOf(report);
  const guardrail = applyProfileGate({
    action,
    profile,
    dataQuality: quality?.level ?? "unknown",
    confidence,
    plan,
  });
  const phase = (SIGNAL_MARKET_PHASES as readonly string[]).includes(record.analysisPhase ?? "")
    ? (record.analysisPhase as TSignalMarketPhase)
    : null;
  const score = report.summary.sentiment_score;
  const intScore = score === null ? null : Math.max(0, Math.min(100, Math.round(score)));
  const factors = at(report.details.raw_result, "score_breakdown");
  const metadata: TReassessMetadata = {
    decision_profile: profile,
    profile_source: "user_selected",
    profile_policy_version: PROFILE_POLICY_VERSION,
    source_engine_version: record.engineVersion,
    data_quality_level: quality?.level ?? "unknown",
    confidence_level: confidence,
    scoring_breakdown: {
      score: intScore,
      raw_action: action,
      final_action: guardrail.final_action,
      factors: Array.isArray(factors) ? factors : [],
    },
    guardrail_result: guardrail,
  };
  const structured = report.structured_report;
  const preview: TReassessPreview = {
    action: guardrail.final_action,
    score: intScore,
    confidence: null,
    horizon: defaultHorizon(guardrail.final_action, phase),
    market_phase: phase,
    entry_low: plan.entry_low ?? null,
    entry_high: plan.entry_high ?? null,
    stop_loss: plan.stop_loss ?? null,
    target_price: plan.target_price ?? null,
    invalidation: joined(structured?.invalidation_conditions ?? [], language),
    reason: report.summary.analysis_summary?.slice(0, 4000) ?? null,
    risk_summary: joined(strings(at(report.details.raw_result, "dashboard", "risk_warnings")), language),
    watch_conditions: joined(structured?.next_actions ?? [], language),
    metadata,
  };
  const warnings: TReassessWarning[] = [];
  if (guardrail.adjusted) {
    const params = { raw_action: guardrail.raw_action, final_action: guardrail.final_action };
    warnings.push({
      code: "action_adjusted_by_guardrail",
      params,
      message: words.adjusted(params.raw_action, params.final_action),
    });
  }
  if (!guardrail.passed)
    warnings.push({
      code: "action_blocked_by_guardrail",
      params: {
        raw_action: guardrail.raw_action,
        final_action: guardrail.final_action,
        violations: guardrail.violations,
      },
      message: words.blocked(guardrail.violations),
    });
  const lastBar = quality?.last_bar_date ?? null;
  const closed = lastClosedTradingDay(record.market as TMarket, signalNow());
  if (lastBar && lastBar < closed)
    warnings.push({
      code: "stale_source_report",
      params: { last_bar_date: lastBar, last_closed_session: closed },
      message: words.stale(lastBar, closed),
    });
  return { preview, warnings, passed: guardrail.passed };
}
