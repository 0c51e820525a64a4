import { z } from "zod";

// The alert types of docs/api.md §12.2.1 (what the reference's web client offers) plus ours (signal_action), the
// target scopes each may use, and each type's parameters: one strict schema per type, with the client's defaults.

export const SYMBOL_ALERT_TYPES = [
  "price_cross",
  "price_change_percent",
  "volume_spike",
  "ma_price_cross",
  "rsi_threshold",
  "macd_cross",
  "kdj_cross",
  "cci_threshold",
] as const;
export const PORTFOLIO_ALERT_TYPES = [
  "portfolio_stop_loss",
  "portfolio_concentration",
  "portfolio_drawdown",
  "portfolio_price_stale",
] as const;
export const MARKET_ALERT_TYPES = ["market_light_status", "market_light_score_drop"] as const;
/** Ours: a new decision signal with this action for one stock. */
export const SIGNAL_ALERT_TYPE = "signal_action" as const;
export const ALERT_TYPES = [
  ...SYMBOL_ALERT_TYPES,
  ...PORTFOLIO_ALERT_TYPES,
  ...MARKET_ALERT_TYPES,
  SIGNAL_ALERT_TYPE,
] as const;
export type TAlertType = (typeof ALERT_TYPES)[number];
export type TSymbolAlertType = (typeof SYMBOL_ALERT_TYPES)[number];
export type TPortfolioAlertType = (typeof PORTFOLIO_ALERT_TYPES)[number];
export type TMarketAlertType = (typeof MARKET_ALERT_TYPES)[number];

export const TARGET_SCOPES = [
  "single_symbol",
  "watchlist",
  "portfolio_holdings",
  "portfolio_account",
  "market",
] as const;
export type TTargetScope = (typeof TARGET_SCOPES)[number];

export const SIGNAL_ACTIONS = ["buy", "add", "hold", "reduce", "sell", "watch", "avoid", "alert"] as const;
export const MARKET_REGIONS = ["cn", "hk", "us"] as const;
export const MARKET_LIGHT_STATUSES = ["red", "yellow"] as const;

const SYMBOL_SCOPES = ["single_symbol", "watchlist", "portfolio_holdings"] as const satisfies readonly TTargetScope[];

/** The scopes a type may be evaluated over (§12.2.1: the form offers each type only with these). */
export function scopesOf(type: TAlertType): readonly TTargetScope[] {
  if (type === SIGNAL_ALERT_TYPE) return ["single_symbol"];
  if ((PORTFOLIO_ALERT_TYPES as readonly string[]).includes(type)) return ["portfolio_account"];
  if ((MARKET_ALERT_TYPES as readonly string[]).includes(type)) return ["market"];
  return SYMBOL_SCOPES;
}

export function isAlertType(value: string): value is TAlertType {
  return (ALERT_TYPES as readonly string[]).includes(value);
}

const period = (fallback: number) => z.number().int().min(2).max(250).default(fallback);
const positive = z.number().positive();
const aboveBelow = z.enum(["above", "below"]);
const crossDirection = z.enum(["bullish_cross", "bearish_cross"]);
// The longest history an indicator rule may need: a year of trading days and a bit.
const MAX_LOOKBACK = 365;

const price_cross = z
  .object({ direction: aboveBelow, price: positive.describe("The price the current price crosses") })
  .strict()
  .meta({ id: "AlertParameters_price_cross" });
const price_change_percent = z
  .object({
    direction: z.enum(["up", "down"]),
    change_pct: positive.describe("Percent (3 = 3 %): up fires at a daily change ≥ +x, down at ≤ −x"),
  })
  .strict()
  .meta({ id: "AlertParameters_price_change_percent" });
const volume_spike = z
  .object({
    multiplier: positive.describe("The day's volume ratio at least this (the analysis engine's volume ratio)"),
  })
  .strict()
  .meta({ id: "AlertParameters_volume_spike" });
const ma_price_cross = z
  .object({ direction: aboveBelow, window: period(20).describe("MA window in daily bars") })
  .strict()
  .meta({ id: "AlertParameters_ma_price_cross" });
const rsi_threshold = z
  .object({ direction: aboveBelow, period: period(12), threshold: z.number().min(0).max(100) })
  .strict()
  .meta({ id: "AlertParameters_rsi_threshold" });
