import type { AlertRule, AlertTargetState } from "@/generated/prisma/client";
import { normalizeReportLanguage, resolveMarketPhase } from "@/lib/analysis/engine";
import { sanitizeText } from "@/lib/log/sanitize";
import { now } from "@/lib/clock";
import { getSettings } from "@/lib/settings/settings";
import { db } from "@/lib/db/client";
import { isUniqueViolation } from "@/lib/db/errors";
import { getMarketReviewParts } from "@/lib/market-review/read";
import { MARKET_REVIEW_REPORT_TYPE } from "@/lib/market-review/run";
import { reviewMarket, reviewMarkets } from "@/lib/market-review/rules";
import { ZMarketReviewPayload } from "@/lib/market-review/schemas";
import { getPriceSeries, MarketDataUnavailableError, type PriceSeries } from "@/lib/market";
import { marketOverview } from "@/lib/market/overview";
import { dedupKey, type TMarket } from "@/lib/market/symbols";
import { recordHeldAlertNotification } from "@/lib/notify";
import { portfolioRisk } from "@/lib/portfolio/risk";
import type { TPortfolioRisk } from "@/lib/portfolio/risk-schema";
import { localDay } from "@/lib/time/zoned-time";
import { MARKET_TIME_ZONE } from "@/lib/market/market-time";
import {
  barsToRead,
  checkMarketCondition,
  checkPortfolioCondition,
  checkSymbolCondition,
  isSkipped,
  type Check,
  type MarketLightReading,
  type PreviousLight,
} from "./conditions";
import { noticeOf } from "./deliver";
import type { AlertDeliver, AlertMessage, DeliveryOutcome } from "./delivery-types";
import {
  isAlertType,
  MARKET_ALERT_TYPES,
  PORTFOLIO_ALERT_TYPES,
  SIGNAL_ALERT_TYPE,
  SYMBOL_ALERT_TYPES,
  type TMarketAlertType,
  type TParametersOf,
  type TPortfolioAlertType,
  type TSymbolAlertType,
  type TTargetScope,
} from "./parameters";
import type { TAlertCheck, TAlertEvaluation, TAlertTargetResult, TAlertTriggerItem, TAlertType } from "./schemas";
import { ruleParameters, toAlertTrigger } from "./serialize";
import { expandTargets, type ExpandedTarget } from "./targets";

// The one evaluator: every pass checks each enabled rule over each of its targets
// (a watchlist or the holdings expand to one target per stock), on the stored daily bars and quotes merged into
// one price (lib/market/current-price.ts), a portfolio risk report, or the market light. Stock and market checks
// wait for their market's trading hours (ALERT_TRADING_HOURS_ONLY); a portfolio check waits until a market of its
// holdings trades. One crossing fires once per target: the target disarms when it fires and re-arms when its
// condition is false again. A firing inside the rule's cooldown for that target is recorded, not sent.

export interface EvaluateOptions {
  deliver: AlertDeliver;
  /** Only these rules, enabled or not (POST .../rules/{id}/test). */
  ruleIds?: readonly number[];
  /** Dry run: report what each target shows, store and send nothing. */
  dryRun?: boolean;
  /** Check outside trading hours too (manual runs). */
  anyTime?: boolean;
}

type RecordStatus = "triggered" | "skipped" | "degraded" | "failed";

/** What one check of one target found. */
interface Observation {
  target: string;
  display: string;
  /** Not checked because the market is closed: nothing is recorded and the target's state is left alone. */
  quiet: boolean;
  /** null: the condition was checked (met tells the outcome); else why there is no outcome. */
  problem: Exclude<RecordStatus, "triggered"> | null;
  met: boolean;
  observed: number | null;
  threshold: number | null;
  reason: string;
  dataSource: string | null;
  dataTimestamp: string | null;
  diagnostics: Record<string, unknown>;
  /** The target state's memo to store after this check (market light days). */
  memo?: string;
}

