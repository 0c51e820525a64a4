import { isTradingDay, nextTradingDay } from "@/lib/market/calendar";
import { localParts, MARKET_TIME_ZONE } from "@/lib/market/market-time";
import type { TMarket } from "@/lib/market/symbols";

// Which session a call can first act on, and the sessions a run walks. All three markets open at 09:30 local time.

const OPEN_MINUTES = 9 * 60 + 30;

/** The first session whose open comes after `at`: today's when the call was made before it opened, else the next. */
export function actionableSession(market: TMarket, at: Date): string {
  const local = localParts(at, MARKET_TIME_ZONE[market]);
  if (isTradingDay(market, local.date) && local.minutes < OPEN_MINUTES) return local.date;
  return nextTradingDay(market, local.date);
}

/** Trading days d with after < d <= upTo, in order. */
export function sessionsBetween(market: TMarket, after: string, upTo: string): string[] {
  const out: string[] = [];
  for (let day = nextTradingDay(market, after); day <= upTo; day = nextTradingDay(market, day)) out.push(day);
  return out;
}
