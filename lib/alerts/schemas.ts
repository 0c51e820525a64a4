import { z } from "zod";
import { ALERT_TYPES, TARGET_SCOPES, ZAlertParameters } from "./parameters";
import { DB_ID_MAX } from "@/lib/db/id-range";

// Wire records of the Alerts API in the reference client's shapes (docs/api.md §12.2, which wins over §6).
// Fields beyond §12 are ours (targets, message, alert_type on triggers, the evaluate endpoint).

export {
  ALERT_TYPES,
  TARGET_SCOPES,
  SIGNAL_ACTIONS,
  type TAlertType,
  type TTargetScope,
  type TAlertParameters,
} from "./parameters";
export const SEVERITIES = ["info", "warning", "critical"] as const;
export const TRIGGER_STATUSES = ["triggered", "skipped", "degraded", "failed"] as const;
export const TARGET_STATUSES = ["triggered", "not_triggered", "skipped", "evaluation_error"] as const;
export const DELIVERY_STATUSES = ["sent", "failed", "suppressed"] as const;
export const PAGE_SIZE = { min: 1, max: 100, default: 20 } as const;
export const DEFAULT_COOLDOWN_SECONDS = 3600;
export const MAX_COOLDOWN_SECONDS = 7 * 24 * 3600;

const page = z.coerce.number().int().min(1).default(1);
const pageSize = z.coerce.number().int().min(PAGE_SIZE.min).max(PAGE_SIZE.max).default(PAGE_SIZE.default);
const pageOf = <T extends z.ZodType>(item: T) => ({
  items: z.array(item),
  total: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
});

export const ZCooldownPolicy = z
  .object({
    cooldown_seconds: z
      .number()
      .int()
      .min(0)
      .max(MAX_COOLDOWN_SECONDS)
      .describe(`Minimum spacing of one target's sent firings; 0 = none (default ${DEFAULT_COOLDOWN_SECONDS})`),
  })
  .meta({ id: "AlertCooldownPolicy" });

export const ZNotificationPolicy = z.record(z.string(), z.unknown()).meta({
  id: "AlertNotificationPolicy",
  description: "Stored and returned as sent; alerts go to NOTIFICATION_ALERT_CHANNELS",
});

const ruleFields = {
  name: z.string().trim().max(100).optional().describe("Blank or absent: named from the condition"),
  severity: z.enum(SEVERITIES),
  enabled: z.boolean(),
  cooldown_policy: ZCooldownPolicy.optional(),
  notification_policy: ZNotificationPolicy.nullable().optional(),
};

export const ZAlertRuleCreate = z
  .object({
    ...ruleFields,
    target_scope: z.enum(TARGET_SCOPES).default("single_symbol"),
    target: z
      .string()
      .trim()
      .min(1)
      .max(64)
      .describe(
        'single_symbol: a stock or index code (any accepted form); watchlist: "default"; portfolio_holdings / portfolio_account: "all" or an account id; market: cn, hk or us',
      ),
    alert_type: z
      .string()
      .trim()
      .min(1)
      .max(64)
      .describe(`One of ${ALERT_TYPES.join(", ")}; another value is 400 unsupported_alert_type`),
    parameters: z
      .record(z.string(), z.unknown())
      .default({})
      .describe("Keys per alert_type: see AlertParameters; wrong keys or values are 400 validation_error"),
    severity: ruleFields.severity.default("warning"),
    enabled: ruleFields.enabled.default(true),
  })
  .meta({ id: "AlertRuleCreate" });
export type TAlertRuleCreate = z.infer<typeof ZAlertRuleCreate>;

export const ZAlertRuleUpdate = z
  .object({
    ...ruleFields,
    parameters: z
      .record(z.string(), z.unknown())
      .optional()
      .describe("The whole parameters object of the rule's type (re-arms every target)"),
    severity: ruleFields.severity.optional(),
    enabled: ruleFields.enabled.optional(),
  })
  .meta({ id: "AlertRuleUpdate" });
export type TAlertRuleUpdate = z.infer<typeof ZAlertRuleUpdate>;