interface Pass {
  at: Date;
  options: EvaluateOptions;
  language: "zh" | "en";
  tradingHoursOnly: boolean;
  series: Map<string, Promise<PriceSeries>>;
  risks: Map<string, Promise<TPortfolioRisk>>;
  lights: Map<TMarket, Promise<{ reading: MarketLightReading; source: string | null }>>;
}

const PHASE_KEYS = [
  "phase",
  "market",
  "session_date",
  "is_trading_day",
  "is_market_open_now",
  "market_local_time",
] as const;

function phaseSummary(market: TMarket, at: Date): Record<string, unknown> {
  const phase = resolveMarketPhase({ market, at });
  return Object.fromEntries(PHASE_KEYS.map((k) => [k, phase[k]]));
}

function observation(
  target: ExpandedTarget | { target: string; display: string },
  fields: Partial<Observation> & { reason: string },
): Observation {
  return {
    target: target.target,
    display: target.display,
    quiet: false,
    problem: null,
    met: false,
    observed: null,
    threshold: null,
    dataSource: null,
    dataTimestamp: null,
    diagnostics: {},
    ...fields,
  };
}

function fromCheck(
  target: ExpandedTarget,
  check: Check,
  data: Pick<Observation, "dataSource" | "dataTimestamp" | "diagnostics">,
): Observation {
  if (isSkipped(check))
    return observation(target, {
      ...data,
      problem: "skipped",
      reason: check.skipped,
      diagnostics: { ...data.diagnostics, ...check.details },
    });
  const quality = { level: check.limitations.length > 0 ? "partial" : "complete", limitations: check.limitations };
  return observation(target, {
    ...data,
    met: check.met,
    observed: check.observed,
    threshold: check.threshold,
    reason: check.reason,
    diagnostics: { ...data.diagnostics, ...check.details, data_quality: quality },
  });
}

/** A data source that did not answer is "degraded" (the service is fine, the data is not); anything else "failed". */
function failure(
  target: ExpandedTarget,
  error: unknown,
  what: string,
  diagnostics: Record<string, unknown> = {},
): Observation {
  const message = sanitizeText(error instanceof Error ? error.message : String(error));
  const degraded = error instanceof MarketDataUnavailableError;
  return observation(target, {
    problem: degraded ? "degraded" : "failed",
    reason: `${what}: ${message}`,
    diagnostics: { ...diagnostics, error: message },
  });
}

function cached<K, V>(map: Map<K, Promise<V>>, key: K, load: () => Promise<V>): Promise<V> {
  let hit = map.get(key);
  if (!hit) {
    hit = load();
    map.set(key, hit);
  }
  return hit;
}

async function observeSymbol(
  type: TSymbolAlertType,
  parameters: TParametersOf<TSymbolAlertType>,
  target: Extract<ExpandedTarget, { kind: "symbol" }>,
  pass: Pass,
): Promise<Observation> {
  const { symbol } = target;
  const phase = phaseSummary(symbol.market, pass.at);
  if (pass.tradingHoursOnly && !phase.is_market_open_now)
    return observation(target, {
      quiet: true,
      reason: `${symbol.market} market closed`,
      diagnostics: { market_phase_summary: phase },
    });
  const days = barsToRead(type, parameters as Record<string, unknown>);
  let series: PriceSeries;
  try {
    series = await cached(pass.series, `${dedupKey(symbol)}|${days}`, () => getPriceSeries(symbol, days));
  } catch (error) {
    return failure(target, error, "no market data", { market_phase_summary: phase });
  }
  if (!series.current)
    return observation(target, {
      problem: "skipped",
      reason: "no market data",
      diagnostics: { market_phase_summary: phase },
    });
  const check = checkSymbolCondition(type, parameters, {
    series,
    quote: series.quote,
    current: series.current,
    quoteFailure: series.quoteFailure,
  });
  return fromCheck(target, check, {
    dataSource: series.current.source,
    dataTimestamp: series.current.time ?? `${series.current.date} close`,
    diagnostics: { market_phase_summary: phase, price_basis: series.current.basis },
  });
}