const macd_cross = z
  .object({ direction: crossDirection, fast_period: period(12), slow_period: period(26), signal_period: period(9) })
  .strict()
  .refine((p) => p.fast_period < p.slow_period, {
    message: "fast_period must be below slow_period",
    path: ["fast_period"],
  })
  .refine((p) => p.slow_period + p.signal_period + 1 <= MAX_LOOKBACK, {
    message: `slow_period + signal_period + 1 must be at most ${MAX_LOOKBACK}`,
    path: ["signal_period"],
  })
  .meta({ id: "AlertParameters_macd_cross" });
const kdj_cross = z
  .object({ direction: crossDirection, period: period(9), k_period: period(3), d_period: period(3) })
  .strict()
  .refine((p) => p.period + p.k_period + p.d_period + 1 <= MAX_LOOKBACK, {
    message: `period + k_period + d_period + 1 must be at most ${MAX_LOOKBACK}`,
    path: ["period"],
  })
  .meta({ id: "AlertParameters_kdj_cross" });
const cci_threshold = z
  .object({ direction: aboveBelow, period: period(14), threshold: z.number() })
  .strict()
  .meta({ id: "AlertParameters_cci_threshold" });
const portfolio_stop_loss = z
  .object({
    mode: z
      .enum(["near", "breach"])
      .default("breach")
      .describe("near: a holding within the near band of its stop; breach: a holding past its stop"),
  })
  .strict()
  .meta({ id: "AlertParameters_portfolio_stop_loss" });
const portfolio_concentration = z.object({}).strict().meta({ id: "AlertParameters_portfolio_concentration" });
const portfolio_drawdown = z.object({}).strict().meta({ id: "AlertParameters_portfolio_drawdown" });
const portfolio_price_stale = z.object({}).strict().meta({ id: "AlertParameters_portfolio_price_stale" });
const market_light_status = z
  .object({ statuses: z.array(z.enum(MARKET_LIGHT_STATUSES)).min(1).default(["red", "yellow"]) })
  .strict()
  .meta({ id: "AlertParameters_market_light_status" });
const market_light_score_drop = z
  .object({
    min_drop: positive.default(10).describe("Points the 0–100 market light score fell since the previous trading day"),
  })
  .strict()
  .meta({ id: "AlertParameters_market_light_score_drop" });
const signal_action = z
  .object({ action: z.enum(SIGNAL_ACTIONS) })
  .strict()
  .meta({ id: "AlertParameters_signal_action" });

export const PARAMETER_SCHEMAS = {
  price_cross,
  price_change_percent,
  volume_spike,
  ma_price_cross,
  rsi_threshold,
  macd_cross,
  kdj_cross,
  cci_threshold,
  portfolio_stop_loss,
  portfolio_concentration,
  portfolio_drawdown,
  portfolio_price_stale,
  market_light_status,
  market_light_score_drop,
  signal_action,
} as const satisfies Record<TAlertType, z.ZodType>;

export type TParametersOf<T extends TAlertType> = z.output<(typeof PARAMETER_SCHEMAS)[T]>;

/** A rule's parameters as stored and read back: one of the per-type objects. */
export const ZAlertParameters = z
  .union(Object.values(PARAMETER_SCHEMAS) as unknown as [z.ZodType, z.ZodType, ...z.ZodType[]])
  .meta({ id: "AlertParameters", description: "Keys per alert_type (snake_case), defaults filled in" });
export type TAlertParameters = { [T in TAlertType]: TParametersOf<T> }[TAlertType];

export type ParameterCheck = { ok: true; parameters: Record<string, unknown> } | { ok: false; message: string };

/** The type's parameters with defaults filled in (statuses deduplicated), or why they are refused. */
export function normalizeParameters(type: TAlertType, raw: unknown): ParameterCheck {
  const parsed = PARAMETER_SCHEMAS[type].safeParse(raw ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.length > 0 ? `parameters.${issue.path.join(".")}` : "parameters";
    return { ok: false, message: `${type}: ${where}: ${issue.message}` };
  }
  const parameters = { ...(parsed.data as Record<string, unknown>) };
  if (Array.isArray(parameters.statuses)) parameters.statuses = [...new Set(parameters.statuses as string[])];
  return { ok: true, parameters };
}
