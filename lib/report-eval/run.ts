import type { AnalysisHistory, Prisma } from "@/generated/prisma/client";
import { now } from "@/lib/clock";
import { db } from "@/lib/db/client";
import type { StoredReportParts } from "@/lib/history/repository";
import { symbolKey } from "@/lib/market";
import { barsSince } from "@/lib/market/bars/bars-since";
import { lastClosedTradingDay, localParts, MARKET_TIME_ZONE } from "@/lib/market/market-time";
import { isRejection, resolveToken, type TMarket } from "@/lib/market/symbols";
import { MARKET_REVIEW_REPORT_TYPE } from "@/lib/market-review/run";
import { isDirectional } from "@/lib/signals/lifecycle";
import { planFromStrategy } from "@/lib/signals/from-analysis";
import type { TSignalAction } from "@/lib/signals/schemas";
import { marketSymbolOf } from "@/lib/signals/target";
import { evaluateReport, REPORT_EVAL_ENGINE, type ReportFacts } from "./evaluate";
import { REPORT_EVAL_PHASES, type TReportEvalRunRequest, type TReportEvalRunResponse } from "./schemas";

// POST /api/v1/backtest/run (docs/api.md §12.4): evaluates stored stock reports over the trading days that
// followed their price date. Rows are keyed by (report, window, engine version): a completed row, or an
// unable one more data cannot fix, is left alone unless `force`; "insufficient" rows are retried.

const MARKETS: readonly TMarket[] = ["cn", "hk", "us"];
const DAY_MS = 86_400_000;

export type TEvalPhase = (typeof REPORT_EVAL_PHASES)[number];

export function phaseOf(recorded: string | null): TEvalPhase {
  return (REPORT_EVAL_PHASES as readonly string[]).includes(recorded ?? "") ? (recorded as TEvalPhase) : "unknown";
}

/** The stored code a request's code names (600519.SH and sh600519 are 600519). */
export function storedCodeOf(raw: string): string {
  const resolved = resolveToken(raw.trim());
  return isRejection(resolved) ? raw.trim().toUpperCase() : resolved.code;
}

function parseJson<T>(text: string | null): T | null {
  if (!text) return null;
  try {
    return JSON.parse(text) as T;
  } catch {
    return null;
  }
}

/** The close the report's price belongs to: the stored as-of date, else the last session closed when it was written. */
function anchorDateOf(record: AnalysisHistory): string {
  const snapshot = parseJson<{ as_of?: { date?: unknown } }>(record.contextSnapshot);
  const date = snapshot?.as_of?.date;
  return typeof date === "string" && /^\d{4}-\d{2}-\d{2}$/.test(date)
    ? date
    : lastClosedTradingDay(record.market as TMarket, record.createdAt);
}

function factsOf(record: AnalysisHistory): ReportFacts {
  const action = (record.action as TSignalAction | null) ?? null;
  const parts = parseJson<StoredReportParts>(record.reportJson);
  const plan = action && isDirectional(action) && parts ? planFromStrategy(action, parts.strategy) : {};
  return {
    action,
    anchorDate: anchorDateOf(record),
    stopLoss: plan.stop_loss ?? null,
    takeProfit: plan.target_price ?? null,
    source: parts?.details.data_quality?.source ?? null,
  };
}

function candidateFilter(request: TReportEvalRunRequest): Prisma.AnalysisHistoryWhereInput {
  const where: Prisma.AnalysisHistoryWhereInput = {
    reportType: { not: MARKET_REVIEW_REPORT_TYPE },
    market: { in: [...MARKETS] },
    createdAt: { lte: new Date(now().getTime() - request.min_age_days * DAY_MS) },
  };
  if (request.code) where.stockCode = storedCodeOf(request.code);
  if (!request.force) {
    where.evaluations = {
      none: {
        evalWindowDays: request.eval_window_days,
        engineVersion: REPORT_EVAL_ENGINE,
        OR: [{ evalStatus: "completed" }, { retryable: false }],
      },
    };
  }
  return where;
}

export async function runReportBacktest(request: TReportEvalRunRequest): Promise<TReportEvalRunResponse> {
  const window = request.eval_window_days;
  const records = await db().analysisHistory.findMany({
    where: candidateFilter(request),
    orderBy: { id: "asc" },
    take: request.limit,
  });
  const items = records.map((record) => ({ record, facts: factsOf(record) }));
  const symbolOf = (record: AnalysisHistory) =>
    marketSymbolOf({ stockCode: record.stockCode, market: record.market, assetType: record.assetType ?? "stock" });
  const bars = await barsSince(
    items.map(({ record, facts }) => ({ symbol: symbolOf(record), from: facts.anchorDate })),
    "report backtest",
    window,
  );
  const at = now();
  const counts = { processed: records.length, saved: 0, completed: 0, insufficient: 0, errors: 0 };
  const writes = items.map(({ record, facts }) => {
    const e = evaluateReport(facts, bars.get(symbolKey(symbolOf(record))) ?? [], window);
    if (e.evalStatus === "completed") counts.completed += 1;
    else if (e.evalStatus === "insufficient") counts.insufficient += 1;
    else counts.errors += 1;
    const data = {
      evalStatus: e.evalStatus,
      retryable: e.evalStatus === "insufficient" || e.retryable,
      unableReason: e.unableReason,
      stockCode: record.stockCode,
      analysisDate: localParts(record.createdAt, MARKET_TIME_ZONE[record.market as TMarket]).date,
      analysisPhase: phaseOf(record.analysisPhase),
      action: facts.action,
      directionExpected: e.directionExpected,
      position: e.position,
      anchorDate: e.anchorDate,
      startPrice: e.startPrice,
      endDate: e.endDate,
      endClose: e.endClose,
      maxHigh: e.maxHigh,
      minLow: e.minLow,
      stockReturnPct: e.stockReturnPct,
      actualMovement: e.actualMovement,
      directionCorrect: e.directionCorrect,
      outcome: e.outcome,
      stopLoss: e.stopLoss,
      takeProfit: e.takeProfit,
      hitStopLoss: e.hitStopLoss,
      hitTakeProfit: e.hitTakeProfit,
      firstHit: e.firstHit,
      firstHitDate: e.firstHitDate,
      firstHitTradingDays: e.firstHitTradingDays,
      simulatedEntryPrice: e.simulatedEntryPrice,
      simulatedExitPrice: e.simulatedExitPrice,
      simulatedExitReason: e.simulatedExitReason,
      simulatedReturnPct: e.simulatedReturnPct,
      evaluatedAt: at,
    };
    const key = { analysisHistoryId: record.id, evalWindowDays: window, engineVersion: REPORT_EVAL_ENGINE };
    return db().reportEvaluation.upsert({
      where: { analysisHistoryId_evalWindowDays_engineVersion: key },
      create: { ...key, ...data },
      update: data,
    });
  });
  // One transaction: a run's rows land together, and a concurrent run's upserts on the same keys serialise.
  if (writes.length > 0) counts.saved = (await db().$transaction(writes)).length;
  return counts;
}
