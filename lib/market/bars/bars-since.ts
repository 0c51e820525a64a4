import { now } from "@/lib/clock";
import { logger } from "@/lib/log/logger";
import { lastClosedTradingDay, weekdaysBetween } from "@/lib/market/market-time";
import type { TDailyBar, TMarketSymbol } from "@/lib/market/providers/types";
import { symbolKey } from "@/lib/market/symbol-key";
import { getDailyBars } from "./daily-bars";

// Bars fetched beyond the from..today weekday span: exchange holidays make the weekday count run ahead.
const DEPTH_MARGIN = 10;
const MAX_DEPTH = 5000;

/**
 * Daily bars per symbol (by symbolKey), fetched once per symbol with the depth its earliest `from` date needs
 * (plus `extraDays`). Outcome runs (signals, stored reports) judge the bars after an anchor date with this. A
 * symbol without data now maps to [] (its rows become retryable), logged under `label`.
 */
export async function barsSince(
  requests: readonly { symbol: TMarketSymbol; from: string }[],
  label: string,
  extraDays = 0,
): Promise<Map<string, TDailyBar[]>> {
  const groups = new Map<string, { symbol: TMarketSymbol; oldest: string }>();
  for (const { symbol, from } of requests) {
    const key = symbolKey(symbol);
    const group = groups.get(key);
    if (!group) groups.set(key, { symbol, oldest: from });
    else if (from < group.oldest) group.oldest = from;
  }
  const out = new Map<string, TDailyBar[]>();
  const at = now();
  for (const [key, { symbol, oldest }] of groups) {
    const through = lastClosedTradingDay(symbol.market, at);
    const depth = Math.min(
      MAX_DEPTH,
      (oldest < through ? weekdaysBetween(oldest, through) : 0) + 1 + extraDays + DEPTH_MARGIN,
    );
    try {
      out.set(key, (await getDailyBars(symbol, depth)).bars);
    } catch (error) {
      logger.warn({ err: error, symbol: key }, `${label}: daily bars unavailable`);
      out.set(key, []);
    }
  }
  return out;
}
