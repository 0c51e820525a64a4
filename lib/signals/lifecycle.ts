import { ApiError } from "@/lib/errors/api-error";
import { nextTradingDay } from "@/lib/market/calendar";
import { lastClosedTradingDay, MARKET_TIME_ZONE, zonedIso } from "@/lib/market/market-time";
import type { TMarket } from "@/lib/market/symbols";
import {
  TERMINAL_STATUSES,
  type TDirection,
  type TPlanQuality,
  type TSignalAction,
  type TSignalHorizon,
  type TSignalMarketPhase,
  type TSignalStatus,
} from "./schemas";

// Lifecycle rules of a decision signal (spec 3.2, docs/api.md §4), as pure functions.

/** Local time a session's daily bar is final (the same close times the bar cache uses). */
export const SESSION_CLOSE: Record<TMarket, string> = { cn: "15:00:00", hk: "16:10:00", us: "16:00:00" };

const IN_SESSION_PHASES: readonly TSignalMarketPhase[] = ["premarket", "intraday", "lunch_break", "closing_auction"];

/** docs/api.md §4: intraday for an alert or a signal given around a session, else 3d. */
export function defaultHorizon(action: TSignalAction, phase: TSignalMarketPhase | null | undefined): TSignalHorizon {
  if (action === "alert") return "intraday";
  if (phase && IN_SESSION_PHASES.includes(phase)) return "intraday";
  return "3d";
}

/** Trading sessions a horizon spans: intraday is the current session, Nd the next N; swing and long: no expiry. */
export function horizonSessions(horizon: TSignalHorizon): number | null {
  if (horizon === "intraday") return 1;
  const match = /^(\d+)d$/.exec(horizon);
  return match ? Number(match[1]) : null;
}

/** The session date `n` trading days of `market` after `date` (exchange holidays skipped). */
export function addTradingDays(market: TMarket, date: string, n: number): string {
  let day = date;
  for (let i = 0; i < n; i += 1) day = nextTradingDay(market, day);
  return day;
}

/**
 * Default expiry, counted in trading days of the signal's market (its exchange calendar): the close of the N-th session after the last closed session at `at`. A signal given
 * during a session counts that session as the first; one given after the close or on a weekend starts with the
 * next session. intraday = the current (or next) session's close; swing and long never expire by default.
 * The outcome engine evaluates the same window (N bars after the anchor close).
 */
export function defaultExpiry(horizon: TSignalHorizon, market: TMarket, at: Date): Date | null {
  const sessions = horizonSessions(horizon);
  if (sessions === null) return null;
  const anchor = lastClosedTradingDay(market, at);
  const last = addTradingDays(market, anchor, sessions);
  return new Date(zonedIso(last, SESSION_CLOSE[market], MARKET_TIME_ZONE[market]));
}

export function isTerminal(status: TSignalStatus): boolean {
  return (TERMINAL_STATUSES as readonly string[]).includes(status);
}

const LONG_SIDE: readonly TSignalAction[] = ["buy", "add"];
const SHORT_SIDE: readonly TSignalAction[] = ["reduce", "sell", "avoid"];

/** docs/api.md §4: {buy, add} and {reduce, sell, avoid} invalidate each other; other actions have no opposite. */
export function oppositeActions(action: TSignalAction): readonly TSignalAction[] {
  if (LONG_SIDE.includes(action)) return SHORT_SIDE;
  if (SHORT_SIDE.includes(action)) return LONG_SIDE;
  return [];
}

/** The actions of the same side as `action`: {buy, add}, {reduce, sell, avoid}; any other action is a side of its own. */
export function sameSideActions(action: TSignalAction): readonly TSignalAction[] {
  if (LONG_SIDE.includes(action)) return LONG_SIDE;
  if (SHORT_SIDE.includes(action)) return SHORT_SIDE;
  return [action];
}

/** Outcome engine direction (docs/api.md §4): buy/add up, hold not_down, reduce/sell/avoid not_up; others none. */
export function expectedDirection(action: TSignalAction): TDirection | null {
  if (LONG_SIDE.includes(action)) return "up";
  if (action === "hold") return "not_down";
  if (SHORT_SIDE.includes(action)) return "not_up";
  return null;
}

/** An action with an expected direction; analyses create signals only for these (watch and alert are not). */
export function isDirectional(action: TSignalAction | null | undefined): action is TSignalAction {
  return action != null && expectedDirection(action) !== null;
}

export interface PricePlan {
  entry_low?: number | null;
  entry_high?: number | null;
  stop_loss?: number | null;
  target_price?: number | null;
}

export interface PricePlanViolation {
  /** entry_range_invalid, stop_loss_not_below_entry, target_price_not_above_entry, stop_loss_not_below_target_price, or the short side's not_above/not_below forms. */
  code: string;
  message: string;
}

/** The first way a price plan contradicts its action, or null when it is sane. */
export function pricePlanViolation(action: TSignalAction, plan: PricePlan): PricePlanViolation | null {
  const { entry_low: low, entry_high: high, stop_loss: stop, target_price: target } = plan;
  const violation = (code: string, message: string) => ({ code, message });
  if (low != null && high != null && low > high)
    return violation("entry_range_invalid", "entry_low must not exceed entry_high");
  const direction = expectedDirection(action);
  const entryBottom = low ?? high ?? null;
  const entryTop = high ?? low ?? null;
  if (direction === "up") {
    if (stop != null && entryBottom != null && !(stop < entryBottom))
      return violation("stop_loss_not_below_entry", `a ${action} signal's stop_loss must be below the entry`);
    if (target != null && entryTop != null && !(target > entryTop))
      return violation("target_price_not_above_entry", `a ${action} signal's target_price must be above the entry`);
    if (stop != null && target != null && !(stop < target))
      return violation("stop_loss_not_below_target_price", `a ${action} signal's stop_loss must be below target_price`);
  }
  if (direction === "not_up") {
    if (stop != null && entryTop != null && !(stop > entryTop))
      return violation("stop_loss_not_above_entry", `a ${action} signal's stop_loss must be above the entry`);
    if (target != null && entryBottom != null && !(target < entryBottom))
      return violation("target_price_not_below_entry", `a ${action} signal's target_price must be below the entry`);
    if (stop != null && target != null && !(stop > target))
      return violation("stop_loss_not_above_target_price", `a ${action} signal's stop_loss must be above target_price`);
  }
  return null;
}

/** Why a price plan is inconsistent, or null when it is sane. */
export function pricePlanProblem(action: TSignalAction, plan: PricePlan): string | null {
  return pricePlanViolation(action, plan)?.message ?? null;
}

/** 400 when the plan contradicts the action. */
export function assertPricePlan(action: TSignalAction, plan: PricePlan): void {
  const problem = pricePlanProblem(action, plan);
  if (problem) throw ApiError.of("invalid_price_plan", problem);
}

/** Plan quality when the client sends none: complete with an entry, a stop and a target; partial with some. */
export function derivePlanQuality(plan: PricePlan): TPlanQuality {
  const entry = plan.entry_low != null || plan.entry_high != null;
  const parts = [entry, plan.stop_loss != null, plan.target_price != null].filter(Boolean).length;
  if (parts === 3) return "complete";
  return parts > 0 ? "partial" : "minimal";
}
