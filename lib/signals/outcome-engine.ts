import type { TDailyBar } from "@/lib/market";
import { sourceFamily } from "@/lib/market/source-family";
import { expectedDirection } from "./lifecycle";
import type { TDirection, TFirstHit, TSignalAction } from "./schemas";

// The outcome engine (spec 3.3, docs/api.md §4): how a signal fared over N trading days of realized daily
// bars after its anchor close. Pure: the caller supplies the bars.

export const ENGINE_VERSION = "decision-signal-v1";
/** Returns within ±2 % are neither a clear hit nor a clear miss for "up" and "not_down". */
export const NEUTRAL_BAND_PCT = 2;
/** Unable reasons a later run recomputes: the market data may arrive. Others (non_directional_action) are final. */
export const RETRYABLE_REASONS = [
  "missing_anchor_price",
  "insufficient_forward_bars",
  "missing_end_close",
  // The call's own source may cover the window later (a longer file).
  "bars_from_other_source",
] as const;

export interface OutcomeSignal {
  action: TSignalAction;
  entryLow: number | null;
  entryHigh: number | null;
  stopLoss: number | null;
  targetPrice: number | null;
  /** The provider of the prices the call was made from; bars of another source family are not graded (null: any). */
  source?: string | null;
}

export interface OutcomeEvaluation {
  evalStatus: "completed" | "unable";
  retryable: boolean;
  unableReason: string | null;
  outcome: "hit" | "miss" | "neutral" | null;
  directionExpected: TDirection | null;
  directionCorrect: boolean | null;
  anchorDate: string | null;
  evalWindowDays: number;
  startPrice: number | null;
  endDate: string | null;
  endClose: number | null;
  maxHigh: number | null;
  minLow: number | null;
  stockReturnPct: number | null;
  maxFavorableExcursionPct: number | null;
  maxAdverseExcursionPct: number | null;
  entryReachable: boolean | null;
  firstHit: TFirstHit | null;
  firstHitDate: string | null;
}

function blank(windowDays: number, direction: TDirection | null): OutcomeEvaluation {
  return {
    evalStatus: "unable",
    retryable: false,
    unableReason: null,
    outcome: null,
    directionExpected: direction,
    directionCorrect: null,
    anchorDate: null,
    evalWindowDays: windowDays,
    startPrice: null,
    endDate: null,
    endClose: null,
    maxHigh: null,
    minLow: null,
    stockReturnPct: null,
    maxFavorableExcursionPct: null,
    maxAdverseExcursionPct: null,
    entryReachable: null,
    firstHit: null,
    firstHitDate: null,
  };
}

function unable(base: OutcomeEvaluation, reason: string): OutcomeEvaluation {
  return {
    ...base,
    evalStatus: "unable",
    unableReason: reason,
    retryable: (RETRYABLE_REASONS as readonly string[]).includes(reason),
  };
}

/**
 * docs/api.md §4: up hits at ≥ +band and misses at ≤ −band; not_down hits at ≥ 0 and misses at ≤ −band; not_up
 * hits at ≤ +band. The band is 2 % for stored signals; a backtest request may choose its own (docs/api.md §11).
 */
export function classifyReturn(
  direction: TDirection,
  returnPct: number,
  bandPct: number = NEUTRAL_BAND_PCT,
): "hit" | "miss" | "neutral" {
  if (direction === "up") return returnPct >= bandPct ? "hit" : returnPct <= -bandPct ? "miss" : "neutral";
  if (direction === "not_down") return returnPct >= 0 ? "hit" : returnPct <= -bandPct ? "miss" : "neutral";
  return returnPct <= bandPct ? "hit" : "miss";
}

/** Close-to-close return in percent, the one formula of every outcome (signals and backtests). */
export function closeReturnPct(startClose: number, endClose: number): number {
  return (endClose / startClose - 1) * 100;
}

