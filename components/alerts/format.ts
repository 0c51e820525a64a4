import { fmt } from "@/components/settings/format";
import type { TAlertRule, TAlertTestResult, TAlertTriggerItem, TAlertType, TTargetScope } from "@/lib/alerts/schemas";
import type { Dictionary } from "@/lib/i18n/dictionaries/types";

// Display helpers of the Alerts page (server and client components alike). The lists mirror lib/alerts/parameters
// without importing its zod schemas into the browser bundle; the Record types keep them complete.

export type AlertTexts = Dictionary["alertsUi"];
export type Params = Record<string, unknown>;

/** One input of a type's parameters, with the form's default (docs/api.md §12.2.1). */
export type FieldSpec =
  | { key: string; kind: "number"; integer?: boolean; initial?: number }
  | { key: "direction" | "mode" | "action"; kind: "select"; options: readonly string[] }
  | { key: "statuses"; kind: "multi"; options: readonly string[] };

const ABOVE_BELOW = ["above", "below"] as const;
const CROSS = ["bullish_cross", "bearish_cross"] as const;
export const SIGNAL_ACTION_LIST = ["buy", "add", "hold", "reduce", "sell", "watch", "avoid", "alert"] as const;
const int = (key: string, initial: number): FieldSpec => ({ key, kind: "number", integer: true, initial });
const num = (key: string, initial?: number): FieldSpec => ({ key, kind: "number", initial });
const direction = (options: readonly string[]): FieldSpec => ({ key: "direction", kind: "select", options });

export const PARAMETER_FIELDS: Record<TAlertType, readonly FieldSpec[]> = {
  price_cross: [direction(ABOVE_BELOW), num("price")],
  price_change_percent: [direction(["up", "down"]), num("change_pct")],
  volume_spike: [num("multiplier")],
  ma_price_cross: [direction(ABOVE_BELOW), int("window", 20)],
  rsi_threshold: [direction(ABOVE_BELOW), int("period", 12), num("threshold", 70)],
  macd_cross: [direction(CROSS), int("fast_period", 12), int("slow_period", 26), int("signal_period", 9)],
  kdj_cross: [direction(CROSS), int("period", 9), int("k_period", 3), int("d_period", 3)],
  cci_threshold: [direction(ABOVE_BELOW), int("period", 14), num("threshold", 100)],
  portfolio_stop_loss: [{ key: "mode", kind: "select", options: ["near", "breach"] }],
  portfolio_concentration: [],
  portfolio_drawdown: [],
  portfolio_price_stale: [],
  market_light_status: [{ key: "statuses", kind: "multi", options: ["red", "yellow"] }],
  market_light_score_drop: [num("min_drop", 10)],
  signal_action: [{ key: "action", kind: "select", options: SIGNAL_ACTION_LIST }],
};
export const ALERT_TYPE_LIST = Object.keys(PARAMETER_FIELDS) as TAlertType[];

const SCOPES: Record<TTargetScope, readonly TAlertType[]> = {
  single_symbol: [
    "price_cross",
    "price_change_percent",
    "volume_spike",
    "ma_price_cross",
    "rsi_threshold",
    "macd_cross",
    "kdj_cross",
    "cci_threshold",
    "signal_action",
  ],
  watchlist: [
    "price_cross",
    "price_change_percent",
    "volume_spike",
    "ma_price_cross",
    "rsi_threshold",
    "macd_cross",
    "kdj_cross",
    "cci_threshold",
  ],
  portfolio_holdings: [
    "price_cross",
    "price_change_percent",
    "volume_spike",
    "ma_price_cross",
    "rsi_threshold",
    "macd_cross",
    "kdj_cross",
    "cci_threshold",
  ],
  portfolio_account: ["portfolio_stop_loss", "portfolio_concentration", "portfolio_drawdown", "portfolio_price_stale"],
  market: ["market_light_status", "market_light_score_drop"],
};
export const SCOPE_LIST = Object.keys(SCOPES) as TTargetScope[];
export const typesOf = (scope: TTargetScope): readonly TAlertType[] => SCOPES[scope];
export const REGION_LIST = ["cn", "hk", "us"] as const;