async function heldMarkets(accountId: number | null): Promise<TMarket[]> {
  const rows = await db().portfolioPosition.findMany({
    where: { quantity: { gt: 0 }, account: { active: true }, ...(accountId === null ? {} : { accountId }) },
    select: { market: true },
    distinct: ["market"],
  });
  return rows.map((r) => r.market as TMarket);
}

async function observeAccount(
  type: TPortfolioAlertType,
  parameters: TParametersOf<TPortfolioAlertType>,
  target: Extract<ExpandedTarget, { kind: "account" }>,
  pass: Pass,
): Promise<Observation> {
  const markets = await heldMarkets(target.accountId);
  if (markets.length === 0) return observation(target, { problem: "skipped", reason: "no holdings" });
  if (
    pass.tradingHoursOnly &&
    !markets.some((m) => resolveMarketPhase({ market: m, at: pass.at }).is_market_open_now)
  ) {
    return observation(target, { quiet: true, reason: `markets of the holdings closed (${markets.join(", ")})` });
  }
  let risk: TPortfolioRisk;
  try {
    risk = await cached(pass.risks, target.target, () =>
      portfolioRisk(target.accountId === null ? {} : { account_id: target.accountId }),
    );
  } catch (error) {
    return failure(target, error, "portfolio risk unavailable");
  }
  const check = checkPortfolioCondition(type, parameters, risk);
  return fromCheck(target, check, {
    dataSource: "portfolio_risk",
    dataTimestamp: risk.as_of,
    diagnostics: { account_id: target.accountId, currency: risk.currency },
  });
}

const LIGHT_PARTS = ["index", "breadth", "limit"] as const;

async function readLight(region: TMarket, pass: Pass): Promise<{ reading: MarketLightReading; source: string | null }> {
  const overview = await marketOverview(region);
  const market = reviewMarket(overview, pass.language, pass.at);
  const parts = new Set(market.market_light.components.map((c) => c.key));
  return {
    reading: {
      region,
      date: market.date,
      score: market.market_light.score,
      light: market.market_light.light,
      missing: LIGHT_PARTS.filter((p) => !parts.has(p)),
    },
    source: overview.source,
  };
}

interface LightMemo {
  days: { date: string; score: number }[];
}

function readMemo(text: string | null | undefined): LightMemo {
  try {
    const parsed = JSON.parse(text ?? "{}") as Partial<LightMemo>;
    return {
      days: Array.isArray(parsed.days)
        ? parsed.days.filter((d) => typeof d?.date === "string" && typeof d?.score === "number")
        : [],
    };
  } catch {
    return { days: [] };
  }
}

/** The score of the latest earlier trading day: what this rule saw then, or a stored market review of that day. */
async function previousLight(region: TMarket, date: string, memo: LightMemo): Promise<PreviousLight | null> {
  let best: PreviousLight | null = null;
  const consider = (candidate: PreviousLight) => {
    if (candidate.date < date && (best === null || candidate.date > best.date)) best = candidate;
  };
  for (const day of memo.days) consider({ ...day, source: "alert_check" });
  const reviews = await db().analysisHistory.findMany({
    where: { reportType: MARKET_REVIEW_REPORT_TYPE },
    orderBy: { id: "desc" },
    take: 30,
  });
  for (const record of reviews) {
    const parsed = ZMarketReviewPayload.safeParse(getMarketReviewParts(record).payload);
    if (!parsed.success) continue;
    for (const m of reviewMarkets(parsed.data)) {
      if (m.region === region && m.date && m.market_light.score !== null)
        consider({ date: m.date, score: m.market_light.score, source: `market_review #${record.id}` });
    }
  }
  return best;
}

