import { median } from "simple-statistics";
import { DECISION_ACTIONS, type TDecisionAction } from "@/lib/analysis/engine/schemas";
import type { TDailyBar } from "@/lib/market";
import {
  independentMean,
  neweyWestLags,
  neweyWestMean,
  neweyWestMeanDifference,
  nonOverlapping,
  ranks,
  spearman,
} from "@/lib/evidence/robust-stats";
import type { JudgedCall } from "./judge";
import type {
  TActionStats,
  TRobustRow,
  TRobustSummary,
  TBacktestSummary,
  TEquitySummary,
  THorizonSummary,
  TSeriesPoint,
  TSideStats,
} from "./schemas";

// The summary of docs/api.md §11: per horizon, per action and per side; and the equity of "long after a
// long-side call, flat otherwise" against buy-and-hold over the span of the calls.

export const LONG_SIDE: readonly TDecisionAction[] = ["buy", "add"];
export const SHORT_SIDE: readonly TDecisionAction[] = ["reduce", "sell", "avoid"];

interface Sample {
  returnPct: number;
  outcome: "hit" | "miss" | "neutral" | null;
}

function mean(values: readonly number[]): number | null {
  return values.length === 0 ? null : values.reduce((s, v) => s + v, 0) / values.length;
}

function stats(samples: readonly Sample[]): TSideStats {
  const returns = samples.map((s) => s.returnPct);
  const hit = samples.filter((s) => s.outcome === "hit").length;
  const miss = samples.filter((s) => s.outcome === "miss").length;
  const neutral = samples.filter((s) => s.outcome === "neutral").length;
  return {
    count: samples.length,
    hit,
    miss,
    neutral,
    hit_rate_pct: hit + miss === 0 ? null : (hit / (hit + miss)) * 100,
    mean_return_pct: mean(returns),
    median_return_pct: returns.length === 0 ? null : median(returns),
  };
}

type Known = Sample & { action: TDecisionAction; index: number; score: number | null };

/** One group's excess over the run's other calls, with the Newey-West and the non-overlapping intervals. */
function robustRow(
  group: string,
  known: readonly Known[],
  inGroup: (k: Known) => boolean,
  horizon: number,
  lags: number,
): TRobustRow {
  const flags = known.map(inGroup);
  const mine = known.filter((_, i) => flags[i]);
  const others = known.filter((_, i) => !flags[i]);
  const nw = neweyWestMeanDifference(
    known.map((k) => k.returnPct),
    flags,
    lags,
  );
  const otherMean = mean(others.map((k) => k.returnPct));
  const kept = new Set(
    nonOverlapping(
      mine.map((k) => k.index),
      horizon,
    ),
  );
  const independent = mine.filter((k) => kept.has(k.index));
  const plain = otherMean === null ? null : independentMean(independent.map((k) => k.returnPct - otherMean));
  return {
    group,
    count: mine.length,
    independent: independent.length,
    excess_pct: nw?.estimate ?? null,
    nw_low_pct: nw?.low ?? null,
    nw_high_pct: nw?.high ?? null,
    nw_t: nw?.t ?? null,
    nonoverlap_low_pct: plain?.low ?? null,
    nonoverlap_high_pct: plain?.high ?? null,
  };
}

/** Spearman's correlation of score and forward return, its t from the Newey-West mean of the rank products. */
function scoreRank(known: readonly Known[], lags: number): TRobustSummary["score_rank"] {
  const scored = known.filter((k) => k.score !== null);
  const rho = spearman(
    scored.map((k) => k.score!),
    scored.map((k) => k.returnPct),
  );
  if (rho === null) return null;
  const rx = ranks(scored.map((k) => k.score!));
  const ry = ranks(scored.map((k) => k.returnPct));
  const n = scored.length;
  const centre = (n + 1) / 2;
  const sx = Math.sqrt(rx.reduce((s, r) => s + (r - centre) ** 2, 0) / n);
  const sy = Math.sqrt(ry.reduce((s, r) => s + (r - centre) ** 2, 0) / n);
  const products = rx.map((r, i) => ((r - centre) * (ry[i]! - centre)) / (sx * sy));
  return { count: n, rho, nw_t: neweyWestMean(products, lags)?.t ?? null };
}

function robustSummary(known: readonly Known[], horizon: number): TRobustSummary {
  const lags = neweyWestLags(horizon);
  const rows: TRobustRow[] = [];
  for (const action of DECISION_ACTIONS)
    if (known.some((k) => k.action === action))
      rows.push(robustRow(action, known, (k) => k.action === action, horizon, lags));
  rows.push(robustRow("long_side", known, (k) => LONG_SIDE.includes(k.action), horizon, lags));
  rows.push(robustRow("short_side", known, (k) => SHORT_SIDE.includes(k.action), horizon, lags));
  return { lags, rows, score_rank: scoreRank(known, lags) };
}

