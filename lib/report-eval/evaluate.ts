import type { TDailyBar } from "@/lib/market";
import { evaluateOutcome, NEUTRAL_BAND_PCT } from "@/lib/signals/outcome-engine";
import type { TSignalAction } from "@/lib/signals/schemas";

// How one stored report fared (docs/api.md §12.4): the decision-signal outcome engine measures the window
// after the report's price date; this file adds what the reference's view shows on top: the position the
// report implied (long or cash), a simulated trade with the report's own stop and target, and win/loss.
// Pure: the caller supplies the report's facts and the bars.

// v2: the reference's four expected directions and their grading (v1 graded a sell as "not up", a watch not at all).
export const REPORT_EVAL_ENGINE = "report-eval-v2";

/**
 * What a report expected, in the reference's words for its backtest: buy and add `up`, hold `not_down`, reduce,
 * sell and avoid `down`, anything else (watch, no action) `flat`.
 */
export type ReportDirection = "up" | "down" | "not_down" | "flat";

export function reportDirection(action: TSignalAction | null): ReportDirection {
  if (action === "buy" || action === "add") return "up";
  if (action === "hold") return "not_down";
  if (action === "reduce" || action === "sell" || action === "avoid") return "down";
  return "flat";
}

/**
 * The window's return against the expectation, with the ±2 % neutral band: up wins at ≥ +2 and loses at ≤ −2; down
 * the mirror; not_down wins at ≥ 0 and loses at ≤ −2; flat wins inside the band and loses outside it. Between, neutral
 * (direction_correct null).
 */
export function gradeDirection(
  direction: ReportDirection,
  returnPct: number,
): { outcome: "win" | "loss" | "neutral"; correct: boolean | null } {
  const band = NEUTRAL_BAND_PCT;
  const win = { outcome: "win", correct: true } as const;
  const loss = { outcome: "loss", correct: false } as const;
  const neutral = { outcome: "neutral", correct: null } as const;
  if (direction === "up") return returnPct >= band ? win : returnPct <= -band ? loss : neutral;
  if (direction === "down") return returnPct <= -band ? win : returnPct >= band ? loss : neutral;
  if (direction === "not_down") return returnPct >= 0 ? win : returnPct <= -band ? loss : neutral;
  return Math.abs(returnPct) <= band ? win : loss;
}

export interface ReportFacts {
  action: TSignalAction | null;
  /** The close the report's price belongs to (its as-of date): the anchor of the window. */
  anchorDate: string;
  stopLoss: number | null;
  takeProfit: number | null;
  /** The provider of the bars the report was made from (its data quality); null on records stored before it. */
  source?: string | null;
}

export interface ReportEvaluationResult {
  evalStatus: "completed" | "insufficient" | "unable";
  retryable: boolean;
  unableReason: string | null;
  directionExpected: ReportDirection;
  position: "long" | "cash";
  anchorDate: string | null;
  startPrice: number | null;
  endDate: string | null;
  endClose: number | null;
  maxHigh: number | null;
  minLow: number | null;
  stockReturnPct: number | null;
  actualMovement: "up" | "down" | "flat" | null;
  directionCorrect: boolean | null;
  outcome: "win" | "loss" | "neutral" | null;
  stopLoss: number | null;
  takeProfit: number | null;
  hitStopLoss: boolean | null;
  hitTakeProfit: boolean | null;
  firstHit: string | null;
  firstHitDate: string | null;
  firstHitTradingDays: number | null;
  simulatedEntryPrice: number | null;
  simulatedExitPrice: number | null;
  simulatedExitReason: string | null;
  simulatedReturnPct: number | null;
}

/** Moves within the outcome engine's neutral band are "flat", as they are neither a hit nor a miss there. */
function movementOf(returnPct: number): "up" | "down" | "flat" {
  return returnPct >= NEUTRAL_BAND_PCT ? "up" : returnPct <= -NEUTRAL_BAND_PCT ? "down" : "flat";
}

/**
 * A long position opened at the anchor close leaves at the first stop or target touch (at the bar's open when
 * it gapped through: that is the price there was), else at the window's last close. When one daily bar touched
 * both, the stop is assumed first: daily bars cannot tell, and the conservative reading does not flatter.
 */
