import { normalizeReportLanguage } from "@/lib/analysis/engine";
import { now } from "@/lib/clock";
import { getSettings } from "@/lib/config/settings";
import { db } from "@/lib/db/client";
import { ApiError, notFound } from "@/lib/http/api-error";
import { dedupKey, isRejection, resolveToken, type TResolvedSymbol } from "@/lib/market/symbols";
import { describeRule } from "./conditions";
import { requiredParameter, type TAlertParameters, type TAlertRule, type TAlertRuleCreate, type TAlertRuleUpdate, type TAlertType } from "./schemas";
import { toAlertRule } from "./serialize";

export function resolveAlertTarget(token: string): TResolvedSymbol {
  const resolved = resolveToken(token);
  if (isRejection(resolved)) throw ApiError.of("validation_error", `${token}: ${resolved.reason}`);
  return resolved;
}

function checkParameters(type: TAlertType, parameters: TAlertParameters): void {
  const key = requiredParameter(type);
  if (parameters[key] === undefined) throw ApiError.of("validation_error", `${type} needs parameters.${key}`);
  const extra = Object.keys(parameters).filter((k) => k !== key);
  if (extra.length > 0) throw ApiError.of("validation_error", `${type} reads only parameters.${key} (got ${extra.join(", ")})`);
}

/** A signal rule starts after the newest existing signal: only signals created later fire it. */
async function currentSignalCursor(): Promise<number> {
  const newest = await db().decisionSignal.findFirst({ orderBy: { id: "desc" }, select: { id: true } });
  return newest?.id ?? 0;
}

// POST /api/v1/alerts/rules – create a rule
export async function createAlertRule(input: TAlertRuleCreate): Promise<TAlertRule> {
  const target = resolveAlertTarget(input.target);
  checkParameters(input.alert_type, input.parameters);
  const at = now();
  const row = await db().alertRule.create({
    data: {
      name: input.name ?? describeRule(input.alert_type, target.displayCode, input.parameters, normalizeReportLanguage(null, getSettings().REPORT_LANGUAGE)),
      alertType: input.alert_type,
      target: target.displayCode,
      targetKey: dedupKey(target),
      market: target.market,
      parameters: JSON.stringify(input.parameters),
      severity: input.severity,
      enabled: input.enabled,
      cooldownMinutes: input.cooldown_minutes,
      signalCursor: input.alert_type === "signal_action" ? await currentSignalCursor() : null,
      createdAt: at,
      updatedAt: at,
    },
  });
  return toAlertRule(row);
}

export async function listAlertRules(): Promise<{ items: TAlertRule[]; total: number }> {
  const rows = await db().alertRule.findMany({ orderBy: { id: "asc" }, take: 1000 });
  return { items: rows.map(toAlertRule), total: rows.length };
}

export async function getAlertRuleOrThrow(id: number) {
  const row = await db().alertRule.findUnique({ where: { id } });
  if (!row) throw notFound(`Alert rule ${id} not found`);
  return row;
}

export async function getAlertRule(id: number): Promise<TAlertRule> {
  return toAlertRule(await getAlertRuleOrThrow(id));
}

// PATCH /api/v1/alerts/rules/{rule_id} – rename, new threshold, enable/disable, cooldown
export async function updateAlertRule(id: number, patch: TAlertRuleUpdate): Promise<TAlertRule> {
  const row = await getAlertRuleOrThrow(id);
  if (patch.parameters) checkParameters(row.alertType as TAlertType, patch.parameters);
  const updated = await db().alertRule.update({
    where: { id },
    data: {
      ...(patch.name !== undefined ? { name: patch.name } : {}),
      // A new threshold is a new condition: re-arm so its first crossing fires.
      ...(patch.parameters !== undefined ? { parameters: JSON.stringify(patch.parameters), armed: true } : {}),
      ...(patch.severity !== undefined ? { severity: patch.severity } : {}),
      ...(patch.enabled !== undefined ? { enabled: patch.enabled } : {}),
      ...(patch.cooldown_minutes !== undefined ? { cooldownMinutes: patch.cooldown_minutes } : {}),
      updatedAt: now(),
    },
  });
  return toAlertRule(updated);
}

// DELETE /api/v1/alerts/rules/{rule_id} – the rule goes, its trigger history stays (rule_id null)
export async function deleteAlertRule(id: number): Promise<{ deleted: number }> {
  await getAlertRuleOrThrow(id);
  const result = await db().alertRule.deleteMany({ where: { id } });
  return { deleted: result.count };
}