async function observeMarket(
  type: TMarketAlertType,
  parameters: TParametersOf<TMarketAlertType>,
  target: Extract<ExpandedTarget, { kind: "market" }>,
  state: AlertTargetState | null,
  pass: Pass,
): Promise<Observation> {
  const phase = phaseSummary(target.region, pass.at);
  if (pass.tradingHoursOnly && !phase.is_market_open_now)
    return observation(target, {
      quiet: true,
      reason: `${target.region} market closed`,
      diagnostics: { market_phase_summary: phase },
    });
  let light: { reading: MarketLightReading; source: string | null };
  try {
    light = await cached(pass.lights, target.region, () => readLight(target.region, pass));
  } catch (error) {
    return failure(target, error, "market light unavailable", { market_phase_summary: phase });
  }
  const { reading } = light;
  const date = reading.date ?? localDay(pass.at, MARKET_TIME_ZONE[target.region]);
  const memo = readMemo(state?.memo);
  const previous = type === "market_light_score_drop" ? await previousLight(target.region, date, memo) : null;
  const check = checkMarketCondition(type, parameters, reading, previous);
  const seen =
    reading.score === null
      ? memo.days
      : [...memo.days.filter((d) => d.date !== date), { date, score: reading.score }]
          .sort((a, b) => a.date.localeCompare(b.date))
          .slice(-5);
  return {
    ...fromCheck(target, check, {
      dataSource: light.source ?? "market_light",
      dataTimestamp: date,
      diagnostics: { market_phase_summary: phase },
    }),
    memo: JSON.stringify({ days: seen }),
  };
}

async function observe(
  rule: AlertRule,
  target: ExpandedTarget,
  state: AlertTargetState | null,
  pass: Pass,
): Promise<Observation> {
  const type = rule.alertType;
  const parameters = ruleParameters(rule) as never;
  try {
    if (target.kind === "invalid") return observation(target, { problem: "skipped", reason: target.reason });
    if (target.kind === "symbol" && (SYMBOL_ALERT_TYPES as readonly string[]).includes(type))
      return await observeSymbol(type as TSymbolAlertType, parameters, target, pass);
    if (target.kind === "account" && (PORTFOLIO_ALERT_TYPES as readonly string[]).includes(type))
      return await observeAccount(type as TPortfolioAlertType, parameters, target, pass);
    if (target.kind === "market" && (MARKET_ALERT_TYPES as readonly string[]).includes(type))
      return await observeMarket(type as TMarketAlertType, parameters, target, state, pass);
    return observation(target, { problem: "failed", reason: `${type} cannot be checked over ${rule.targetScope}` });
  } catch (error) {
    return failure(target, error, "check failed");
  }
}

// ---- recording --------------------------------------------------------------------------------------

async function stateOf(ruleId: number, target: string): Promise<AlertTargetState> {
  const where = { ruleId_target: { ruleId, target } };
  try {
    return await db().alertTargetState.upsert({ where, create: { ruleId, target }, update: {} });
  } catch (error) {
    // Prisma's upsert is a read then an insert: two replicas evaluating a new target at once both read nothing and
    // one insert is refused by the unique index. The row the other wrote is this target's state.
    if (!isUniqueViolation(error)) throw error;
    return db().alertTargetState.findUniqueOrThrow({ where });
  }
}

interface Firing {
  target: string;
  display: string;
  observed: number | null;
  threshold: number | null;
  reason: string;
  dataSource: string | null;
  dataTimestamp: string | null;
  diagnostics: Record<string, unknown>;
}

function inCooldown(rule: AlertRule, state: AlertTargetState, at: Date): boolean {
  return state.lastTriggeredAt !== null && at.getTime() - state.lastTriggeredAt.getTime() < rule.cooldownSeconds * 1000;
}