/** The sign of the move agrees with the expectation (up: > 0, not_down: ≥ 0, not_up: ≤ 0). */
export function directionAgrees(direction: TDirection, returnPct: number): boolean {
  if (direction === "up") return returnPct > 0;
  if (direction === "not_down") return returnPct >= 0;
  return returnPct <= 0;
}

function firstTouch(
  signal: OutcomeSignal,
  long: boolean,
  window: readonly TDailyBar[],
): { hit: TFirstHit | null; date: string | null } {
  const { stopLoss: stop, targetPrice: target } = signal;
  if (stop === null && target === null) return { hit: null, date: null };
  for (const bar of window) {
    const stopHit = stop !== null && (long ? bar.low <= stop : bar.high >= stop);
    const targetHit = target !== null && (long ? bar.high >= target : bar.low <= target);
    // Daily bars cannot tell which came first within one day.
    if (stopHit && targetHit) return { hit: "both_same_day", date: bar.date };
    if (stopHit) return { hit: "stop", date: bar.date };
    if (targetHit) return { hit: "target", date: bar.date };
  }
  return { hit: "none", date: null };
}

/**
 * Evaluates one signal over `windowDays` trading days. `anchorDate` is the last session closed when the signal
 * was created; the anchor bar is the newest bar on or before it (its close is start_price) and the window is
 * the `windowDays` bars after it. Bars are oldest first.
 */
export function evaluateOutcome(
  signal: OutcomeSignal,
  bars: readonly TDailyBar[],
  anchorDate: string,
  windowDays: number,
  neutralBandPct: number = NEUTRAL_BAND_PCT,
): OutcomeEvaluation {
  const direction = expectedDirection(signal.action);
  const base = blank(windowDays, direction);
  if (direction === null) return unable(base, "non_directional_action");

  let anchorIndex = -1;
  for (let i = bars.length - 1; i >= 0; i -= 1) {
    if (bars[i]!.date <= anchorDate) {
      anchorIndex = i;
      break;
    }
  }
  const anchor = anchorIndex >= 0 ? bars[anchorIndex]! : null;
  if (!anchor || !(anchor.close > 0)) return unable(base, "missing_anchor_price");
  const family = sourceFamily(signal.source);
  if (family && bars.slice(anchorIndex, anchorIndex + 1 + windowDays).some((b) => sourceFamily(b.source) !== family))
    return unable(base, "bars_from_other_source");
  const start = anchor.close;
  const withAnchor = { ...base, anchorDate: anchor.date, startPrice: start };
  const window = bars.slice(anchorIndex + 1, anchorIndex + 1 + windowDays);
  if (window.length < windowDays) return unable(withAnchor, "insufficient_forward_bars");
  const last = window.at(-1)!;
  if (!(last.close > 0)) return unable({ ...withAnchor, endDate: last.date }, "missing_end_close");

  const end = last.close;
  const maxHigh = Math.max(...window.map((b) => b.high));
  const minLow = Math.min(...window.map((b) => b.low));
  const returnPct = closeReturnPct(start, end);
  const long = direction !== "not_up";
  const favourable = long ? (maxHigh / start - 1) * 100 : (1 - minLow / start) * 100;
  const adverse = long ? (minLow / start - 1) * 100 : (1 - maxHigh / start) * 100;
  const entryLo = signal.entryLow ?? signal.entryHigh;
  const entryHi = signal.entryHigh ?? signal.entryLow;
  const entryReachable =
    entryLo === null || entryHi === null ? null : window.some((b) => b.low <= entryHi && b.high >= entryLo);
  const touch = firstTouch(signal, long, window);
  return {
    ...withAnchor,
    evalStatus: "completed",
    retryable: false,
    unableReason: null,
    outcome: classifyReturn(direction, returnPct, neutralBandPct),
    directionCorrect: directionAgrees(direction, returnPct),
    endDate: last.date,
    endClose: end,
    maxHigh,
    minLow,
    stockReturnPct: returnPct,
    maxFavorableExcursionPct: favourable,
    maxAdverseExcursionPct: adverse,
    entryReachable,
    firstHit: touch.hit,
    firstHitDate: touch.date,
  };
}
