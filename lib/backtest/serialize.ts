import type { BacktestCall, BacktestRun } from "@/generated/prisma/client";
import type { TDecisionAction } from "@/lib/analysis/engine/schemas";
import {
  ZBacktestOutcome,
  ZBacktestSummary,
  type TBacktestCall,
  type TBacktestRun,
  type TBacktestRunItem,
  type TBacktestSummary,
} from "./schemas";

// Wire records (docs/api.md §11) from stored rows; never a Prisma row on the wire.

type Status = TBacktestRun["status"];

function parseHorizons(text: string): number[] {
  const value: unknown = JSON.parse(text);
  return Array.isArray(value) ? value.filter((h): h is number => Number.isInteger(h)) : [];
}

export function parseSummary(text: string | null): TBacktestSummary | null {
  if (!text) return null;
  return ZBacktestSummary.parse(JSON.parse(text));
}

export function toRunItem(row: BacktestRun): TBacktestRunItem {
  return {
    backtest_id: row.id,
    stock_code: row.stockCode,
    stock_name: row.stockName,
    status: row.status as Status,
    progress: row.progress,
    ...(row.status === "failed" ? { error: row.error ?? "backtest failed" } : {}),
    engine_version: row.engineVersion,
    data_source: row.dataSource,
    start_date: row.startDate ?? row.requestedStart,
    end_date: row.endDate ?? row.requestedEnd,
    horizons: parseHorizons(row.horizons),
    step: row.step,
    neutral_band_pct: row.neutralBandPct,
    calls_total: row.callsTotal,
    last_bar_date: row.lastBarDate,
    created_at: row.createdAt.toISOString(),
    ...(row.completedAt ? { completed_at: row.completedAt.toISOString() } : {}),
  };
}

export function toRun(row: BacktestRun): TBacktestRun {
  const summary = row.status === "completed" ? parseSummary(row.summary) : null;
  return { ...toRunItem(row), ...(summary ? { summary } : {}) };
}

export function toCall(row: BacktestCall): TBacktestCall {
  return {
    date: row.date,
    close: row.close,
    action: row.action as TDecisionAction,
    score: row.score,
    ideal_buy: row.idealBuy,
    stop_loss: row.stopLoss,
    take_profit: row.takeProfit,
    outcomes: ZBacktestOutcome.array().parse(JSON.parse(row.outcomes)),
  };
}
