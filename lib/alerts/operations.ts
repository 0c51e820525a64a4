import { z } from "zod";
import { ZErrorResponse } from "@/lib/http/schemas";
import { defineOperation, type Operation } from "@/lib/openapi/operation";
import {
  ZAlertCheck,
  ZAlertEvaluation,
  ZAlertRule,
  ZAlertRuleCreate,
  ZAlertRuleList,
  ZAlertRuleParams,
  ZAlertRuleUpdate,
  ZAlertTriggerListQuery,
  ZAlertTriggerListResponse,
} from "./schemas";

const TAGS = ["Alerts"];
const RULES =
  "Types: price_above / price_below (parameters.price), change_pct_beyond (parameters.change_pct: |daily change %| at " +
  "least this), volume_ratio_above (parameters.ratio), signal_action (parameters.action: a new decision signal with this " +
  "action for the target). The evaluator runs every ALERT_EVAL_SECONDS (default 60); quote rules only while their market " +
  "trades (ALERT_TRADING_HOURS_ONLY). One crossing fires once: a rule re-arms when its condition is false again. A firing " +
  "within cooldown_minutes of the previous sent one is stored as suppressed and not sent.";
const NOT_FOUND = { description: "not_found", schema: ZErrorResponse };
const BAD = { description: "validation_error: unknown target or a parameter the type does not read", schema: ZErrorResponse };

export const listAlertRulesOp = defineOperation({
  method: "GET",
  path: "/api/v1/alerts/rules",
  operationId: "listAlertRules",
  summary: "Alert rules",
  description: RULES,
  tags: TAGS,
  responses: { 200: { description: "All rules, oldest first", schema: ZAlertRuleList } },
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
  summary: "Change an alert rule (name, parameters, severity, enabled, cooldown)",
  description: "A new parameters object re-arms the rule.",
  tags: TAGS,
  params: ZAlertRuleParams,
  body: ZAlertRuleUpdate,
  responses: { 200: { description: "The updated rule", schema: ZAlertRule }, 400: BAD, 404: NOT_FOUND },
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
  summary: "Dry run of one rule now (any time of day): what it sees; nothing is stored or sent",
  tags: TAGS,
  params: ZAlertRuleParams,
  bodyRequired: false,
  responses: { 200: { description: "The check", schema: ZAlertCheck }, 404: NOT_FOUND },
});

export const evaluateAlertsOp = defineOperation({
  method: "POST",
  path: "/api/v1/alerts/evaluate",
  operationId: "evaluateAlerts",
  summary: "Run the evaluator now over every enabled rule (quote rules too outside trading hours)",
  description: "Firings are stored and sent exactly as the scheduled evaluator does.",
  tags: TAGS,
  responses: { 200: { description: "Checks and the triggers fired", schema: ZAlertEvaluation } },
});

export const listAlertTriggersOp = defineOperation({
  method: "GET",
  path: "/api/v1/alerts/triggers",
  operationId: "listAlertTriggers",
  summary: "Alert trigger history, newest first",
  description: "status: sent (delivered to at least one channel), failed (every channel failed), suppressed (cooldown, or no channel enabled).",
  tags: TAGS,
  query: ZAlertTriggerListQuery,
  responses: { 200: { description: "One page of triggers", schema: ZAlertTriggerListResponse } },
});

export const ALERT_OPERATIONS: readonly Operation[] = [
  listAlertRulesOp,
  createAlertRuleOp,
  getAlertRuleOp,
  updateAlertRuleOp,
  deleteAlertRuleOp,
  testAlertRuleOp,
  evaluateAlertsOp,
  listAlertTriggersOp,
];
