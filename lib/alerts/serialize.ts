import type { AlertRule, AlertTrigger } from "@/generated/prisma/client";
import { parseJsonObject } from "@/lib/history/serialize";
import { ZAlertParameters, type TAlertRule, type TAlertTriggerItem } from "./schemas";

export function ruleParameters(row: Pick<AlertRule, "parameters">) {
  const parsed = ZAlertParameters.safeParse(parseJsonObject(row.parameters) ?? {});
  return parsed.success ? parsed.data : {};
}

export function toAlertRule(row: AlertRule): TAlertRule {
  return {
    id: row.id,
    name: row.name,
    alert_type: row.alertType as TAlertRule["alert_type"],
    target: row.target,
    market: row.market,
    parameters: ruleParameters(row),
    severity: row.severity as TAlertRule["severity"],
    enabled: row.enabled,
    cooldown_minutes: row.cooldownMinutes,
    armed: row.armed,
    last_value: row.lastValue,
    last_checked_at: row.lastCheckedAt?.toISOString() ?? null,
    last_triggered_at: row.lastTriggeredAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export function toAlertTrigger(row: AlertTrigger): TAlertTriggerItem {
  return {
    id: row.id,
    rule_id: row.ruleId,
    alert_type: row.alertType,
    target: row.target,
    observed_value: row.observedValue,
    threshold: row.threshold,
    reason: row.reason,
    message: row.message,
    data_source: row.dataSource,
    data_timestamp: row.dataTimestamp,
    triggered_at: row.triggeredAt.toISOString(),
    status: row.status as TAlertTriggerItem["status"],
    diagnostics: parseJsonObject(row.diagnostics),
  };
}
