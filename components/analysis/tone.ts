import type { TAnalysisReport } from "@/lib/history/schemas";
import { isPriceColors, PRICE_CHART_HEX, priceColorsForLanguage, type PriceColors } from "@/lib/theme/price-colors";

// Price colours follow the user's market convention (ARCHITECTURE.md "The web UI"): "up" is red and
// "down" green for China-style users, the other way round for the others. The classes below never name a hue:
// they read the --price-up-* / --price-down-* custom properties that PriceColorStyle (price-color-style.tsx)
// writes from the user's setting, so one class renders the right colour on the server and the client alike.
// Shades: text 700 in light mode and 400 in dark mode (WCAG AA on the page surfaces), fills 500 / 400.

export const UP_TEXT = "text-(--price-up-700) dark:text-(--price-up-400)";
export const DOWN_TEXT = "text-(--price-down-700) dark:text-(--price-down-400)";

/** Solid fills (bars, swatches) of the two sides, and a paler one for the milder action of each side. */
export const UP_FILL = "bg-(--price-up-500) dark:bg-(--price-up-400)";
export const DOWN_FILL = "bg-(--price-down-500) dark:bg-(--price-down-400)";
export const UP_FILL_PALE = "bg-(--price-up-300) dark:bg-(--price-up-300)/80";
export const DOWN_FILL_PALE = "bg-(--price-down-300) dark:bg-(--price-down-300)/80";
export const DOWN_FILL_DEEP = "bg-(--price-down-700) dark:bg-(--price-down-600)";

/** SVG lines and areas of a falling series (a drawdown). */
export const DOWN_STROKE = "stroke-(--price-down-600) dark:stroke-(--price-down-400)";
export const DOWN_AREA = "fill-(--price-down-600)/25 dark:fill-(--price-down-400)/25";

export function directionText(dir: "up" | "down" | "flat"): string {
  return dir === "up" ? UP_TEXT : dir === "down" ? DOWN_TEXT : "text-fg";
}

type Action = NonNullable<TAnalysisReport["summary"]["action"]>;

const UP_BADGE =
  "border-(--price-up-700)/30 bg-(--price-up-50) text-(--price-up-700) dark:border-(--price-up-400)/30 dark:bg-(--price-up-950)/60 dark:text-(--price-up-300)";
const DOWN_BADGE =
  "border-(--price-down-700)/30 bg-(--price-down-50) text-(--price-down-700) dark:border-(--price-down-400)/30 dark:bg-(--price-down-950)/60 dark:text-(--price-down-300)";

// Buying sides take the "up" colour and selling sides the "down" colour; waiting is neutral, alerts amber.
const ACTION_TONES: Record<Action, string> = {
  buy: UP_BADGE,
  add: UP_BADGE,
  hold: "border-accent/30 bg-accent-soft text-accent",
  watch: "border-line bg-subtle text-fg",
  reduce: DOWN_BADGE,
  sell: DOWN_BADGE,
  avoid: DOWN_BADGE,
  alert:
    "border-amber-500/40 bg-amber-50 text-amber-800 dark:border-amber-400/30 dark:bg-amber-950/60 dark:text-amber-300",
};

export function actionTone(action: Action | null): string {
  return action ? ACTION_TONES[action] : ACTION_TONES.watch;
}

/** The score bar's fill: high (bullish) scores take the "up" colour, low (bearish) the "down" colour, the middle amber. */
export function scoreFill(score: number): string {
  if (score >= 60) return UP_FILL;
  if (score <= 40) return DOWN_FILL;
  return "bg-amber-500 dark:bg-amber-400";
}

/**
 * Client code only: the convention the page was rendered with and the canvas colours of "up" and "down", read from
 * the custom properties of PriceColorStyle; without them (a page outside the (ui) layout) the UI language decides.
 */
export function documentPriceColors(): { colors: PriceColors; up: string; down: string } {
  const css = getComputedStyle(document.documentElement);
  const declared = css.getPropertyValue("--price-colors").trim();
  const colors = isPriceColors(declared) ? declared : priceColorsForLanguage(document.documentElement.lang);
  const fallback =
    colors === "red_up"
      ? { up: PRICE_CHART_HEX.red, down: PRICE_CHART_HEX.green }
      : { up: PRICE_CHART_HEX.green, down: PRICE_CHART_HEX.red };
  return {
    colors,
    up: css.getPropertyValue("--price-up-chart").trim() || fallback.up,
    down: css.getPropertyValue("--price-down-chart").trim() || fallback.down,
  };
}
