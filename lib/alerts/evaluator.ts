import type { AlertRule } from "@/generated/prisma/client";
import { resolveMarketPhase } from "@/lib/analysis/engine/phase";
import { sanitizeText } from "@/lib/analysis/sanitize";
import { now } from "@/lib/clock";
import { getSettings } from "@/lib/config/settings";
import { db } from "@/lib/db/client";
import { currentPrice } from "@/lib/market";
import { checkQuoteCondition, type ConditionResult } from "./conditions";
import { resolveAlertTarget } from "./rules";
import type { TAlertCheck, TAlertEvaluation, TAlertTriggerItem, TAlertType } from "./schemas";
import { ruleParameters, toAlertTrigger } from "./serialize";

export interface AlertMessage {
  triggerId: number;
  ruleId: number;
  ruleName: string;
  severity: string;
  target: string;
  title: string;
  text: string;
  observed: number | null;
  threshold: number | null;
}

export interface DeliveryOutcome {
  status: "sent" | "failed" | "suppressed";
  detail: Record<string, unknown>;
}

export type AlertDeliver = (message: AlertMessage) => Promise<DeliveryOutcome>;

export interface EvaluateOptions {
  deliver: AlertDeliver;
  /** Only these rules (POST .../rules/{id}/test, evaluate one). */
  ruleIds?: readonly number[];
  /** Dry run: report what each rule sees, store and send nothing. */
  dryRun?: boolean;
  /** Check quote rules outside trading hours too (manual runs). */
  anyTime?: boolean;
}

interface Firing {
  observed: number | null;
  threshold: number | null;
  reason: string;
  dataSource: string | null;
  dataTimestamp: string | null;
}

function inCooldown(rule: AlertRule, at: Date): boolean {
  return rule.lastTriggeredAt !== null && at.getTime() - rule.lastTriggeredAt.getTime() < rule.cooldownMinutes * 60_000;
}

async function fire(rule: AlertRule, firing: Firing, at: Date, deliver: AlertDeliver): Promise<TAlertTriggerItem> {
  const cooling = inCooldown(rule, at);
  const title = rule.name;
  const text = `${rule.target}: ${firing.reason}${firing.dataTimestamp ? ` (${firing.dataTimestamp}, ${firing.dataSource ?? "?"})` : ""}`;
  const base = {
    ruleId: rule.id,
    alertType: rule.alertType,
    target: rule.target,
    observedValue: firing.observed,
    threshold: firing.threshold,
    reason: firing.reason,
    message: `${title}: ${text}`,
    dataSource: firing.dataSource,
    dataTimestamp: firing.dataTimestamp,
    triggeredAt: at,
  };
  if (cooling) {
    const reason = `within the ${rule.cooldownMinutes} min cooldown after ${rule.lastTriggeredAt!.toISOString()}`;
    const row = await db().alertTrigger.create({ data: { ...base, status: "suppressed", diagnostics: JSON.stringify({ severity: rule.severity, delivery: { reason } }) } });
    return toAlertTrigger(row);
  }
  // Stored before sending so the notification can name the trigger; until the outcome is known it reads as
  // not (yet) sent, which is also what a crash in between leaves behind.
  const pending = await db().alertTrigger.create({
    data: { ...base, status: "failed", diagnostics: JSON.stringify({ severity: rule.severity, delivery: { reason: "delivery in progress" } }) },
  });
  let outcome: DeliveryOutcome;
  try {
    outcome = await deliver({ triggerId: pending.id, ruleId: rule.id, ruleName: rule.name, severity: rule.severity, target: rule.target, title, text, observed: firing.observed, threshold: firing.threshold });
  } catch (error) {
    outcome = { status: "failed", detail: { reason: sanitizeText((error as Error).message) } };
  }
  await db().alertRule.update({ where: { id: rule.id }, data: { lastTriggeredAt: at } });
  const row = await db().alertTrigger.update({
    where: { id: pending.id },
    data: { status: outcome.status, diagnostics: JSON.stringify({ severity: rule.severity, delivery: outcome.detail }) },
  });
  return toAlertTrigger(row);
}

function check(rule: AlertRule, evaluated: boolean, result: Partial<ConditionResult> & { reason: string }): TAlertCheck {
  return {
    rule_id: rule.id,
    target: rule.target,
    evaluated,
    met: result.met ?? false,
    observed_value: result.observed ?? null,
    threshold: result.threshold ?? null,
    reason: result.reason,
  };
}