function horizonSummary(calls: readonly JudgedCall[], horizon: number): THorizonSummary {
  const known: Known[] = [];
  for (const call of calls) {
    const o = call.outcomes.find((x) => x.horizon === horizon);
    if (o?.return_pct === null || o?.return_pct === undefined) continue;
    known.push({
      action: call.action,
      returnPct: o.return_pct,
      outcome: o.outcome,
      index: call.index,
      score: call.score,
    });
  }
  const byAction: TActionStats[] = [];
  for (const action of DECISION_ACTIONS) {
    const samples = known.filter((s) => s.action === action);
    if (samples.length > 0) byAction.push({ action, ...stats(samples) });
  }
  return {
    horizon,
    all: { count: known.length, mean_return_pct: mean(known.map((s) => s.returnPct)) },
    by_action: byAction,
    long_side: stats(known.filter((s) => LONG_SIDE.includes(s.action))),
    short_side: stats(known.filter((s) => SHORT_SIDE.includes(s.action))),
    robust: robustSummary(known, horizon),
  };
}

export interface EquityPoint {
  index: number;
  strategy: number;
  buyHold: number;
}

/**
 * Daily equity from the first call's close to the last call's close (both start at 1): the strategy holds
 * the stock from the close of a long-side call until the close of the next call that is not long-side.
 * No costs. Between calls it keeps the last call's position, so a step above 1 holds for the whole step.
 */
export function equityCurve(calls: readonly JudgedCall[], bars: readonly TDailyBar[]): EquityPoint[] {
  if (calls.length === 0) return [];
  const first = calls[0]!.index;
  const last = calls.at(-1)!.index;
  const out: EquityPoint[] = [{ index: first, strategy: 1, buyHold: 1 }];
  let strategy = 1;
  let long = false;
  let next = 0;
  for (let i = first; i < last; i += 1) {
    // The position held over (i, i+1] is the one the newest call on or before day i set.
    while (next < calls.length && calls[next]!.index <= i) {
      long = LONG_SIDE.includes(calls[next]!.action);
      next += 1;
    }
    const move = bars[i + 1]!.close / bars[i]!.close;
    if (long) strategy *= move;
    out.push({ index: i + 1, strategy, buyHold: bars[i + 1]!.close / bars[first]!.close });
  }
  return out;
}

function maxDrawdownPct(values: readonly number[]): number {
  let peak = -Infinity;
  let worst = 0;
  for (const v of values) {
    peak = Math.max(peak, v);
    worst = Math.min(worst, (v / peak - 1) * 100);
  }
  return worst;
}

export function equitySummary(calls: readonly JudgedCall[], curve: readonly EquityPoint[]): TEquitySummary | null {
  if (calls.length === 0 || curve.length === 0) return null;
  const end = curve.at(-1)!;
  const longCalls = calls.filter((c) => LONG_SIDE.includes(c.action)).length;
  return {
    strategy_return_pct: (end.strategy - 1) * 100,
    buy_hold_return_pct: (end.buyHold - 1) * 100,
    strategy_max_drawdown_pct: maxDrawdownPct(curve.map((p) => p.strategy)),
    buy_hold_max_drawdown_pct: maxDrawdownPct(curve.map((p) => p.buyHold)),
    exposure_pct: (longCalls / calls.length) * 100,
  };
}

export function summarize(
  calls: readonly JudgedCall[],
  bars: readonly TDailyBar[],
  horizons: readonly number[],
): { summary: TBacktestSummary; curve: EquityPoint[] } {
  const curve = equityCurve(calls, bars);
  return {
    summary: {
      horizons: [...horizons].sort((a, b) => a - b).map((h) => horizonSummary(calls, h)),
      equity: equitySummary(calls, curve),
    },
    curve,
  };
}

/** The tested span's bars with both equity lines, for the page's charts. */
export function seriesPoints(curve: readonly EquityPoint[], bars: readonly TDailyBar[]): TSeriesPoint[] {
  return curve.map((p) => {
    const b = bars[p.index]!;
    return {
      date: b.date,
      open: b.open,
      high: b.high,
      low: b.low,
      close: b.close,
      volume: b.volume,
      strategy_equity: p.strategy,
      buy_hold_equity: p.buyHold,
    };
  });
}