export const ZAlertTargetState = z
  .object({
    target: z.string(),
    armed: z
      .boolean()
      .describe("false after a firing until the condition has been false again (one crossing fires once)"),
    last_value: z.number().nullable(),
    last_status: z.string().nullable().describe("triggered, not_triggered, skipped, degraded or failed"),
    last_checked_at: z.string().nullable(),
    last_triggered_at: z.string().nullable(),
  })
  .meta({ id: "AlertTargetState" });
export type TAlertTargetState = z.infer<typeof ZAlertTargetState>;

// docs/api.md §12.2.2: the rule read back (list items, create, enable, disable, PATCH).
export const ZAlertRule = z
  .object({
    id: z.number().int(),
    name: z.string(),
    target_scope: z.enum(TARGET_SCOPES),
    target: z.string(),
    alert_type: z.enum(ALERT_TYPES),
    parameters: ZAlertParameters,
    severity: z.enum(SEVERITIES),
    enabled: z.boolean(),
    source: z.string().describe("api: created through the API (the web pages use it too)"),
    cooldown_policy: ZCooldownPolicy,
    notification_policy: ZNotificationPolicy.nullable(),
    last_triggered_at: z.string().nullable().describe("The latest firing of any of the rule's targets"),
    cooldown_until: z.string().nullable().describe("last_triggered_at + cooldown_seconds"),
    cooldown_active: z.boolean(),
    created_at: z.string(),
    updated_at: z.string(),
    targets: z.array(ZAlertTargetState).describe("What the evaluator remembers of each target it has checked (ours)"),
  })
  .meta({ id: "AlertRule" });
export type TAlertRule = z.infer<typeof ZAlertRule>;

export const ZAlertRuleListQuery = z.object({
  enabled: z.stringbool().optional(),
  alert_type: z.string().trim().optional(),
  target_scope: z.string().trim().optional(),
  target: z.string().trim().optional().describe("single_symbol rules match any code form of their stock"),
  source: z.string().trim().optional(),
  page,
  page_size: pageSize,
});
export type TAlertRuleListQuery = z.infer<typeof ZAlertRuleListQuery>;

export const ZAlertRuleList = z.object(pageOf(ZAlertRule)).meta({ id: "AlertRuleListResponse" });
export type TAlertRuleList = z.infer<typeof ZAlertRuleList>;

export const ZAlertRuleParams = z.object({ rule_id: z.coerce.number().int().positive().max(DB_ID_MAX) });

// One target of one evaluation (a test's target_results, the evaluate endpoint's checks).
export const ZAlertTargetResult = z
  .object({
    target: z.string(),
    display_target: z.string(),
    status: z
      .enum(TARGET_STATUSES)
      .describe("skipped: not checked (market closed, no data); evaluation_error: a data source failed"),
    record_status: z
      .enum(TRIGGER_STATUSES)
      .nullable()
      .describe("What the evaluator records for this outcome (null: nothing)"),
    triggered: z.boolean().describe("The condition holds now"),
    observed_value: z.number().nullable(),
    threshold: z.number().nullable(),
    message: z.string(),
    data_source: z.string().nullable(),
    data_timestamp: z.string().nullable(),
  })
  .meta({ id: "AlertTargetResult" });
export type TAlertTargetResult = z.infer<typeof ZAlertTargetResult>;

// docs/api.md §12.2.3: POST /rules/{id}/test.
export const ZAlertTestResult = z
  .object({
    rule_id: z.number().int(),
    target_scope: z.enum(TARGET_SCOPES),
    status: z.enum(["triggered", "not_triggered", "evaluation_error"]),
    triggered: z.boolean(),
    observed_value: z.number().nullable().describe("Of the first triggered target, else of the first checked one"),
    message: z.string(),
    evaluated_count: z.number().int(),
    triggered_count: z.number().int(),
    degraded_count: z.number().int().describe("Targets whose data source failed"),
    skipped_count: z.number().int(),
    target_results: z.array(ZAlertTargetResult),
  })
  .meta({ id: "AlertTestResult" });
export type TAlertTestResult = z.infer<typeof ZAlertTestResult>;

export const ZDataQuality = z.object({
  level: z.enum(["complete", "partial"]),
  limitations: z.array(z.string()),
});

