import type { TDecisionAction, TIndicators, TPriceLevel } from "./schemas";

// rules-v2 price plans: levels that fit the verdict, measured in the stock's own ATR.
//   long side (buy, add): ideal buy at or under the price (a breakout buy: the breakout level), a stop under the
//     supporting level with a volatility buffer and 1–3 ATR under the entry, a target at the next resistance
//     paying ≥ 1.5 × the risk, else entry + 2 × the risk;
//   hold: no buy levels; a trailing stop under support (1–3 ATR) and the next resistance;
//   short side (reduce, sell, avoid): no buy levels; the level above which the call is wrong (stop) and the
//     next support below as the target;
//   watch: the two levels that would change the verdict, a breakout above (ideal_buy) and a breakdown below
//     (stop_loss).
// No level sits within 0.3 ATR of the price unless it is the price itself by design (a buy at the close).

export type Plan = Record<"ideal_buy" | "secondary_buy" | "stop_loss" | "take_profit", TPriceLevel | null>;

/** Closer than this to the price, a level is noise, not a plan: a third of a normal day's range. */
export const MIN_GAP_ATR = 0.3;
/** Stops sit half a day's range beyond the level they lean on, so a normal wick does not trigger them. */
const STOP_BUFFER_ATR = 0.5;
/** A stop tighter than one day's range is hit by noise; wider than three risks more than a swing is worth. */
export const STOP_MIN_ATR = 1;
export const STOP_MAX_ATR = 3;
/** The reward a target must pay over the risk, else the plan aims at 2 × the risk (reference §3). */
export const MIN_REWARD_RISK = 1.5;
const FALLBACK_REWARD_RISK = 2;
/** A second entry deeper than two ranges under the first is a different trade. */
const SECONDARY_MAX_ATR = 2;

const EMPTY: Plan = { ideal_buy: null, secondary_buy: null, stop_loss: null, take_profit: null };
const LONG: readonly TDecisionAction[] = ["buy", "add"];
const SHORT: readonly TDecisionAction[] = ["reduce", "sell", "avoid"];

function clamp(value: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, value));
}

function at(price: number, basis: TPriceLevel["basis"], date?: string): TPriceLevel {
  return date ? { price, basis, date } : { price, basis };
}

/** A stop under `entry`: below the nearest support at least one range under it, kept 1–3 ATR under the entry. */
function stopUnder(entry: number, supports: readonly TPriceLevel[], atr: number): TPriceLevel {
  const lean = supports.find((s) => s.price <= entry - (STOP_MIN_ATR - STOP_BUFFER_ATR) * atr);
  const raw = lean ? lean.price - STOP_BUFFER_ATR * atr : entry - FALLBACK_REWARD_RISK * atr;
  return at(clamp(raw, entry - STOP_MAX_ATR * atr, entry - STOP_MIN_ATR * atr), "atr_stop", lean?.date);
}

/** A stop above `price` for a short-side call: over the nearest resistance, kept 1–3 ATR above the price. */
function stopAbove(price: number, resistances: readonly TPriceLevel[], atr: number): TPriceLevel {
  const lean = resistances.find((r) => r.price >= price + (STOP_MIN_ATR - STOP_BUFFER_ATR) * atr);
  const raw = lean ? lean.price + STOP_BUFFER_ATR * atr : price + FALLBACK_REWARD_RISK * atr;
  return at(clamp(raw, price + STOP_MIN_ATR * atr, price + STOP_MAX_ATR * atr), "above_resistance", lean?.date);
}

function longPlan(ind: TIndicators, action: TDecisionAction, reason: string, price: number, atr: number): Plan {
  const supports = ind.support.filter((s) => s.price <= price - MIN_GAP_ATR * atr);
  let ideal: TPriceLevel = at(price, "current_price");
  if (reason === "breakout" && ind.high_20 !== null && ind.high_20 <= price - MIN_GAP_ATR * atr)
    ideal = at(ind.high_20, "breakout_above");
  else if (action === "add" && ind.ma.ma10 !== null && ind.ma.ma10 <= price - MIN_GAP_ATR * atr)
    ideal = at(ind.ma.ma10, "ma10");
  const stop = stopUnder(
    ideal.price,
    supports.filter((s) => s.price < ideal.price),
    atr,
  );
  const secondary =
    supports.find(
      (s) =>
        s.price <= ideal.price - MIN_GAP_ATR * atr &&
        s.price >= ideal.price - SECONDARY_MAX_ATR * atr &&
        s.price >= stop.price + MIN_GAP_ATR * atr,
    ) ?? null;
  const risk = ideal.price - stop.price;
  const floor = price + MIN_GAP_ATR * atr;
  const target =
    ind.resistance.find((r) => r.price >= floor && r.price - ideal.price >= MIN_REWARD_RISK * risk) ??
    (ideal.price + FALLBACK_REWARD_RISK * risk >= floor
      ? at(ideal.price + FALLBACK_REWARD_RISK * risk, "risk_reward_2r")
      : at(ideal.price + (FALLBACK_REWARD_RISK + 1) * risk, "risk_reward_3r"));
  return { ideal_buy: ideal, secondary_buy: secondary, stop_loss: stop, take_profit: target };
}