function simulateLong(
  start: number,
  window: readonly TDailyBar[],
  firstHit: string | null,
  firstHitDate: string | null,
  stop: number | null,
  target: number | null,
  endClose: number,
) {
  const bar = firstHitDate ? window.find((b) => b.date === firstHitDate) : undefined;
  if (bar && stop !== null && (firstHit === "stop" || firstHit === "both_same_day")) {
    return {
      exit: Math.min(stop, bar.open),
      reason: firstHit === "stop" ? "stop_loss" : "stop_loss_same_day_as_target",
    };
  }
  if (bar && target !== null && firstHit === "target")
    return { exit: Math.max(target, bar.open), reason: "take_profit" };
  return { exit: endClose, reason: "window_end" };
}

export function evaluateReport(
  facts: ReportFacts,
  bars: readonly TDailyBar[],
  windowDays: number,
): ReportEvaluationResult {
  const direction = reportDirection(facts.action);
  const long = direction === "up" || direction === "not_down";
  // The outcome engine measures the window (prices, the long plan's stop and target touches); a cash report is
  // measured as a hold without a plan, and graded below by its own expectation.
  const engineAction: TSignalAction = long ? facts.action! : "hold";
  const e = evaluateOutcome(
    {
      action: engineAction,
      entryLow: null,
      entryHigh: null,
      stopLoss: long ? facts.stopLoss : null,
      targetPrice: long ? facts.takeProfit : null,
      source: facts.source,
    },
    bars,
    facts.anchorDate,
    windowDays,
  );
  const base: ReportEvaluationResult = {
    evalStatus: "unable",
    retryable: e.retryable,
    unableReason: e.unableReason,
    directionExpected: direction,
    position: long ? "long" : "cash",
    anchorDate: e.anchorDate,
    startPrice: e.startPrice,
    endDate: e.endDate,
    endClose: e.endClose,
    maxHigh: e.maxHigh,
    minLow: e.minLow,
    stockReturnPct: e.stockReturnPct,
    actualMovement: null,
    directionCorrect: null,
    outcome: null,
    stopLoss: facts.stopLoss,
    takeProfit: facts.takeProfit,
    hitStopLoss: null,
    hitTakeProfit: null,
    firstHit: null,
    firstHitDate: null,
    firstHitTradingDays: null,
    simulatedEntryPrice: null,
    simulatedExitPrice: null,
    simulatedExitReason: null,
    simulatedReturnPct: null,
  };
  if (e.evalStatus !== "completed") {
    return { ...base, evalStatus: e.unableReason === "insufficient_forward_bars" ? "insufficient" : "unable" };
  }
  const start = e.startPrice!;
  const returnPct = e.stockReturnPct!;
  const anchorIndex = bars.findIndex((b) => b.date === e.anchorDate);
  const window = bars.slice(anchorIndex + 1, anchorIndex + 1 + windowDays);
  const hitIndex = e.firstHitDate ? window.findIndex((b) => b.date === e.firstHitDate) : -1;
  const grade = gradeDirection(direction, returnPct);
  const completed: ReportEvaluationResult = {
    ...base,
    evalStatus: "completed",
    retryable: false,
    unableReason: null,
    actualMovement: movementOf(returnPct),
    directionCorrect: grade.correct,
    outcome: grade.outcome,
    firstHit: long ? e.firstHit : null,
    firstHitDate: long ? e.firstHitDate : null,
    firstHitTradingDays: long && hitIndex >= 0 ? hitIndex + 1 : null,
    hitStopLoss: long && facts.stopLoss !== null ? e.firstHit === "stop" || e.firstHit === "both_same_day" : null,
    hitTakeProfit: long && facts.takeProfit !== null ? e.firstHit === "target" || e.firstHit === "both_same_day" : null,
  };
  if (!long) {
    // Out of the market: the money stays put, whatever the stock did.
    return {
      ...completed,
      simulatedEntryPrice: null,
      simulatedExitPrice: null,
      simulatedExitReason: "cash",
      simulatedReturnPct: 0,
    };
  }
  const trade = simulateLong(start, window, e.firstHit, e.firstHitDate, facts.stopLoss, facts.takeProfit, e.endClose!);
  return {
    ...completed,
    simulatedEntryPrice: start,
    simulatedExitPrice: trade.exit,
    simulatedExitReason: trade.reason,
    simulatedReturnPct: (trade.exit / start - 1) * 100,
  };
}
