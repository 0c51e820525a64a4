import type { Prisma } from "@/generated/prisma/client";
import { normalizeReportLanguage } from "@/lib/analysis/engine";
import { now } from "@/lib/clock";
import { getSettings } from "@/lib/settings/settings";
import { db } from "@/lib/db/client";
import { ApiError, notFound } from "@/lib/errors/api-error";
import { isRejection, resolveToken } from "@/lib/market/symbols";
import { describeRule } from "./names";
import {
  isAlertType,
  normalizeParameters,
  scopesOf,
  SIGNAL_ALERT_TYPE,
  type TAlertType,
  type TTargetScope,
} from "./parameters";
import {
  DEFAULT_COOLDOWN_SECONDS,
  type TAlertRule,
  type TAlertRuleCreate,
  type TAlertRuleList,
  type TAlertRuleListQuery,
  type TAlertRuleUpdate,
} from "./schemas";
import { toAlertRule } from "./serialize";
import { normalizeTarget } from "./targets";

export { resolveAlertTarget } from "./targets";

// Alert rules (docs/api.md §12.2): create, list with the client's filters, read, change, enable/disable, delete.

/** The states a rule read back carries (one per checked target, capped like the targets themselves). */
const WITH_STATES = { states: { orderBy: { id: "asc" }, take: 100 } } as const satisfies Prisma.AlertRuleInclude;

function typeOf(raw: string): TAlertType {
  const type = raw.trim();
  if (!isAlertType(type)) throw ApiError.of("unsupported_alert_type", `unsupported alert_type: ${raw}`);
  return type;
}

function parametersOf(type: TAlertType, raw: unknown): Record<string, unknown> {
  const checked = normalizeParameters(type, raw);
  if (!checked.ok) throw ApiError.of("validation_error", checked.message);
  return checked.parameters;
}

function checkScope(type: TAlertType, scope: TTargetScope): void {
  const allowed = scopesOf(type);
  if (!allowed.includes(scope))
    throw ApiError.of("validation_error", `${type} is evaluated over ${allowed.join(" or ")}, not ${scope}`);
}

/** A signal rule starts after the newest existing signal: only signals created later fire it. */
async function currentSignalCursor(): Promise<number> {
  const newest = await db().decisionSignal.findFirst({ orderBy: { id: "desc" }, select: { id: true } });
  return newest?.id ?? 0;
}

const policyText = (policy: Record<string, unknown> | null | undefined) =>
  policy === undefined ? undefined : policy === null ? null : JSON.stringify(policy);

// POST /api/v1/alerts/rules – create a rule
export async function createAlertRule(input: TAlertRuleCreate): Promise<TAlertRule> {
  const type = typeOf(input.alert_type);
  checkScope(type, input.target_scope);
  const parameters = parametersOf(type, input.parameters);
  const { target, targetKey } = await normalizeTarget(input.target_scope, input.target);
  const language = normalizeReportLanguage(null, getSettings().REPORT_LANGUAGE) === "en" ? "en" : "zh";
  const at = now();
  const row = await db().alertRule.create({
    data: {
      name: input.name?.trim() || describeRule(type, input.target_scope, target, parameters, language),
      alertType: type,
      targetScope: input.target_scope,
      target,
      targetKey,
      parameters: JSON.stringify(parameters),
      severity: input.severity,
      enabled: input.enabled,
      source: "api",
      cooldownSeconds: input.cooldown_policy?.cooldown_seconds ?? DEFAULT_COOLDOWN_SECONDS,
      notificationPolicy: policyText(input.notification_policy) ?? null,
      signalCursor: type === SIGNAL_ALERT_TYPE ? await currentSignalCursor() : null,
      createdAt: at,
      updatedAt: at,
    },
    include: WITH_STATES,
  });
  return toAlertRule(row);
}

