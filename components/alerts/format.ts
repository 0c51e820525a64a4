import type { TAlertParameters, TAlertRule, TAlertType } from "@/lib/alerts/schemas";
import type { Dictionary } from "@/lib/i18n/dictionaries/types";

// Display helpers of the Alerts page (server and client components alike). The lists mirror lib/alerts/schemas
// without importing its zod schemas into the browser bundle; the Record types keep them complete.

export type AlertTexts = Dictionary["alertsUi"];
export type ParameterKey = keyof TAlertParameters;
export type NumericParameter = Exclude<ParameterKey, "action">;

export const PARAMETER_OF: Record<TAlertType, ParameterKey> = {
  price_above: "price",
  price_below: "price",
  change_pct_beyond: "change_pct",
  volume_ratio_above: "ratio",
  signal_action: "action",
};
export const ALERT_TYPE_LIST = Object.keys(PARAMETER_OF) as TAlertType[];

const ACTIONS: Record<NonNullable<TAlertParameters["action"]>, true> = { buy: true, add: true, hold: true, reduce: true, sell: true, watch: true, avoid: true, alert: true };
export const SIGNAL_ACTION_LIST = Object.keys(ACTIONS) as NonNullable<TAlertParameters["action"]>[];

const SEVERITY: Record<TAlertRule["severity"], true> = { info: true, warning: true, critical: true };
export const SEVERITY_LIST = Object.keys(SEVERITY) as TAlertRule["severity"][];

/** A number as typed by a user (up to 4 decimals, no grouping), "—" when absent. */
export function plainNumber(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return "—";
  return String(Math.round(value * 10_000) / 10_000);
}

export function parameterValue(rule: Pick<TAlertRule, "alert_type" | "parameters">): string {
  const key = PARAMETER_OF[rule.alert_type];
  const value = rule.parameters[key];
  return value === undefined ? "" : String(value);
}

/** "价格高于 1400" / "Daily change beyond ± 5%" / "New decision signal: Sell". */
export function conditionText(t: AlertTexts, rule: Pick<TAlertRule, "alert_type" | "parameters">): string {
  const p = rule.parameters;
  switch (rule.alert_type) {
    case "price_above":
    case "price_below":
      return `${t.types[rule.alert_type]} ${plainNumber(p.price)}`;
    case "change_pct_beyond":
      return `${t.types.change_pct_beyond}${plainNumber(p.change_pct)}%`;
    case "volume_ratio_above":
      return `${t.types.volume_ratio_above} ${plainNumber(p.ratio)}`;
    case "signal_action":
      return `${t.types.signal_action} ${p.action ? t.actions[p.action] : "—"}`;
  }
}

/** An input without a width (the caller sets one); FIELD fills its cell. */
export const FIELD_BASE =
  "h-8 min-w-0 rounded-md border border-line bg-surface px-2 text-sm tabular-nums focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-accent";
export const FIELD = `${FIELD_BASE} w-full`;
export const LABEL = "flex min-w-0 flex-col gap-1 text-xs font-medium text-muted";
export const PRIMARY_BUTTON =
  "inline-flex h-8 shrink-0 items-center justify-center rounded-md bg-accent px-3 text-sm font-semibold whitespace-nowrap text-accent-fg hover:bg-accent/90 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-accent disabled:cursor-progress disabled:opacity-70";
export const SMALL_BUTTON =
  "inline-flex h-7 shrink-0 items-center rounded-md border border-line bg-surface px-2 text-xs font-medium whitespace-nowrap hover:bg-subtle focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-accent disabled:cursor-progress disabled:opacity-60";
export const ERROR_TEXT = "text-sm font-medium text-amber-700 dark:text-amber-400";
export const TH = "px-2 py-1.5 text-left text-xs font-medium whitespace-nowrap text-muted";
export const TD = "px-2 py-1.5 align-middle";
