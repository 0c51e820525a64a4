import type { TAnalysisReport } from "./schemas";

// The report's key levels as numbers, read once from the strategy texts the page shows, so the key
// levels list, the chart's price lines and the alert a level creates carry one price. The texts start with the
// price (lib/analysis/engine levelText: "1650.00（MA20）", "1650.00 (MA20)"; an LLM plan: "1650.00"); a text that
// does not start with a number names no price we could draw or alert on.

export const KEY_LEVEL_KEYS = ["ideal_buy", "secondary_buy", "stop_loss", "take_profit"] as const;
export type KeyLevelKey = (typeof KEY_LEVEL_KEYS)[number];

/** What a level means for its call: a watch call's "ideal buy" is the breakout above, its "stop" the breakdown below. */
export type KeyLevelKind = KeyLevelKey | "breakout" | "breakdown";

export interface KeyLevel {
  key: KeyLevelKey;
  kind: KeyLevelKind;
  /** The report's text, as shown. */
  text: string | null;
  /** The price the text starts with; null: no level, or none that can be drawn. */
  price: number | null;
  /** That price as the text writes it ("1650.00"). */
  priceText: string | null;
  /** The price_cross direction of an alert at this level: the side of the current price the level lies on. */
  direction: "above" | "below";
}

const LEADING_PRICE = /^\s*[¥$]?\s*(\d+(?:\.\d+)?)/;

function leadingPrice(text: string | null | undefined): { price: number; priceText: string } | null {
  const match = text ? LEADING_PRICE.exec(text) : null;
  if (!match) return null;
  const value = Number(match[1]);
  return Number.isFinite(value) && value > 0 ? { price: value, priceText: match[1]! } : null;
}

/** The price a strategy text starts with, or null. */
export function levelPrice(text: string | null | undefined): number | null {
  return leadingPrice(text)?.price ?? null;
}

function kindOf(key: KeyLevelKey, action: TAnalysisReport["summary"]["action"]): KeyLevelKind {
  if (action === "watch" && key === "ideal_buy") return "breakout";
  if (action === "watch" && key === "stop_loss") return "breakdown";
  return key;
}

/**
 * An alert fires when the price reaches the level, so its direction is the side of the current price the level is
 * on (a short call's stop is above the price); without a price, targets and breakouts are above, the rest below.
 */
function directionOf(kind: KeyLevelKind, price: number | null, current: number | null): "above" | "below" {
  if (price !== null && current !== null && Number.isFinite(current) && price !== current)
    return price > current ? "above" : "below";
  return kind === "take_profit" || kind === "breakout" ? "above" : "below";
}

/** The four levels of a report, in the order the page lists them. */
export function keyLevels(
  report: Pick<TAnalysisReport, "strategy" | "summary"> & { meta: Pick<TAnalysisReport["meta"], "current_price"> },
): KeyLevel[] {
  return KEY_LEVEL_KEYS.map((key) => {
    const text = report.strategy[key];
    const found = leadingPrice(text);
    const price = found?.price ?? null;
    const kind = kindOf(key, report.summary.action);
    return {
      key,
      kind,
      text,
      price,
      priceText: found?.priceText ?? null,
      direction: directionOf(kind, price, report.meta.current_price),
    };
  });
}