async function fire(
  rule: AlertRule,
  state: AlertTargetState,
  firing: Firing,
  at: Date,
  deliver: AlertDeliver,
): Promise<TAlertTriggerItem> {
  const text = `${firing.display}: ${firing.reason}${firing.dataTimestamp ? ` (${firing.dataTimestamp}, ${firing.dataSource ?? "?"})` : ""}`;
  const base = {
    ruleId: rule.id,
    alertType: rule.alertType,
    targetScope: rule.targetScope,
    target: firing.target,
    observedValue: firing.observed,
    threshold: firing.threshold,
    reason: firing.reason,
    message: `${rule.name}: ${text}`,
    dataSource: firing.dataSource,
    dataTimestamp: firing.dataTimestamp,
    triggeredAt: at,
    status: "triggered",
  };
  const diagnostics = (delivery_status: string, delivery: Record<string, unknown>) =>
    JSON.stringify({ severity: rule.severity, ...firing.diagnostics, delivery_status, delivery });
  const message = (triggerId: number): AlertMessage => ({
    triggerId,
    ruleId: rule.id,
    ruleName: rule.name,
    severity: rule.severity,
    target: firing.target,
    title: rule.name,
    text,
    observed: firing.observed,
    threshold: firing.threshold,
  });
  if (inCooldown(rule, state, at)) {
    const reason = `within the ${rule.cooldownSeconds} s cooldown after ${state.lastTriggeredAt!.toISOString()}`;
    const row = await db().alertTrigger.create({
      data: { ...base, diagnostics: diagnostics("suppressed", { reason: `cooldown_active: ${reason}` }) },
    });
    await recordHeldAlertNotification(noticeOf(message(row.id)), "cooldown_active", reason);
    return toAlertTrigger(row);
  }
  // Stored before sending so the notification can name the trigger; until the outcome is known its delivery reads
  // as failed, which is also what a crash in between leaves behind.
  const pending = await db().alertTrigger.create({
    data: { ...base, diagnostics: diagnostics("failed", { reason: "delivery in progress" }) },
  });
  let outcome: DeliveryOutcome;
  try {
    outcome = await deliver(message(pending.id));
  } catch (error) {
    outcome = { status: "failed", detail: { reason: sanitizeText((error as Error).message) } };
  }
  await db().alertTargetState.update({ where: { id: state.id }, data: { lastTriggeredAt: at } });
  await db().alertRule.update({ where: { id: rule.id }, data: { lastTriggeredAt: at } });
  const row = await db().alertTrigger.update({
    where: { id: pending.id },
    data: { diagnostics: diagnostics(outcome.status, outcome.detail) },
  });
  return toAlertTrigger(row);
}

/** Stores what a check found; returns the trigger records it wrote. */
async function record(rule: AlertRule, obs: Observation, pass: Pass): Promise<TAlertTriggerItem[]> {
  if (obs.quiet) return [];
  const at = pass.at;
  const state = await stateOf(rule.id, obs.target);
  const seen = { lastCheckedAt: at, ...(obs.memo !== undefined ? { memo: obs.memo } : {}) };
  if (obs.problem !== null) {
    // A check without an outcome is recorded when the target's outcome turns to it, not on every pass.
    const claimed = await db().alertTargetState.updateMany({
      where: { id: state.id, OR: [{ lastStatus: null }, { lastStatus: { not: obs.problem } }] },
      data: { ...seen, lastStatus: obs.problem },
    });
    if (claimed.count === 0) {
      await db().alertTargetState.update({ where: { id: state.id }, data: seen });
      return [];
    }
    const row = await db().alertTrigger.create({
      data: {
        ruleId: rule.id,
        alertType: rule.alertType,
        targetScope: rule.targetScope,
        target: obs.target,
        observedValue: obs.observed,
        threshold: obs.threshold,
        reason: obs.reason,
        message: `${rule.name}: ${obs.display}: ${obs.reason}`,
        dataSource: obs.dataSource,
        dataTimestamp: obs.dataTimestamp,
        status: obs.problem,
        diagnostics: JSON.stringify({ severity: rule.severity, ...obs.diagnostics }),
        triggeredAt: at,
      },
    });
    return [toAlertTrigger(row)];
  }
  if (!obs.met) {
    await db().alertTargetState.update({
      where: { id: state.id },
      data: { ...seen, armed: true, lastValue: obs.observed, lastStatus: "not_triggered" },
    });
    return [];
  }
  // Disarming is the claim: one crossing fires once, in one process.
  const claimed = await db().alertTargetState.updateMany({
    where: { id: state.id, armed: true },
    data: { ...seen, armed: false, lastValue: obs.observed, lastStatus: "triggered" },
  });
  if (claimed.count === 0) {
    await db().alertTargetState.update({
      where: { id: state.id },
      data: { ...seen, lastValue: obs.observed, lastStatus: "triggered" },
    });
    return [];
  }
  return [await fire(rule, state, obs, at, pass.options.deliver)];
}

