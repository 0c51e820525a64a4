import type { TDailyBar } from "@/lib/market";
import type { TMarket } from "@/lib/market/symbols";
import { computeIndicators } from "./indicators";
import { decideByRules, type RuleDecision } from "./rules";
import type { TIndicators, TMarketPhase } from "./schemas";

export interface SliceDecision {
  indicators: TIndicators;
  decision: RuleDecision;
}

/**
 * The rule decision at the close of the last bar given, from those bars alone (no quote, no news, no LLM):
 * what a post-market analysis would have said that evening. The backtest replays this per trading day.
 */
export function decideAtClose(
  bars: readonly TDailyBar[],
  market: TMarket,
  isSample: boolean,
  options: { phase?: TMarketPhase } = {},
): SliceDecision {
  const indicators = computeIndicators({ bars, quote: null, market });
  // Report language only shapes the texts; the backtest keeps the numbers, so any language will do.
  const decision = decideByRules({
    indicators,
    market,
    phase: options.phase ?? "postmarket",
    language: "en",
    isSample,
  });
  return { indicators, decision };
}
