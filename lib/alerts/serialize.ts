import type { AlertRule, AlertTargetState, AlertTrigger, NotificationDelivery } from "@/generated/prisma/client";
import { now } from "@/lib/clock";
import { parseJsonObject } from "@/lib/history/serialize";
import { isAlertType, normalizeParameters, type TAlertParameters, type TAlertType } from "./parameters";
import {
  NOTIFICATION_ERROR_CODES,
  type TAlertNotification,
  type TAlertRule,
  type TAlertTargetState,
  type TAlertTriggerItem,
} from "./schemas";

export type RuleRow = AlertRule & { states?: AlertTargetState[] };

/** The stored parameters of a rule, read through its type's schema (defaults filled in). */
export function ruleParameters(row: Pick<AlertRule, "alertType" | "parameters">): TAlertParameters {
  const raw = parseJsonObject(row.parameters) ?? {};
  if (!isAlertType(row.alertType)) return raw as TAlertParameters;
  const checked = normalizeParameters(row.alertType, raw);
  return (checked.ok ? checked.parameters : raw) as TAlertParameters;
}

export function cooldownUntil(row: Pick<AlertRule, "lastTriggeredAt" | "cooldownSeconds">): Date | null {
  if (!row.lastTriggeredAt || row.cooldownSeconds <= 0) return null;
  return new Date(row.lastTriggeredAt.getTime() + row.cooldownSeconds * 1000);
}

export function toTargetState(state: AlertTargetState): TAlertTargetState {
  return {
    target: state.target,
    armed: state.armed,
    last_value: state.lastValue,
    last_status: state.lastStatus,
    last_checked_at: state.lastCheckedAt?.toISOString() ?? null,
    last_triggered_at: state.lastTriggeredAt?.toISOString() ?? null,
  };
}

export function toAlertRule(row: RuleRow): TAlertRule {
  const until = cooldownUntil(row);
  return {
    id: row.id,
    name: row.name,
    target_scope: row.targetScope as TAlertRule["target_scope"],
    target: row.target,
    alert_type: row.alertType as TAlertType,
    parameters: ruleParameters(row),
    severity: row.severity as TAlertRule["severity"],
    enabled: row.enabled,
    source: row.source,
    cooldown_policy: { cooldown_seconds: row.cooldownSeconds },
    notification_policy: parseJsonObject(row.notificationPolicy),
    last_triggered_at: row.lastTriggeredAt?.toISOString() ?? null,
    cooldown_until: until?.toISOString() ?? null,
    cooldown_active: until !== null && until.getTime() > now().getTime(),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    targets: (row.states ?? []).map(toTargetState),
  };
}

function dataQualityOf(
  diagnostics: Record<string, unknown> | null,
): TAlertTriggerItem["analysis_context_pack_overview"] {
  const quality = diagnostics?.data_quality as { level?: unknown; limitations?: unknown } | undefined;
  if (!quality || (quality.level !== "complete" && quality.level !== "partial")) return null;
  const limitations = Array.isArray(quality.limitations)
    ? quality.limitations.filter((l): l is string => typeof l === "string")
    : [];
  return { data_quality: { level: quality.level, limitations } };
}

export function toAlertTrigger(row: AlertTrigger): TAlertTriggerItem {
  const diagnostics = parseJsonObject(row.diagnostics);
  const phase = diagnostics?.market_phase_summary;
  return {
    id: row.id,
    rule_id: row.ruleId,
    alert_type: row.alertType,
    target_scope: row.targetScope,
    target: row.target,
    observed_value: row.observedValue,
    threshold: row.threshold,
    reason: row.reason,
    message: row.message,
    data_source: row.dataSource,
    data_timestamp: row.dataTimestamp,
    triggered_at: row.triggeredAt.toISOString(),
    status: row.status as TAlertTriggerItem["status"],
    diagnostics,
    market_phase_summary:
      phase && typeof phase === "object" && !Array.isArray(phase) ? (phase as Record<string, unknown>) : null,
    analysis_context_pack_overview: dataQualityOf(diagnostics),
  };
}

/**
 * A delivery row as the client's notification record: success is a sent row; a held-back row names why with one
 * code (the evaluator's cooldown_active / no_channel rows, or lib/notify's duplicate, quiet hours, minimum
 * severity and per-subject cooldown: noise_suppressed); a failed send is delivery_failed.
 */
export function toAlertNotification(row: NotificationDelivery): TAlertNotification {
  const own = NOTIFICATION_ERROR_CODES.find((code) => row.error === code || row.error?.startsWith(`${code}:`));
  const errorCode =
    row.status === "sent" ? null : row.status === "failed" ? "delivery_failed" : (own ?? "noise_suppressed");
  const triggerId =
    row.relatedKind === "alert" && row.relatedId !== null && /^\d+$/.test(row.relatedId) ? Number(row.relatedId) : null;
  return {
    id: row.id,
    trigger_id: triggerId,
    channel: row.channel,
    attempt: row.attempts,
    success: row.status === "sent",
    error_code: errorCode,
    retryable: row.status === "failed",
    latency_ms: row.latencyMs,
    diagnostics: row.error,
    created_at: row.createdAt.toISOString(),
  };
}
