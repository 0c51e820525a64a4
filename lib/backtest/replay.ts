import { ANALYSIS_WINDOW_BARS, decideAtClose } from "@/lib/analysis/engine";
import type { TDecisionAction } from "@/lib/analysis/engine/schemas";
import type { TDailyBar } from "@/lib/market";
import type { TMarket } from "@/lib/market/symbols";

// The walk-forward replay (docs/api.md §11): on every step-th trading day d the rule engine
// decides from the bars dated ≤ d only — the same window an analysis on the evening of d would read. Pure:
// the caller supplies the bars once and this slices them.

/** The trend factor needs MA20; without it the engine gives no score, so no call is made before it. */
export const MIN_BARS_FOR_SCORE = 20;
/** Control goes back to the event loop this often, so a long run never blocks the server's requests. */
const YIELD_EVERY_CALLS = 50;

export interface ReplayCall {
  /** Index of the call's bar in the series. */
  index: number;
  date: string;
  close: number;
  action: TDecisionAction;
  score: number | null;
  ideal_buy: number | null;
  stop_loss: number | null;
  take_profit: number | null;
}

export interface ReplayOptions {
  market: TMarket;
  isSample: boolean;
  startDate?: string | null;
  endDate?: string | null;
  step: number;
  signal?: AbortSignal;
  /** Share of the calls made so far, 0–1. */
  onProgress?: (done: number) => void;
}

/** Indices of the bars a call is made on: every step-th trading day from the first eligible one. */
export function callIndices(
  bars: readonly TDailyBar[],
  startDate: string | null | undefined,
  endDate: string | null | undefined,
  step: number,
): number[] {
  const out: number[] = [];
  let first = MIN_BARS_FOR_SCORE - 1;
  while (first < bars.length && startDate && bars[first]!.date < startDate) first += 1;
  for (let i = first; i < bars.length; i += step) {
    if (endDate && bars[i]!.date > endDate) break;
    out.push(i);
  }
  return out;
}

export function decideOn(bars: readonly TDailyBar[], index: number, market: TMarket, isSample: boolean): ReplayCall {
  const window = bars.slice(Math.max(0, index + 1 - ANALYSIS_WINDOW_BARS), index + 1);
  const { decision } = decideAtClose(window, market, isSample);
  const bar = bars[index]!;
  return {
    index,
    date: bar.date,
    close: bar.close,
    action: decision.action,
    score: decision.score,
    ideal_buy: decision.plan.ideal_buy?.price ?? null,
    stop_loss: decision.plan.stop_loss?.price ?? null,
    take_profit: decision.plan.take_profit?.price ?? null,
  };
}

export async function replayCalls(bars: readonly TDailyBar[], options: ReplayOptions): Promise<ReplayCall[]> {
  const indices = callIndices(bars, options.startDate, options.endDate, options.step);
  const calls: ReplayCall[] = [];
  for (let k = 0; k < indices.length; k += 1) {
    if (k % YIELD_EVERY_CALLS === 0 && k > 0) {
      options.onProgress?.(k / indices.length);
      await new Promise((resolve) => setImmediate(resolve));
      if (options.signal?.aborted) throw options.signal.reason ?? new Error("backtest aborted");
    }
    calls.push(decideOn(bars, indices[k]!, options.market, options.isSample));
  }
  options.onProgress?.(1);
  return calls;
}
