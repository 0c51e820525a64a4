import { z } from "zod";

export const ALERT_TYPES = ["price_above", "price_below", "change_pct_beyond", "volume_ratio_above", "signal_action"] as const;
export type TAlertType = (typeof ALERT_TYPES)[number];
export const SIGNAL_ACTIONS = ["buy", "add", "hold", "reduce", "sell", "watch", "avoid", "alert"] as const;
export const SEVERITIES = ["info", "warning", "critical"] as const;
export const TRIGGER_STATUSES = ["sent", "failed", "suppressed"] as const;
export const TRIGGER_PAGE_SIZE = { min: 1, max: 100, default: 20 } as const;

// Each type reads one parameter: price (price_above/below), change_pct (|daily change %| at least this),
// ratio (volume ratio at least this), action (a new decision signal with this action).
export const ZAlertParameters = z
  .object({
    price: z.number().positive().finite().optional(),
    change_pct: z.number().positive().max(100).optional(),
    ratio: z.number().positive().max(1000).optional(),
    action: z.enum(SIGNAL_ACTIONS).optional(),
  })
  .strict()
  .meta({ id: "AlertParameters" });
export type TAlertParameters = z.infer<typeof ZAlertParameters>;

const REQUIRED_PARAMETER: Record<TAlertType, keyof TAlertParameters> = {
  price_above: "price",
  price_below: "price",
  change_pct_beyond: "change_pct",
  volume_ratio_above: "ratio",
  signal_action: "action",
};

export function requiredParameter(type: TAlertType): keyof TAlertParameters {
  return REQUIRED_PARAMETER[type];
}

export const ZAlertRuleCreate = z
  .object({
    name: z.string().trim().min(1).max(100).optional().describe("Defaults to a description of the condition"),
    alert_type: z.enum(ALERT_TYPES),
    target: z.string().trim().min(1).max(32).describe("Stock or index code (any accepted form: 600519, sh600519, 0700.HK, AAPL)"),
    parameters: ZAlertParameters,
    severity: z.enum(SEVERITIES).default("warning"),
    enabled: z.boolean().default(true),
    cooldown_minutes: z.number().int().min(0).max(10_080).default(60),
  })
  .meta({ id: "AlertRuleCreate" });
export type TAlertRuleCreate = z.infer<typeof ZAlertRuleCreate>;

export const ZAlertRuleUpdate = z
  .object({
    name: z.string().trim().min(1).max(100).optional(),
    parameters: ZAlertParameters.optional(),
    severity: z.enum(SEVERITIES).optional(),
    enabled: z.boolean().optional(),
    cooldown_minutes: z.number().int().min(0).max(10_080).optional(),
  })
  .meta({ id: "AlertRuleUpdate" });
export type TAlertRuleUpdate = z.infer<typeof ZAlertRuleUpdate>;

export const ZAlertRule = z
  .object({
    id: z.number().int(),
    name: z.string(),
    alert_type: z.enum(ALERT_TYPES),
    target: z.string(),
    market: z.string(),
    parameters: ZAlertParameters,
    severity: z.enum(SEVERITIES),
    enabled: z.boolean(),
    cooldown_minutes: z.number().int(),
    armed: z.boolean().describe("false after a firing until the condition has been false again (one crossing fires once)"),
    last_value: z.number().nullable(),
    last_checked_at: z.string().nullable(),
    last_triggered_at: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: "AlertRule" });
export type TAlertRule = z.infer<typeof ZAlertRule>;

export const ZAlertRuleList = z.object({ items: z.array(ZAlertRule), total: z.number().int() }).meta({ id: "AlertRuleListResponse" });

export const ZAlertRuleParams = z.object({ rule_id: z.coerce.number().int().positive() });

// CONTRACT.md §6 AlertTriggerListResponse item, plus alert_type and the notification message.
export const ZAlertTriggerItem = z
  .object({
    id: z.number().int(),
    rule_id: z.number().int().nullable(),
    alert_type: z.string(),
    target: z.string(),
    observed_value: z.number().nullable(),
    threshold: z.number().nullable(),
    reason: z.string().nullable(),
    message: z.string(),
    data_source: z.string().nullable(),
    data_timestamp: z.string().nullable(),
    triggered_at: z.string(),
    status: z.enum(TRIGGER_STATUSES),
    diagnostics: z.record(z.string(), z.unknown()).nullable(),
  })
  .meta({ id: "AlertTriggerItem" });
export type TAlertTriggerItem = z.infer<typeof ZAlertTriggerItem>;

export const ZAlertTriggerListQuery = z.object({
  rule_id: z.coerce.number().int().positive().optional(),
  // Spec 4.6 types both as plain strings: a value that names nothing matches nothing (not a 422).
  target: z.string().trim().optional(),
  status: z.string().optional().describe(`Trigger status (${TRIGGER_STATUSES.join(", ")})`),
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(TRIGGER_PAGE_SIZE.min).max(TRIGGER_PAGE_SIZE.max).default(TRIGGER_PAGE_SIZE.default),
});
export type TAlertTriggerListQuery = z.infer<typeof ZAlertTriggerListQuery>;

export const ZAlertTriggerListResponse = z
  .object({ items: z.array(ZAlertTriggerItem), total: z.number().int(), page: z.number().int(), page_size: z.number().int() })
  .meta({ id: "AlertTriggerListResponse" });
export type TAlertTriggerListResponse = z.infer<typeof ZAlertTriggerListResponse>;

export const ZAlertCheck = z
  .object({
    rule_id: z.number().int(),
    target: z.string(),
    evaluated: z.boolean().describe("false when skipped (outside trading hours, no data)"),
    met: z.boolean(),
    observed_value: z.number().nullable(),
    threshold: z.number().nullable(),
    reason: z.string(),
  })
  .meta({ id: "AlertCheck" });
export type TAlertCheck = z.infer<typeof ZAlertCheck>;

export const ZAlertEvaluation = z
  .object({ checked: z.array(ZAlertCheck), triggers: z.array(ZAlertTriggerItem) })
  .meta({ id: "AlertEvaluationResponse" });
export type TAlertEvaluation = z.infer<typeof ZAlertEvaluation>;
