import { z } from "zod";
import { ZErrorResponse } from "@/lib/errors/schemas";
import { defineOperation, type Operation } from "@/lib/operation/operation";
import {
  ZAlertEvaluation,
  ZAlertNotificationList,
  ZAlertNotificationListQuery,
  ZAlertRule,
  ZAlertRuleCreate,
  ZAlertRuleList,
  ZAlertRuleListQuery,
  ZAlertRuleParams,
  ZAlertRuleUpdate,
  ZAlertTestResult,
  ZAlertTriggerListQuery,
  ZAlertTriggerListResponse,
} from "./schemas";

const TAGS = ["Alerts"];
const RULES =
  "Types and scopes (docs/api.md §12.2.1): price_cross, price_change_percent, volume_spike, ma_price_cross, rsi_threshold, " +
  "macd_cross, kdj_cross, cci_threshold over single_symbol, watchlist (target default: the STOCK_LIST setting) or " +
  "portfolio_holdings (all or an account id); portfolio_stop_loss, portfolio_concentration, portfolio_drawdown, " +
  "portfolio_price_stale over portfolio_account (all or an account id); market_light_status, market_light_score_drop over " +
  "market (cn, hk, us); signal_action (ours: a new decision signal of an action) over single_symbol. Price, change and " +
  "volume types compare the current one price (the quote when it is current, else the last close) with the threshold; " +
  "indicator types (the analysis engine's MA, RSI, MACD, KDJ, CCI on the daily bars with today's bar from the quote) fire " +
  "when the latest bar crosses. The evaluator runs every ALERT_EVAL_SECONDS; stock and market checks only while their " +
  "market trades (ALERT_TRADING_HOURS_ONLY). One crossing fires once per target: a target re-arms when its condition is " +
  "false again. A firing within cooldown_policy.cooldown_seconds of the target's previous one is recorded, not sent.";
const NOT_FOUND = { description: "not_found", schema: ZErrorResponse };
const BAD = {
  description:
    "validation_error: a parameter, target or scope the type does not take; unsupported_alert_type: an unknown alert_type",
  schema: ZErrorResponse,
};

export const listAlertRulesOp = defineOperation({
  method: "GET",
  path: "/api/v1/alerts/rules",
  operationId: "listAlertRules",
  summary: "Alert rules, oldest first, with filters and paging",
  description: RULES,
  tags: TAGS,
  query: ZAlertRuleListQuery,
  responses: { 200: { description: "One page of rules", schema: ZAlertRuleList } },
});

export const createAlertRuleOp = defineOperation({
  method: "POST",
  path: "/api/v1/alerts/rules",
  operationId: "createAlertRule",
  summary: "Create an alert rule",
  description: RULES,
  tags: TAGS,
  body: ZAlertRuleCreate,
  responses: { 201: { description: "Created", schema: ZAlertRule }, 400: BAD },
});

export const getAlertRuleOp = defineOperation({
  method: "GET",
  path: "/api/v1/alerts/rules/{rule_id}",
  operationId: "getAlertRule",
  summary: "One alert rule",
  tags: TAGS,
  params: ZAlertRuleParams,
  responses: { 200: { description: "The rule", schema: ZAlertRule }, 404: NOT_FOUND },
});

export const updateAlertRuleOp = defineOperation({
  method: "PATCH",
  path: "/api/v1/alerts/rules/{rule_id}",
  operationId: "updateAlertRule",
  summary: "Change an alert rule (name, parameters, severity, enabled, policies); type, scope and target stay",
  description: "A new parameters object re-arms every target.",
  tags: TAGS,
  params: ZAlertRuleParams,
  body: ZAlertRuleUpdate,
  responses: { 200: { description: "The updated rule", schema: ZAlertRule }, 400: BAD, 404: NOT_FOUND },
});