/** The parameter a row of the rules table edits in place (the type's threshold), when it has one. */
export const EDITABLE: Partial<Record<TAlertType, string>> = {
  price_cross: "price",
  price_change_percent: "change_pct",
  volume_spike: "multiplier",
  ma_price_cross: "window",
  rsi_threshold: "threshold",
  cci_threshold: "threshold",
  market_light_score_drop: "min_drop",
};

const SEVERITY: Record<TAlertRule["severity"], true> = { info: true, warning: true, critical: true };
export const SEVERITY_LIST = Object.keys(SEVERITY) as TAlertRule["severity"][];

/** A number as typed by a user (up to 4 decimals, no grouping), "—" when absent. */
export function plainNumber(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return "—";
  return String(Math.round(value * 10_000) / 10_000);
}

function label<T extends Record<string, string>>(map: T, key: unknown): string {
  return typeof key === "string" && key in map ? map[key as keyof T]! : String(key ?? "—");
}

/** "价格穿越 · 上穿 · 价格 1500" / "MACD cross · Golden cross · Fast period 12 · …"; `omit`: a parameter shown elsewhere. */
export function conditionText(
  t: AlertTexts,
  rule: Pick<TAlertRule, "alert_type" | "parameters">,
  omit?: string,
): string {
  const p = rule.parameters as Params;
  const parts = PARAMETER_FIELDS[rule.alert_type]
    .filter((field) => field.key !== omit)
    .map((field) => {
      const value = p[field.key];
      if (field.kind === "select") {
        const names = field.key === "direction" ? t.directions : field.key === "mode" ? t.modes : t.actions;
        return label(names, value);
      }
      if (field.kind === "multi") return Array.isArray(value) ? value.map((v) => label(t.lights, v)).join("/") : "—";
      return `${label(t.paramLabels, field.key)} ${plainNumber(value as number)}`;
    });
  return [label(t.types, rule.alert_type), ...parts].join(" · ");
}

/** Where a rule looks: a stock, the watchlist, all holdings or one account's, a market. */
export function targetText(
  t: AlertTexts,
  rule: Pick<TAlertRule, "target_scope" | "target">,
  accounts: ReadonlyMap<number, string> = new Map(),
): string {
  switch (rule.target_scope) {
    case "single_symbol":
      return rule.target;
    case "watchlist":
      return t.scopes.watchlist;
    case "portfolio_holdings":
    case "portfolio_account": {
      const scope = t.scopes[rule.target_scope];
      if (rule.target === "all") return `${scope} · ${t.allAccounts}`;
      const name = accounts.get(Number(rule.target));
      return `${scope} · ${name ? `${name} (#${rule.target})` : `#${rule.target}`}`;
    }
    case "market":
      return `${t.scopes.market} · ${label(t.regions, rule.target)}`;
  }
}

/** A triggered record in the page's language from its numbers; other records (and signals) keep the API's reason. */
export function triggerReason(
  t: AlertTexts,
  item: Pick<TAlertTriggerItem, "alert_type" | "status" | "observed_value" | "threshold" | "reason" | "message">,
): string {
  const template = t.triggerReasons[item.alert_type as keyof AlertTexts["triggerReasons"]];
  if (item.status !== "triggered" || !template || item.observed_value === null) return item.reason ?? item.message;
  const side = item.threshold === null || item.observed_value >= item.threshold ? template.up : template.down;
  return side
    .replace("{observed}", plainNumber(item.observed_value))
    .replace("{threshold}", plainNumber(item.threshold));
}

/**
 * A dry run's answer for one target in the page's language: a met condition as its trigger reason, an unmet one
 * as the rule's condition (the observed value and threshold are shown beside it); a skip or an error keeps the
 * API's reason, which names a data problem rather than the condition.
 */
export function testReason(
  t: AlertTexts,
  rule: Pick<TAlertRule, "alert_type" | "parameters">,
  target: TAlertTestResult["target_results"][number],
): string {
  if (target.status === "triggered")
    return triggerReason(t, { ...target, alert_type: rule.alert_type, status: "triggered", reason: null });
  if (target.status === "not_triggered") return fmt(t.testNotMet, { condition: conditionText(t, rule) });
  return target.message;
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
