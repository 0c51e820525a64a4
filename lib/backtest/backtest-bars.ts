import type { TDailyBar } from "@/lib/market";
import type { TMarket } from "@/lib/market/symbols";
import { judgeCalls, type JudgedCall } from "./judge";
import { replayCalls } from "./replay";
import type { TBacktestSummary } from "./schemas";
import { summarize, type EquityPoint } from "./summary";

export interface BacktestParams {
  market: TMarket;
  code?: string | null;
  kind?: "stock" | "index";
  isSample: boolean;
  startDate?: string | null;
  endDate?: string | null;
  step: number;
  horizons: readonly number[];
  neutralBandPct: number;
  signal?: AbortSignal;
  onProgress?: (done: number) => void;
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
