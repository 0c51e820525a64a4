import {
  DOWN_FILL,
  DOWN_FILL_DEEP,
  DOWN_FILL_PALE,
  DOWN_TEXT,
  UP_FILL,
  UP_FILL_PALE,
  UP_TEXT,
} from "@/components/analysis/tone";
import type { TSignalAction, TSignalStatus } from "@/lib/signals/schemas";

// Display helpers of the Signals page, shared by its server and client components.

/** A label from a dictionary map; a value the map does not know shows as stored. */
export function labelOf(map: Readonly<Record<string, string>>, value: string | null | undefined): string {
  if (value === null || value === undefined) return "—";
  return Object.hasOwn(map, value) ? map[value]! : value;
}

// Status badges: active stands out (accent), the terminal statuses are quieter, closed and archived quietest.
const STATUS_TONES: Record<TSignalStatus, string> = {
  active: "border-accent/40 bg-accent-soft text-accent",
  expired: "border-line bg-subtle text-muted",
  invalidated:
    "border-amber-500/40 bg-amber-50 text-amber-800 dark:border-amber-400/30 dark:bg-amber-950/60 dark:text-amber-300",
  closed: "border-line bg-surface text-fg",
  archived: "border-dashed border-line bg-transparent text-muted",
};

export function statusTone(status: TSignalStatus): string {
  return STATUS_TONES[status];
}

// Solid fills for chart bars and legend swatches: buying sides shades of the "up" colour, selling sides shades of
// the "down" colour (the user's price convention).
const ACTION_FILLS: Record<TSignalAction, string> = {
  buy: UP_FILL,
  add: UP_FILL_PALE,
  hold: "bg-sky-500 dark:bg-sky-400",
  watch: "bg-slate-400 dark:bg-slate-500",
  reduce: DOWN_FILL_PALE,
  sell: DOWN_FILL,
  avoid: DOWN_FILL_DEEP,
  alert: "bg-amber-500 dark:bg-amber-400",
};

export function actionFill(action: TSignalAction): string {
  return ACTION_FILLS[action];
}

/** The "up" colour for a gain, the "down" colour for a loss (the user's convention), plain for zero or unknown. */
export function returnText(value: number | null | undefined): string {
  if (value === null || value === undefined || value === 0) return "";
  return value > 0 ? UP_TEXT : DOWN_TEXT;
}

export function returnFill(value: number): string {
  return value >= 0 ? UP_FILL : DOWN_FILL;
}

export function formatPct(value: number | null | undefined, digits = 1): string {
  return value === null || value === undefined || !Number.isFinite(value) ? "—" : `${value.toFixed(digits)}%`;
}

export function formatRange(low: number | null, high: number | null): string {
  if (low === null && high === null) return "—";
  if (low !== null && high !== null) return low === high ? low.toFixed(2) : `${low.toFixed(2)}–${high.toFixed(2)}`;
  return (low ?? high)!.toFixed(2);
}

/** Confidence 0–1 as a whole percentage. */
export function formatConfidence(value: number | null): string {
  return value === null ? "—" : `${Math.round(value * 100)}%`;
}