function toResult(obs: Observation): TAlertTargetResult {
  const evaluated = obs.problem === null && !obs.quiet;
  return {
    target: obs.target,
    display_target: obs.display,
    status: evaluated
      ? obs.met
        ? "triggered"
        : "not_triggered"
      : obs.problem === "degraded" || obs.problem === "failed"
        ? "evaluation_error"
        : "skipped",
    record_status: obs.quiet ? null : evaluated ? (obs.met ? "triggered" : null) : obs.problem,
    triggered: evaluated && obs.met,
    observed_value: obs.observed,
    threshold: obs.threshold,
    message: obs.reason,
    data_source: obs.dataSource,
    data_timestamp: obs.dataTimestamp,
  };
}

// ---- decision-signal rules (ours) ---------------------------------------------------------------------

/** The evidence statement (docs/api.md §13) of each report that made a signal, by report id. */
async function evidenceStatements(reportIds: readonly (number | null)[]): Promise<Map<number, string>> {
  const ids = [...new Set(reportIds.filter((id): id is number => id !== null))];
  if (ids.length === 0) return new Map();
  const rows = await db().analysisHistory.findMany({
    where: { id: { in: ids } },
    select: { id: true, reportJson: true },
  });
  const out = new Map<number, string>();
  for (const row of rows) {
    try {
      const statement = (JSON.parse(row.reportJson) as { details?: { evidence?: { statement?: unknown } } }).details
        ?.evidence?.statement;
      if (typeof statement === "string") out.set(row.id, statement);
    } catch {
      // a record whose stored JSON cannot be read has no statement to add
    }
  }
  return out;
}

async function evaluateSignalRule(rule: AlertRule, pass: Pass): Promise<RuleEvaluation> {
  const action = (ruleParameters(rule) as { action?: string }).action;
  const cursor = rule.signalCursor ?? 0;
  const signals = await db().decisionSignal.findMany({
    where: { targetKey: rule.targetKey, action, id: { gt: cursor } },
    orderBy: { id: "asc" },
    take: 50,
    select: { id: true, score: true, createdAt: true, triggerSource: true, sourceReportId: true },
  });
  const target = { target: rule.target, display: rule.target };
  const summary = observation(target, {
    met: signals.length > 0,
    observed: signals.at(-1)?.score ?? null,
    reason: signals.length > 0 ? `${signals.length} new ${action} signal(s)` : `no new ${action} signal`,
    dataSource: signals.at(-1)?.triggerSource ?? null,
    dataTimestamp: signals.at(-1)?.createdAt.toISOString() ?? null,
  });
  const results = [toResult(summary)];
  if (signals.length === 0 || pass.options.dryRun) return { results, triggers: [] };
  // Advancing the cursor is the claim: another process evaluating at the same moment matches nothing.
  const claimed = await db().alertRule.updateMany({
    where: { id: rule.id, signalCursor: rule.signalCursor },
    data: { signalCursor: signals.at(-1)!.id },
  });
  if (claimed.count === 0) return { results, triggers: [] };
  const triggers: TAlertTriggerItem[] = [];
  const statements = await evidenceStatements(signals.map((s) => s.sourceReportId));
  for (const signal of signals) {
    const statement = signal.sourceReportId === null ? null : statements.get(signal.sourceReportId);
    const state = await db().alertTargetState.upsert({
      where: { ruleId_target: { ruleId: rule.id, target: rule.target } },
      create: {
        ruleId: rule.id,
        target: rule.target,
        lastCheckedAt: pass.at,
        lastStatus: "triggered",
        lastValue: signal.score,
      },
      update: { lastCheckedAt: pass.at, lastStatus: "triggered", lastValue: signal.score },
    });
    const firing: Firing = {
      ...target,
      observed: signal.score,
      threshold: null,
      // The engine's record for this call travels with it: a trader reads the claim and its evidence together.
      reason: `new ${action} decision signal #${signal.id}${statement ? ` — ${statement}` : ""}`,
      dataSource: signal.triggerSource,
      dataTimestamp: signal.createdAt.toISOString(),
      diagnostics: { signal_id: signal.id },
    };
    triggers.push(await fire(rule, state, firing, pass.at, pass.options.deliver));
  }
  return { results, triggers };
}

