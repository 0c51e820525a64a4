import type { TAnalysisReport } from "@/lib/history/schemas";

// A-share convention (ARCHITECTURE.md "The web UI"): red is up, green is down.
export const UP_TEXT = "text-red-600 dark:text-red-400";
export const DOWN_TEXT = "text-green-600 dark:text-green-400";

export function directionText(dir: "up" | "down" | "flat"): string {
  return dir === "up" ? UP_TEXT : dir === "down" ? DOWN_TEXT : "text-fg";
}

type Action = NonNullable<TAnalysisReport["summary"]["action"]>;

// Buying sides take the "up" colour and selling sides the "down" colour; waiting is neutral, alerts amber.
const ACTION_TONES: Record<Action, string> = {
  buy: "border-red-600/30 bg-red-50 text-red-700 dark:border-red-400/30 dark:bg-red-950/60 dark:text-red-300",
  add: "border-red-600/30 bg-red-50 text-red-700 dark:border-red-400/30 dark:bg-red-950/60 dark:text-red-300",
  hold: "border-accent/30 bg-accent-soft text-accent",
  watch: "border-line bg-subtle text-fg",
  reduce: "border-green-600/30 bg-green-50 text-green-700 dark:border-green-400/30 dark:bg-green-950/60 dark:text-green-300",
  sell: "border-green-600/30 bg-green-50 text-green-700 dark:border-green-400/30 dark:bg-green-950/60 dark:text-green-300",
  avoid: "border-green-600/30 bg-green-50 text-green-700 dark:border-green-400/30 dark:bg-green-950/60 dark:text-green-300",
  alert: "border-amber-500/40 bg-amber-50 text-amber-800 dark:border-amber-400/30 dark:bg-amber-950/60 dark:text-amber-300",
};

export function actionTone(action: Action | null): string {
  return action ? ACTION_TONES[action] : ACTION_TONES.watch;
}

/** The score bar's fill: high (bullish) scores red, low (bearish) green, the middle amber. */
export function scoreFill(score: number): string {
  if (score >= 60) return "bg-red-500 dark:bg-red-400";
  if (score <= 40) return "bg-green-500 dark:bg-green-400";
  return "bg-amber-500 dark:bg-amber-400";
}