export const enableAlertRuleOp = defineOperation({
  method: "POST",
  path: "/api/v1/alerts/rules/{rule_id}/enable",
  operationId: "enableAlertRule",
  summary: "Enable an alert rule",
  tags: TAGS,
  params: ZAlertRuleParams,
  bodyRequired: false,
  responses: { 200: { description: "The rule", schema: ZAlertRule }, 404: NOT_FOUND },
});

export const disableAlertRuleOp = defineOperation({
  method: "POST",
  path: "/api/v1/alerts/rules/{rule_id}/disable",
  operationId: "disableAlertRule",
  summary: "Disable an alert rule (the evaluator skips it; its target states stay)",
  tags: TAGS,
  params: ZAlertRuleParams,
  bodyRequired: false,
  responses: { 200: { description: "The rule", schema: ZAlertRule }, 404: NOT_FOUND },
});

export const deleteAlertRuleOp = defineOperation({
  method: "DELETE",
  path: "/api/v1/alerts/rules/{rule_id}",
  operationId: "deleteAlertRule",
  summary: "Delete an alert rule; its triggers stay with rule_id null",
  tags: TAGS,
  params: ZAlertRuleParams,
  responses: { 200: { description: "Deleted", schema: z.object({ deleted: z.number().int() }) }, 404: NOT_FOUND },
});

export const testAlertRuleOp = defineOperation({
  method: "POST",
  path: "/api/v1/alerts/rules/{rule_id}/test",
  operationId: "testAlertRule",
  summary:
    "Dry run of one rule now (any time of day, enabled or not): each target's outcome; nothing is stored or sent",
  tags: TAGS,
  params: ZAlertRuleParams,
  bodyRequired: false,
  responses: { 200: { description: "The outcome per target", schema: ZAlertTestResult }, 404: NOT_FOUND },
});

export const evaluateAlertsOp = defineOperation({
  method: "POST",
  path: "/api/v1/alerts/evaluate",
  operationId: "evaluateAlerts",
  summary: "Run the evaluator now over every enabled rule (outside trading hours too)",
  description: "Firings are recorded and sent exactly as the scheduled evaluator does.",
  tags: TAGS,
  bodyRequired: false,
  responses: { 200: { description: "Each rule's targets and the records written", schema: ZAlertEvaluation } },
});

export const listAlertTriggersOp = defineOperation({
  method: "GET",
  path: "/api/v1/alerts/triggers",
  operationId: "listAlertTriggers",
  summary: "Alert trigger history, newest first",
  description:
    "status: triggered (a firing; diagnostics.delivery_status says whether its notification went out), skipped (no data to " +
    "check: a short history, no quote, an empty watchlist), degraded (a data source did not answer), failed (the check " +
    "failed). A target's skipped, degraded or failed outcome is recorded when it starts, not on every pass.",
  tags: TAGS,
  query: ZAlertTriggerListQuery,
  responses: { 200: { description: "One page of triggers", schema: ZAlertTriggerListResponse } },
});

export const listAlertNotificationsOp = defineOperation({
  method: "GET",
  path: "/api/v1/alerts/notifications",
  operationId: "listAlertNotifications",
  summary: "Notification records of alert triggers, newest first",
  description:
    "One record per channel a trigger was sent to (from the notification delivery log), plus one with channel none when " +
    "nothing was sent: error_code cooldown_active (the rule's cooldown for that target) or no_channel (no channel enabled " +
    "for alerts); noise_suppressed marks lib/notify's duplicate, quiet-hours, minimum-severity and cooldown holds.",
  tags: TAGS,
  query: ZAlertNotificationListQuery,
  responses: { 200: { description: "One page of notification records", schema: ZAlertNotificationList } },
});

export const ALERT_OPERATIONS: readonly Operation[] = [
  listAlertRulesOp,
  createAlertRuleOp,
  getAlertRuleOp,
  updateAlertRuleOp,
  enableAlertRuleOp,
  disableAlertRuleOp,
  deleteAlertRuleOp,
  testAlertRuleOp,
  evaluateAlertsOp,
  listAlertTriggersOp,
  listAlertNotificationsOp,
];
