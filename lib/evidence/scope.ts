import type { TDecisionAction } from "@/lib/analysis/engine/schemas";
import { classifyReturn, NEUTRAL_BAND_PCT } from "@/lib/signals/outcome-engine";
import { expectedDirection } from "@/lib/signals/lifecycle";
import { neweyWestLags, neweyWestMeanDifference, nonOverlapping, Z95 } from "./robust-stats";
import { EVIDENCE_HORIZON_DAYS, MIN_INDEPENDENT_CALLS, type TEvidenceScope, type TEvidenceVerdict } from "./schemas";

// One scope of the evidence (docs/api.md §13) from walk-forward calls whose forward returns are known: a stock's own
// (consecutive trading days, one call each), or several stocks pooled into a market.

/** One walk-forward call with its forward return at the evidence horizon. */
export interface EvidenceCall {
  /** Position of the call's bar in its series: windows overlap when positions are closer than the horizon. */
  index: number;
  date: string;
  action: TDecisionAction;
  score: number | null;
  returnPct: number;
}

export const LONG_ACTIONS: readonly TDecisionAction[] = ["buy", "add", "hold"];
export const SHORT_ACTIONS: readonly TDecisionAction[] = ["reduce", "sell", "avoid"];

/**
 * §13's verdict rule. Long-side actions have an edge when the interval lies above 0 and are adverse below it;
 * short-side ones the other way round; watch and alert claim nothing, so only an interval below 0 (the call
 * avoided worse days) counts as an edge and one above 0 as adverse.
 */
export function evidenceVerdict(
  action: TDecisionAction,
  nIndependent: number,
  low: number | null,
  high: number | null,
): TEvidenceVerdict {
  if (nIndependent < MIN_INDEPENDENT_CALLS || low === null || high === null) return "insufficient";
  if (low <= 0 && high >= 0) return "no_measurable_edge";
  const above = low > 0;
  if (LONG_ACTIONS.includes(action)) return above ? "edge" : "adverse";
  return above ? "adverse" : "edge";
}

/** Figures of one action on one stock, before they are pooled or shaped into a scope. */
export interface StockFigures {
  nCalls: number;
  nIndependent: number;
  excess: number | null;
  se: number | null;
  hits: number | null;
  baseHits: number | null;
  nDays: number;
  periodStart: string;
  periodEnd: string;
}

function hitCount(action: TDecisionAction, returns: readonly number[]): number | null {
  const direction = expectedDirection(action);
  if (direction === null) return null;
  return returns.filter((r) => classifyReturn(direction, r, NEUTRAL_BAND_PCT) === "hit").length;
}

/** One stock's calls (consecutive days, oldest first) judged for `action`; null when it never made that call. */
export function stockFigures(calls: readonly EvidenceCall[], action: TDecisionAction): StockFigures | null {
  const mine = calls.filter((c) => c.action === action);
  if (mine.length === 0) return null;
  const estimate = neweyWestMeanDifference(
    calls.map((c) => c.returnPct),
    calls.map((c) => c.action === action),
    neweyWestLags(EVIDENCE_HORIZON_DAYS),
  );
  return {
    nCalls: mine.length,
    nIndependent: nonOverlapping(
      mine.map((c) => c.index),
      EVIDENCE_HORIZON_DAYS,
    ).length,
    excess: estimate?.estimate ?? null,
    se: estimate?.se ?? null,
    hits: hitCount(
      action,
      mine.map((c) => c.returnPct),
    ),
    baseHits: hitCount(
      action,
      calls.map((c) => c.returnPct),
    ),
    nDays: calls.length,
    periodStart: mine[0]!.date,
    periodEnd: mine.at(-1)!.date,
  };
}

/**
 * Several stocks' figures for one action pooled: the excess weighted by calls, its variance from the per-stock
 * Newey-West variances as if stocks were independent (same-day moves make that optimistic; docs/evaluations says so).
 */
export function pooledScope(
  action: TDecisionAction,
  figures: readonly StockFigures[],
  scope: "stock" | "market",
  universe: string | null,
): TEvidenceScope | null {
  if (figures.length === 0) return null;
  const nCalls = figures.reduce((s, f) => s + f.nCalls, 0);
  const nIndependent = figures.reduce((s, f) => s + f.nIndependent, 0);
  const measured = figures.filter((f) => f.excess !== null && f.se !== null);
  const weight = measured.reduce((s, f) => s + f.nCalls, 0);
  const excess = weight === 0 ? null : measured.reduce((s, f) => s + f.nCalls * f.excess!, 0) / weight;
  const se = weight === 0 ? null : Math.sqrt(measured.reduce((s, f) => s + ((f.nCalls / weight) * f.se!) ** 2, 0));
  const low = excess === null || se === null ? null : excess - Z95 * se;
  const high = excess === null || se === null ? null : excess + Z95 * se;
  const directional = expectedDirection(action) !== null;
  const days = figures.reduce((s, f) => s + f.nDays, 0);
  return {
    scope,
    universe,
    period_start: figures.map((f) => f.periodStart).sort()[0]!,
    period_end: figures
      .map((f) => f.periodEnd)
      .sort()
      .at(-1)!,
    n_calls: nCalls,
    n_independent: nIndependent,
    mean_excess_pct: excess,
    ci95_low_pct: low,
    ci95_high_pct: high,
    hit_rate: directional ? figures.reduce((s, f) => s + (f.hits ?? 0), 0) / nCalls : null,
    base_hit_rate: directional && days > 0 ? figures.reduce((s, f) => s + (f.baseHits ?? 0), 0) / days : null,
    verdict: evidenceVerdict(action, nIndependent, low, high),
  };
}

/** The `stock` scope of one action from that stock's calls; null when the stock never made that call. */
export function stockScope(calls: readonly EvidenceCall[], action: TDecisionAction): TEvidenceScope | null {
  const figures = stockFigures(calls, action);
  return figures ? pooledScope(action, [figures], "stock", null) : null;
}