// ---- passes -----------------------------------------------------------------------------------------

export interface RuleEvaluation {
  results: TAlertTargetResult[];
  triggers: TAlertTriggerItem[];
}

async function evaluateRule(rule: AlertRule, pass: Pass): Promise<RuleEvaluation> {
  if (!isAlertType(rule.alertType)) {
    const obs = observation(
      { target: rule.target, display: rule.target },
      { problem: "failed", reason: `unsupported alert type ${rule.alertType}` },
    );
    return { results: [toResult(obs)], triggers: pass.options.dryRun ? [] : await record(rule, obs, pass) };
  }
  if (rule.alertType === SIGNAL_ALERT_TYPE) return evaluateSignalRule(rule, pass);
  const expansion = await expandTargets(rule, pass.language);
  const observations: Observation[] = [];
  if (expansion.empty !== null) {
    observations.push(
      observation({ target: rule.target, display: rule.target }, { problem: "skipped", reason: expansion.empty }),
    );
  }
  const states = new Map<string, AlertTargetState>();
  if (rule.alertType === "market_light_score_drop") {
    for (const s of await db().alertTargetState.findMany({ where: { ruleId: rule.id } })) states.set(s.target, s);
  }
  for (const target of expansion.targets)
    observations.push(await observe(rule, target, states.get(target.target) ?? null, pass));
  const triggers: TAlertTriggerItem[] = [];
  if (!pass.options.dryRun) for (const obs of observations) triggers.push(...(await record(rule, obs, pass)));
  return { results: observations.map(toResult), triggers };
}

function newPass(options: EvaluateOptions): Pass {
  return {
    at: now(),
    options,
    language: normalizeReportLanguage(null, getSettings().REPORT_LANGUAGE) === "en" ? "en" : "zh",
    tradingHoursOnly: getSettings().ALERT_TRADING_HOURS_ONLY && !options.anyTime,
    series: new Map(),
    risks: new Map(),
    lights: new Map(),
  };
}

/** One rule now (the test endpoint): its target results; null when there is no such rule. */
export async function evaluateOneRule(
  ruleId: number,
  options: EvaluateOptions,
): Promise<(RuleEvaluation & { targetScope: TTargetScope }) | null> {
  const rule = await db().alertRule.findUnique({ where: { id: ruleId } });
  return rule
    ? { ...(await evaluateRule(rule, newPass(options))), targetScope: rule.targetScope as TTargetScope }
    : null;
}

/** One pass over the enabled rules (or the given ones). */
export async function evaluateAlertRules(options: EvaluateOptions): Promise<TAlertEvaluation> {
  const pass = newPass(options);
  const rules = await db().alertRule.findMany({
    where: options.ruleIds ? { id: { in: [...options.ruleIds] } } : { enabled: true },
    orderBy: { id: "asc" },
  });
  const checked: TAlertCheck[] = [];
  const triggers: TAlertTriggerItem[] = [];
  for (const rule of rules) {
    const result = await evaluateRule(rule, pass);
    checked.push(...result.results.map((r) => ({ ...r, rule_id: rule.id, alert_type: rule.alertType as TAlertType })));
    triggers.push(...result.triggers);
  }
  return { checked, triggers };
}
