import type { Prisma, ReportEvaluation } from "@/generated/prisma/client";
import { now } from "@/lib/clock";
import { db } from "@/lib/db/client";
import type { StoredReportParts } from "@/lib/history/repository";
import { notFound } from "@/lib/errors/api-error";
import { REPORT_EVAL_ENGINE } from "./evaluate";
import { storedCodeOf, type TEvalPhase } from "./run";
import {
  REPORT_EVAL_PHASES,
  type TReportEvalItem,
  type TReportEvalPerformance,
  type TReportEvalPerformanceQuery,
  type TReportEvalResultsQuery,
  type TReportEvalResultsResponse,
} from "./schemas";

// GET /api/v1/backtest/results and /performance[/{code}] (docs/api.md §12.4): the stored rows of
// report-eval-v1, listed and aggregated. Every figure is a count or a plain mean of stored rows.

type Scope = Pick<
  TReportEvalResultsQuery,
  "code" | "eval_window_days" | "analysis_date_from" | "analysis_date_to" | "analysis_phase"
>;

function scopeWhere(scope: Scope): Prisma.ReportEvaluationWhereInput {
  const where: Prisma.ReportEvaluationWhereInput = { engineVersion: REPORT_EVAL_ENGINE };
  if (scope.code) where.stockCode = storedCodeOf(scope.code);
  if (scope.eval_window_days !== undefined) where.evalWindowDays = scope.eval_window_days;
  if (scope.analysis_date_from || scope.analysis_date_to) {
    where.analysisDate = {
      ...(scope.analysis_date_from ? { gte: scope.analysis_date_from } : {}),
      ...(scope.analysis_date_to ? { lte: scope.analysis_date_to } : {}),
    };
  }
  if (scope.analysis_phase) where.analysisPhase = scope.analysis_phase;
  return where;
}

function parts(reportJson: string): StoredReportParts | null {
  try {
    return JSON.parse(reportJson) as StoredReportParts;
  } catch {
    return null;
  }
}

type Row = ReportEvaluation & {
  history: {
    queryId: string;
    stockName: string | null;
    operationAdvice: string | null;
    trendPrediction: string | null;
    marketPhaseSummary: string | null;
    reportJson: string;
  };
};

function toItem(row: Row): TReportEvalItem {
  const summary = parts(row.history.reportJson)?.summary;
  return {
    analysis_history_id: row.analysisHistoryId,
    query_id: row.history.queryId,
    code: row.stockCode,
    stock_name: row.history.stockName,
    analysis_date: row.analysisDate,
    eval_window_days: row.evalWindowDays,
    engine_version: row.engineVersion,
    eval_status: row.evalStatus as TReportEvalItem["eval_status"],
    unable_reason: row.unableReason,
    evaluated_at: row.evaluatedAt.toISOString(),
    operation_advice: row.history.operationAdvice,
    action: row.action,
    action_label: summary?.action_label ?? null,
    trend_prediction: row.history.trendPrediction,
    market_phase: row.analysisPhase as TEvalPhase,
    market_phase_summary: row.history.marketPhaseSummary,
    position_recommendation: row.position as "long" | "cash",
    start_price: row.startPrice,
    end_close: row.endClose,
    max_high: row.maxHigh,
    min_low: row.minLow,
    stock_return_pct: row.stockReturnPct,
    actual_return_pct: row.stockReturnPct,
    actual_movement: row.actualMovement as TReportEvalItem["actual_movement"],
    direction_expected: row.directionExpected as TReportEvalItem["direction_expected"],
    direction_correct: row.directionCorrect,
    outcome: row.outcome as TReportEvalItem["outcome"],
    stop_loss: row.stopLoss,
    take_profit: row.takeProfit,
    hit_stop_loss: row.hitStopLoss,
    hit_take_profit: row.hitTakeProfit,
    first_hit: row.firstHit,
    first_hit_date: row.firstHitDate,
    first_hit_trading_days: row.firstHitTradingDays,
    simulated_entry_price: row.simulatedEntryPrice,
    simulated_exit_price: row.simulatedExitPrice,
    simulated_exit_reason: row.simulatedExitReason,
    simulated_return_pct: row.simulatedReturnPct,
  };
}

const HISTORY_FIELDS = {
  queryId: true,
  stockName: true,
  operationAdvice: true,
  trendPrediction: true,
  marketPhaseSummary: true,
  reportJson: true,
} as const;

export async function listReportBacktestResults(query: TReportEvalResultsQuery): Promise<TReportEvalResultsResponse> {
  const where = scopeWhere(query);
  const [total, rows] = await db().$transaction([
    db().reportEvaluation.count({ where }),
    db().reportEvaluation.findMany({
      where,
      include: { history: { select: HISTORY_FIELDS } },
      orderBy: [{ analysisDate: "desc" }, { id: "desc" }],
      skip: (query.page - 1) * query.limit,
      take: query.limit,
    }),
  ]);
  return { total, page: query.page, limit: query.limit, items: rows.map(toItem) };
}

// ---- performance

const pct = (part: number, whole: number) => (whole > 0 ? (part / whole) * 100 : null);
const mean = (values: readonly number[]) =>
  values.length > 0 ? values.reduce((s, v) => s + v, 0) / values.length : null;