// docs/api.md §12.2.4 (wins over §6): a trigger record.
export const ZAlertTriggerItem = z
  .object({
    id: z.number().int(),
    rule_id: z.number().int().nullable(),
    alert_type: z.string(),
    target_scope: z.string().nullable(),
    target: z.string(),
    observed_value: z.number().nullable(),
    threshold: z.number().nullable(),
    reason: z.string().nullable(),
    message: z.string(),
    data_source: z.string().nullable(),
    data_timestamp: z.string().nullable(),
    triggered_at: z.string(),
    status: z.enum(TRIGGER_STATUSES),
    diagnostics: z
      .record(z.string(), z.unknown())
      .nullable()
      .describe(
        "severity, delivery_status (sent, failed, suppressed) and delivery of a firing; the figures behind a check",
      ),
    market_phase_summary: z
      .record(z.string(), z.unknown())
      .nullable()
      .describe("The target market's phase when it was checked"),
    analysis_context_pack_overview: z.object({ data_quality: ZDataQuality }).nullable(),
  })
  .meta({ id: "AlertTriggerItem" });
export type TAlertTriggerItem = z.infer<typeof ZAlertTriggerItem>;

export const ZAlertTriggerListQuery = z.object({
  rule_id: z.coerce.number().int().positive().max(DB_ID_MAX).optional(),
  // Spec 4.6 types both as plain strings: a value that names nothing matches nothing (not a 422).
  target: z.string().trim().optional(),
  status: z
    .string()
    .optional()
    .describe(`Trigger status (${TRIGGER_STATUSES.join(", ")})`),
  page,
  page_size: pageSize,
});
export type TAlertTriggerListQuery = z.infer<typeof ZAlertTriggerListQuery>;

export const ZAlertTriggerListResponse = z.object(pageOf(ZAlertTriggerItem)).meta({ id: "AlertTriggerListResponse" });
export type TAlertTriggerListResponse = z.infer<typeof ZAlertTriggerListResponse>;

// docs/api.md §12.2.5: one notification attempt of a trigger, from notification_delivery.
export const NOTIFICATION_ERROR_CODES = [
  "cooldown_active",
  "no_channel",
  "noise_suppressed",
  "delivery_failed",
] as const;
export const ZAlertNotification = z
  .object({
    id: z.number().int(),
    trigger_id: z.number().int().nullable(),
    channel: z.string().describe('The channel (custom#2 for a further webhook), or "none" when nothing was sent'),
    attempt: z.number().int().describe("Sends tried (0 when held back)"),
    success: z.boolean(),
    error_code: z
      .string()
      .nullable()
      .describe(`${NOTIFICATION_ERROR_CODES.join(", ")}; null on success`),
    retryable: z.boolean().describe("A failed send (a later firing may get through); false for held-back ones"),
    latency_ms: z.number().int().nullable(),
    diagnostics: z.string().nullable().describe("The sanitised reason (no token, no webhook URL)"),
    created_at: z.string(),
  })
  .meta({ id: "AlertNotification" });
export type TAlertNotification = z.infer<typeof ZAlertNotification>;

export const ZAlertNotificationListQuery = z.object({
  trigger_id: z.coerce.number().int().positive().max(DB_ID_MAX).optional(),
  channel: z.string().trim().optional(),
  success: z.stringbool().optional(),
  page,
  page_size: pageSize,
});
export type TAlertNotificationListQuery = z.infer<typeof ZAlertNotificationListQuery>;

export const ZAlertNotificationList = z
  .object(pageOf(ZAlertNotification))
  .meta({ id: "AlertNotificationListResponse" });
export type TAlertNotificationList = z.infer<typeof ZAlertNotificationList>;

export const ZAlertCheck = ZAlertTargetResult.extend({
  rule_id: z.number().int(),
  alert_type: z.enum(ALERT_TYPES),
}).meta({ id: "AlertCheck" });
export type TAlertCheck = z.infer<typeof ZAlertCheck>;

export const ZAlertEvaluation = z
  .object({
    checked: z.array(ZAlertCheck).describe("One per rule and target"),
    triggers: z.array(ZAlertTriggerItem).describe("Records written by this pass"),
  })
  .meta({ id: "AlertEvaluationResponse" });
export type TAlertEvaluation = z.infer<typeof ZAlertEvaluation>;