/** A single_symbol target filter matches any code form of the stock; other targets match as written. */
function targetFilter(target: string): Prisma.AlertRuleWhereInput {
  const resolved = resolveToken(target);
  const forms = new Set([target, target.toLowerCase()]);
  if (!isRejection(resolved)) forms.add(resolved.displayCode);
  return { target: { in: [...forms] } };
}

// GET /api/v1/alerts/rules – filtered, oldest first, paged
export async function listAlertRules(query: TAlertRuleListQuery): Promise<TAlertRuleList> {
  const where: Prisma.AlertRuleWhereInput = {
    ...(query.enabled !== undefined ? { enabled: query.enabled } : {}),
    ...(query.alert_type ? { alertType: query.alert_type } : {}),
    ...(query.target_scope ? { targetScope: query.target_scope } : {}),
    ...(query.target ? targetFilter(query.target) : {}),
    ...(query.source ? { source: query.source } : {}),
  };
  const [total, rows] = await Promise.all([
    db().alertRule.count({ where }),
    db().alertRule.findMany({
      where,
      orderBy: { id: "asc" },
      skip: (query.page - 1) * query.page_size,
      take: query.page_size,
      include: WITH_STATES,
    }),
  ]);
  return { items: rows.map(toAlertRule), total, page: query.page, page_size: query.page_size };
}

export async function getAlertRuleOrThrow(id: number) {
  const row = await db().alertRule.findUnique({ where: { id }, include: WITH_STATES });
  if (!row) throw notFound(`Alert rule ${id} not found`);
  return row;
}

// GET /api/v1/alerts/rules/{rule_id} – one rule
export async function getAlertRule(id: number): Promise<TAlertRule> {
  return toAlertRule(await getAlertRuleOrThrow(id));
}

// PATCH /api/v1/alerts/rules/{rule_id} – rename, new parameters, severity, enabled, policies
export async function updateAlertRule(id: number, patch: TAlertRuleUpdate): Promise<TAlertRule> {
  const row = await getAlertRuleOrThrow(id);
  const parameters =
    patch.parameters !== undefined && isAlertType(row.alertType)
      ? parametersOf(row.alertType, patch.parameters)
      : undefined;
  const updated = await db().$transaction(async (tx) => {
    // A new condition re-arms every target, so its first crossing fires.
    if (parameters !== undefined)
      await tx.alertTargetState.updateMany({ where: { ruleId: id }, data: { armed: true } });
    return tx.alertRule.update({
      where: { id },
      data: {
        ...(patch.name !== undefined && patch.name.trim() !== "" ? { name: patch.name.trim() } : {}),
        ...(parameters !== undefined ? { parameters: JSON.stringify(parameters) } : {}),
        ...(patch.severity !== undefined ? { severity: patch.severity } : {}),
        ...(patch.enabled !== undefined ? { enabled: patch.enabled } : {}),
        ...(patch.cooldown_policy !== undefined ? { cooldownSeconds: patch.cooldown_policy.cooldown_seconds } : {}),
        ...(patch.notification_policy !== undefined
          ? { notificationPolicy: policyText(patch.notification_policy) }
          : {}),
        updatedAt: now(),
      },
      include: WITH_STATES,
    });
  });
  return toAlertRule(updated);
}

// POST /api/v1/alerts/rules/{rule_id}/enable and /disable
export async function setAlertRuleEnabled(id: number, enabled: boolean): Promise<TAlertRule> {
  await getAlertRuleOrThrow(id);
  return toAlertRule(
    await db().alertRule.update({ where: { id }, data: { enabled, updatedAt: now() }, include: WITH_STATES }),
  );
}

// DELETE /api/v1/alerts/rules/{rule_id} – the rule and its target states go, its trigger history stays (rule_id null)
export async function deleteAlertRule(id: number): Promise<{ deleted: number }> {
  await getAlertRuleOrThrow(id);
  const result = await db().alertRule.deleteMany({ where: { id } });
  return { deleted: result.count };
}