const numbers = (values: readonly (number | null)[]) => values.filter((v): v is number => v !== null);

type PerfRow = Pick<
  ReportEvaluation,
  | "evalStatus"
  | "position"
  | "outcome"
  | "action"
  | "directionExpected"
  | "directionCorrect"
  | "stockReturnPct"
  | "simulatedReturnPct"
  | "stopLoss"
  | "takeProfit"
  | "hitStopLoss"
  | "hitTakeProfit"
  | "firstHit"
  | "firstHitTradingDays"
  | "analysisPhase"
>;

function aggregate(rows: readonly PerfRow[]) {
  const completed = rows.filter((r) => r.evalStatus === "completed");
  const count = (outcome: string, list: readonly PerfRow[] = completed) =>
    list.filter((r) => r.outcome === outcome).length;
  // Inside the neutral band a call is neither right nor wrong: the accuracy counts the graded ones.
  const directional = completed.filter((r) => r.directionCorrect !== null);
  const longs = completed.filter((r) => r.position === "long");
  const withStop = longs.filter((r) => r.stopLoss !== null);
  const withTarget = longs.filter((r) => r.takeProfit !== null);
  const withPlan = longs.filter((r) => r.stopLoss !== null && r.takeProfit !== null);
  const win = count("win");
  const loss = count("loss");
  const advice: TReportEvalPerformance["advice_breakdown"] = {};
  for (const action of [...new Set(completed.map((r) => r.action ?? "none"))].sort()) {
    const list = completed.filter((r) => (r.action ?? "none") === action);
    advice[action] = {
      count: list.length,
      win_count: count("win", list),
      loss_count: count("loss", list),
      neutral_count: count("neutral", list),
      avg_stock_return_pct: mean(numbers(list.map((r) => r.stockReturnPct))),
      avg_simulated_return_pct: mean(numbers(list.map((r) => r.simulatedReturnPct))),
    };
  }
  const phases = Object.fromEntries(
    REPORT_EVAL_PHASES.map((p) => [p, rows.filter((r) => r.analysisPhase === p).length]),
  ) as Record<TEvalPhase, number>;
  return {
    total_evaluations: rows.length,
    completed_count: completed.length,
    insufficient_count: rows.filter((r) => r.evalStatus === "insufficient").length,
    long_count: longs.length,
    cash_count: completed.length - longs.length,
    win_count: win,
    loss_count: loss,
    neutral_count: count("neutral"),
    direction_accuracy_pct: pct(directional.filter((r) => r.directionCorrect === true).length, directional.length),
    win_rate_pct: pct(win, win + loss),
    neutral_rate_pct: pct(count("neutral"), completed.length),
    avg_stock_return_pct: mean(numbers(completed.map((r) => r.stockReturnPct))),
    avg_simulated_return_pct: mean(numbers(completed.map((r) => r.simulatedReturnPct))),
    stop_loss_trigger_rate: pct(withStop.filter((r) => r.hitStopLoss === true).length, withStop.length),
    take_profit_trigger_rate: pct(withTarget.filter((r) => r.hitTakeProfit === true).length, withTarget.length),
    ambiguous_rate: pct(withPlan.filter((r) => r.firstHit === "both_same_day").length, withPlan.length),
    avg_days_to_first_hit: mean(numbers(longs.map((r) => r.firstHitTradingDays))),
    advice_breakdown: advice,
    diagnostics: { phase_breakdown: phases, unable_count: rows.filter((r) => r.evalStatus === "unable").length },
  };
}

/** Overall (no code) or one stock's performance; 404 when nothing is evaluated in the scope (the client shows its empty card). */
export async function reportBacktestPerformance(
  query: TReportEvalPerformanceQuery,
  code?: string,
): Promise<TReportEvalPerformance> {
  const scope: Scope = { ...query, code };
  let window = query.eval_window_days;
  if (window === undefined) {
    const latest = await db().reportEvaluation.findFirst({
      where: scopeWhere(scope),
      orderBy: [{ evaluatedAt: "desc" }, { id: "desc" }],
      select: { evalWindowDays: true },
    });
    if (!latest)
      throw notFound(
        code ? `No evaluated reports for ${code}` : "No evaluated reports yet: run POST /api/v1/backtest/run",
      );
    window = latest.evalWindowDays;
  }
  const rows = await db().reportEvaluation.findMany({
    where: scopeWhere({ ...scope, eval_window_days: window }),
    select: {
      evalStatus: true,
      position: true,
      outcome: true,
      action: true,
      directionExpected: true,
      directionCorrect: true,
      stockReturnPct: true,
      simulatedReturnPct: true,
      stopLoss: true,
      takeProfit: true,
      hitStopLoss: true,
      hitTakeProfit: true,
      firstHit: true,
      firstHitTradingDays: true,
      analysisPhase: true,
    },
  });
  if (rows.length === 0)
    throw notFound(
      code ? `No evaluated reports for ${code} over ${window} days` : `No evaluated reports over ${window} days`,
    );
  return {
    scope: code ? "stock" : "overall",
    code: code ? storedCodeOf(code) : null,
    eval_window_days: window,
    engine_version: REPORT_EVAL_ENGINE,
    computed_at: now().toISOString(),
    ...aggregate(rows),
  };
}