function holdPlan(ind: TIndicators, price: number, atr: number): Plan {
  const supports = ind.support.filter((s) => s.price <= price - MIN_GAP_ATR * atr);
  const target = ind.resistance.find((r) => r.price >= price + MIN_GAP_ATR * atr) ?? null;
  return { ...EMPTY, stop_loss: stopUnder(price, supports, atr), take_profit: target };
}

function shortPlan(ind: TIndicators, price: number, atr: number): Plan {
  const target = ind.support.find((s) => s.price <= price - STOP_MIN_ATR * atr) ?? null;
  return { ...EMPTY, stop_loss: stopAbove(price, ind.resistance, atr), take_profit: target };
}

function watchPlan(ind: TIndicators, price: number, atr: number): Plan {
  const up =
    ind.high_20 !== null && ind.high_20 >= price + MIN_GAP_ATR * atr
      ? ind.high_20
      : (ind.resistance.find((r) => r.price >= price + MIN_GAP_ATR * atr)?.price ?? null);
  const down =
    ind.low_20 !== null && ind.low_20 <= price - MIN_GAP_ATR * atr
      ? ind.low_20
      : (ind.support.find((s) => s.price <= price - MIN_GAP_ATR * atr)?.price ?? null);
  return {
    ...EMPTY,
    ideal_buy: up === null ? null : at(up, "breakout_above"),
    stop_loss: down === null ? null : at(down, "breakdown_below"),
  };
}

/** The plan for a v2 verdict; without a price or an ATR there is no honest level to give. */
export function structurePlan(ind: TIndicators, action: TDecisionAction, reason: string): Plan {
  const price = ind.price;
  const atr = ind.atr14 ?? null;
  if (price === null || atr === null || !(atr > 0)) return { ...EMPTY };
  if (LONG.includes(action)) return longPlan(ind, action, reason, price, atr);
  if (action === "hold") return holdPlan(ind, price, atr);
  if (SHORT.includes(action)) return shortPlan(ind, price, atr);
  return watchPlan(ind, price, atr);
}

export type PlanNumbers = Record<keyof Plan, number | null>;

/**
 * For plans the engine did not write (an LLM's): the first invariant a plan breaks for its
 * action, or null. The checks are the ones every plan of ours passes; a plan that fails one is replaced.
 */
export function planProblem(action: TDecisionAction, levels: PlanNumbers, ind: TIndicators): string | null {
  const price = ind.price;
  const atr = ind.atr14 ?? null;
  if (price === null || atr === null || !(atr > 0)) return null;
  const { ideal_buy: ideal, secondary_buy: secondary, stop_loss: stop, take_profit: target } = levels;
  for (const [name, value] of Object.entries(levels)) {
    if (value === null || (name === "ideal_buy" && value === price)) continue;
    if (Math.abs(value - price) < MIN_GAP_ATR * atr) return `${name} ${value} is within 0.3 ATR of the price ${price}`;
  }
  if (SHORT.includes(action)) {
    if (ideal !== null || secondary !== null) return `a ${action} call has no buy levels`;
    if (stop !== null && !(stop > price)) return `a ${action} call's stop must be above the price`;
    if (target !== null && !(target < price)) return `a ${action} call's target must be below the price`;
    return null;
  }
  if (action === "hold") {
    if (ideal !== null || secondary !== null) return "a hold call has no buy levels";
    if (stop !== null && !(stop < price)) return "a hold call's stop must be below the price";
    if (target !== null && !(target > price)) return "a hold call's target must be above the price";
    return null;
  }
  if (action === "watch") {
    // The two levels that would change the verdict: a breakout above (ideal_buy) and a breakdown below (stop_loss).
    if (secondary !== null) return "a watch call has no second buy level";
    if (ideal !== null && !(ideal > price))
      return `a watch call's buy level is a breakout above the price, not ${ideal}`;
    if (stop !== null && !(stop < price)) return "a watch call's breakdown level must be below the price";
    return null;
  }
  if (!LONG.includes(action)) return null;
  if (ideal === null || stop === null) return `a ${action} call needs an entry and a stop`;
  const breakout = ind.high_20 !== null && ideal >= ind.high_20;
  if (ideal > price && !breakout)
    return `the ideal buy ${ideal} is above the price ${price} without a breakout above the 20-day high`;
  const risk = ideal - stop;
  if (risk < STOP_MIN_ATR * atr - 1e-9 || risk > STOP_MAX_ATR * atr + 1e-9)
    return `the stop is ${(risk / atr).toFixed(2)} ATR under the entry (1–3 required)`;
  if (secondary !== null && !(secondary < ideal && secondary > stop))
    return "the secondary buy must lie between the stop and the ideal buy";
  if (target !== null && target - ideal < MIN_REWARD_RISK * risk - 1e-9)
    return `the target pays ${((target - ideal) / risk).toFixed(2)} × the risk (1.5 required)`;
  return null;
}
