import { replayCalls, type ReplayOptions } from "@/lib/backtest/replay";
import type { TDailyBar } from "@/lib/market";
import { closeReturnPct } from "@/lib/signals/outcome-engine";
import type { EvidenceCall } from "./scope";
import { EVIDENCE_HORIZON_DAYS } from "./schemas";

/**
 * The current engine's call on every trading day of a series (each from the bars up to that day only, as the
 * backtest replays them), with the close-to-close return over the next 10 bars; days whose 10 bars have not
 * come yet are left out.
 */
export async function walkForwardCalls(
  bars: readonly TDailyBar[],
  options: Omit<ReplayOptions, "step" | "startDate" | "endDate">,
): Promise<EvidenceCall[]> {
  const known = bars.length - EVIDENCE_HORIZON_DAYS;
  if (known <= 0) return [];
  const replayed = await replayCalls(bars.slice(0, known), { ...options, step: 1 });
  return replayed.map((c) => ({
    index: c.index,
    date: c.date,
    action: c.action,
    score: c.score,
    returnPct: closeReturnPct(c.close, bars[c.index + EVIDENCE_HORIZON_DAYS]!.close),
  }));
}
