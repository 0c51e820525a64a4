import { now } from "@/lib/clock";
import { isTradingDay } from "@/lib/market/calendar";
import { localParts, MARKET_TIME_ZONE, zonedIso } from "@/lib/market/market-time";
import type { TMarket } from "@/lib/market/symbols";
import type { TMarketPhase, TMarketPhaseSummary, TRequestedPhase } from "./schemas";

// analysis_phase auto-detection from each exchange's wall clock and its calendar
// (lib/market/calendar.ts): weekends and exchange holidays are non-trading; half days read as full days.

interface Session {
  open: number; // minutes after local midnight
  lunchStart: number | null;
  lunchEnd: number | null;
  close: number; // end of the session including the closing auction (the bar is final afterwards)
}

const SESSIONS: Record<TMarket, Session> = {
  cn: { open: 9 * 60 + 30, lunchStart: 11 * 60 + 30, lunchEnd: 13 * 60, close: 15 * 60 },
  hk: { open: 9 * 60 + 30, lunchStart: 12 * 60, lunchEnd: 13 * 60, close: 16 * 60 + 10 },
  us: { open: 9 * 60 + 30, lunchStart: null, lunchEnd: null, close: 16 * 60 },
};

const HALF_DAY_WARNING = "half-day sessions are not modelled: a shortened session reads as a full one";

export interface PhaseInput {
  market: TMarket;
  requested?: TRequestedPhase;
  at?: Date;
}

export function resolveMarketPhase({ market, requested = "auto", at = now() }: PhaseInput): TMarketPhaseSummary {
  const timeZone = MARKET_TIME_ZONE[market];
  const local = localParts(at, timeZone);
  const session = SESSIONS[market];
  const tradingDay = isTradingDay(market, local.date);
  const m = local.minutes;
  const open = tradingDay && m >= session.open && m < session.close;
  const lunch =
    open && session.lunchStart !== null && session.lunchEnd !== null && m >= session.lunchStart && m < session.lunchEnd;
  const detected = detectPhase(tradingDay, m, session);
  const explicit = requested !== "auto";
  const warnings = [HALF_DAY_WARNING];
  if (explicit && requested !== detected)
    warnings.push(`requested phase ${requested} differs from the exchange clock (${detected})`);
  return {
    phase: explicit ? requested : detected,
    requested_phase: requested,
    source: explicit ? "explicit" : "auto",
    market,
    time_zone: timeZone,
    market_local_time: zonedIso(local.date, `${Math.floor(m / 60)}:${m % 60}:${at.getUTCSeconds()}`, timeZone),
    session_date: local.date,
    is_trading_day: tradingDay,
    is_market_open_now: open && !lunch,
    is_lunch_break: lunch,
    minutes_to_open: tradingDay && m < session.open ? session.open - m : null,
    minutes_to_close: open ? session.close - m : null,
    warnings,
  };
}

function detectPhase(tradingDay: boolean, minutes: number, session: Session): TMarketPhase {
  if (!tradingDay) return "non_trading";
  if (minutes < session.open) return "premarket";
  // The lunch break counts as intraday: the day's bar is still partial and the afternoon is still to come.
  if (minutes < session.close) return "intraday";
  return "postmarket";
}