async function evaluateSignalRule(rule: AlertRule, at: Date, options: EvaluateOptions): Promise<{ check: TAlertCheck; triggers: TAlertTriggerItem[] }> {
  const action = ruleParameters(rule).action;
  const cursor = rule.signalCursor ?? 0;
  const signals = await db().decisionSignal.findMany({
    where: { targetKey: rule.targetKey, action, id: { gt: cursor } },
    orderBy: { id: "asc" },
    take: 50,
    select: { id: true, score: true, createdAt: true, triggerSource: true },
  });
  const summary = check(rule, true, { met: signals.length > 0, reason: signals.length > 0 ? `${signals.length} new ${action} signal(s)` : `no new ${action} signal` });
  if (signals.length === 0 || options.dryRun) return { check: summary, triggers: [] };
  // Advancing the cursor is the claim: another process evaluating at the same moment matches nothing.
  const claimed = await db().alertRule.updateMany({
    where: { id: rule.id, signalCursor: rule.signalCursor },
    data: { signalCursor: signals.at(-1)!.id, lastCheckedAt: at },
  });
  if (claimed.count === 0) return { check: summary, triggers: [] };
  const triggers: TAlertTriggerItem[] = [];
  let current = rule;
  for (const signal of signals) {
    triggers.push(
      await fire(
        current,
        { observed: signal.score, threshold: null, reason: `new ${action} decision signal #${signal.id}`, dataSource: signal.triggerSource, dataTimestamp: signal.createdAt.toISOString() },
        at,
        options.deliver,
      ),
    );
    current = (await db().alertRule.findUnique({ where: { id: rule.id } })) ?? current;
  }
  return { check: summary, triggers };
}

async function evaluateQuoteRule(rule: AlertRule, at: Date, options: EvaluateOptions): Promise<{ check: TAlertCheck; triggers: TAlertTriggerItem[] }> {
  const symbol = resolveAlertTarget(rule.target);
  const tradingHoursOnly = getSettings().ALERT_TRADING_HOURS_ONLY && !options.anyTime;
  if (tradingHoursOnly && !resolveMarketPhase({ market: symbol.market, at }).is_market_open_now) {
    return { check: check(rule, false, { reason: `${symbol.market} market closed` }), triggers: [] };
  }
  let current;
  try {
    current = await currentPrice(symbol);
  } catch (error) {
    return { check: check(rule, false, { reason: `no quote: ${sanitizeText((error as Error).message)}` }), triggers: [] };
  }
  // A realtime rule needs a quote; yesterday's close alone is no reason to alert.
  if (current.quote === null) return { check: check(rule, false, { reason: `no quote: ${sanitizeText(current.quoteFailure ?? "none")}` }), triggers: [] };
  // Issue 17 item 3: the price and change an analysis would show for this moment (a quote older than the last
  // daily bar gives way to that close), not the raw quote.
  const seen = { ...current.quote, price: current.price, change_pct: current.change_pct ?? current.quote.change_pct };
  const result = checkQuoteCondition(rule.alertType as Exclude<TAlertType, "signal_action">, ruleParameters(rule), seen);
  const summary = check(rule, true, result);
  if (options.dryRun) return { check: summary, triggers: [] };
  if (!result.met) {
    await db().alertRule.update({ where: { id: rule.id }, data: { armed: true, lastValue: result.observed, lastCheckedAt: at } });
    return { check: summary, triggers: [] };
  }
  // Disarming is the claim: one crossing fires once, in one process.
  const claimed = await db().alertRule.updateMany({ where: { id: rule.id, armed: true }, data: { armed: false, lastValue: result.observed, lastCheckedAt: at } });
  if (claimed.count === 0) {
    await db().alertRule.update({ where: { id: rule.id }, data: { lastValue: result.observed, lastCheckedAt: at } });
    return { check: summary, triggers: [] };
  }
  const firing = { observed: result.observed, threshold: result.threshold, reason: result.reason, dataSource: current.source, dataTimestamp: current.time ?? `${current.date} close` };
  return { check: summary, triggers: [await fire(rule, firing, at, options.deliver)] };
}

/** One pass over the enabled rules (or the given ones): quote rules in trading hours, signal rules always. */
export async function evaluateAlertRules(options: EvaluateOptions): Promise<TAlertEvaluation> {
  const at = now();
  const rules = await db().alertRule.findMany({
    where: options.ruleIds ? { id: { in: [...options.ruleIds] } } : { enabled: true },
    orderBy: { id: "asc" },
  });
  const checked: TAlertCheck[] = [];
  const triggers: TAlertTriggerItem[] = [];
  for (const rule of rules) {
    const result = rule.alertType === "signal_action" ? await evaluateSignalRule(rule, at, options) : await evaluateQuoteRule(rule, at, options);
    checked.push(result.check);
    triggers.push(...result.triggers);
  }
  return { checked, triggers };
}
