import type { TDailyBar } from "@/lib/market";
import { judgeCalls, type JudgedCall } from "./judge";
import { replayCalls, type ReplayOptions } from "./replay";
import type { TBacktestSummary } from "./schemas";
import { summarize, type EquityPoint } from "./summary";

export interface BacktestParams extends ReplayOptions {
  horizons: readonly number[];
  neutralBandPct: number;
}

export interface BacktestResult {
  calls: JudgedCall[];
  summary: TBacktestSummary;
  curve: EquityPoint[];
}

/** The whole backtest of one bar series (oldest first): replay, judge, summarise. Reads no data of its own. */
export async function backtestBars(bars: readonly TDailyBar[], params: BacktestParams): Promise<BacktestResult> {
  const replayed = await replayCalls(bars, params);
  const calls = judgeCalls(replayed, bars, params.horizons, params.neutralBandPct);
  const { summary, curve } = summarize(calls, bars, params.horizons);
  return { calls, summary, curve };
}
