import type { TDailyBar } from "@/lib/market";
import { closeReturnPct, evaluateOutcome } from "@/lib/signals/outcome-engine";
import type { ReplayCall } from "./replay";
import type { TBacktestOutcome } from "./schemas";

// Each call judged per horizon by the decision-signal-v1 outcome engine (docs/api.md §11): anchor = the close
// on the call's day, end = the close h bars later. Watch and alert have no expected direction: their return
// is still known (it counts in `all`), their outcome is null.

export interface JudgedCall extends ReplayCall {
  outcomes: TBacktestOutcome[];
}

export function judgeCall(
  call: ReplayCall,
  bars: readonly TDailyBar[],
  horizons: readonly number[],
  neutralBandPct: number,
): JudgedCall {
  const outcomes = horizons.map((horizon): TBacktestOutcome => {
    const endIndex = call.index + horizon;
    if (endIndex >= bars.length) return { horizon, return_pct: null, outcome: null };
    // Only the anchor and the window: the engine then never scans the whole series for its anchor.
    const window = bars.slice(call.index, endIndex + 1);
    const evaluation = evaluateOutcome(
      {
        action: call.action,
        entryLow: call.ideal_buy,
        entryHigh: call.ideal_buy,
        stopLoss: call.stop_loss,
        targetPrice: call.take_profit,
      },
      window,
      call.date,
      horizon,
      neutralBandPct,
    );
    if (evaluation.evalStatus === "completed")
      return { horizon, return_pct: evaluation.stockReturnPct, outcome: evaluation.outcome };
    return { horizon, return_pct: closeReturnPct(call.close, bars[endIndex]!.close), outcome: null };
  });
  return { ...call, outcomes };
}

export function judgeCalls(
  calls: readonly ReplayCall[],
  bars: readonly TDailyBar[],
  horizons: readonly number[],
  neutralBandPct: number,
): JudgedCall[] {
  return calls.map((call) => judgeCall(call, bars, horizons, neutralBandPct));
}
