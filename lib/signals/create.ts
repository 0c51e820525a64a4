import type { DecisionSignal, Prisma } from "@/generated/prisma/client";
import { db, type Tx } from "@/lib/db/client";
import { signalNow } from "./clock";
import { assertPricePlan, defaultExpiry, defaultHorizon, derivePlanQuality } from "./lifecycle";
import type { TDecisionSignalCreateRequest, TDecisionSignalItem, TSignalStatus } from "./schemas";
import { parseMetadata, toSignalItem } from "./serialize";
import { expireOverdue, invalidateOpposites } from "./store";
import { signalTarget } from "./target";
import { isUniqueViolation } from "@/lib/db/errors";
import { lockInTransaction } from "@/lib/db/transaction-lock";

export interface CreateSignalResult {
  item: TDecisionSignalItem;
  created: boolean;
}

// A parallel create in another process can win the unique dedup key between our check and our insert; the
// retry then finds its row. Two retries are plenty: each loser sees the winner's committed row.
const UNIQUE_RETRIES = 2;

/**
 * POST /api/v1/decision-signals (spec 3.2, 4.5 rule 4). Fills the default lifecycle, checks the price plan,
 * then in one transaction: lazy expiry, dedup (exact key, then the relaxed match against active or expired
 * rows), and either returns the match (created=false; an expired match renewed by an active create; an active
 * match's invalidation repair rerun) or inserts the signal and invalidates the opposite side.
 *
 * Concurrency: the exact dedup key is a unique index, so parallel creates with the same key yield one row,
 * whichever process they run in. The relaxed match and the opposite side's invalidation are checked inside the
 * same write transaction under a per-stock lock (SQLite's writer lock; a transaction advisory lock on
 * PostgreSQL), so two parallel creates differing only in horizon or market_phase never both insert, on one
 * file or across replicas. Creates without source_report_id and trace_id are never deduplicated.
 */
export async function createSignal(request: TDecisionSignalCreateRequest): Promise<CreateSignalResult> {
  const plan = { entry_low: request.entry_low, entry_high: request.entry_high, stop_loss: request.stop_loss, target_price: request.target_price };
  assertPricePlan(request.action, plan);
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await db().$transaction((tx) => createIn(tx, request));
    } catch (error) {
      if (attempt < UNIQUE_RETRIES && isUniqueViolation(error)) continue;
      throw error;
    }
  }
}

interface Keys {
  dedupKey: string | null;
  relaxedKey: string | null;
}

/** CONTRACT §4: (source_report_id or trace_id, source_type, market, stock, action, horizon, market_phase). */
export function signalKeys(fields: {
  sourceReportId?: number | null;
  traceId?: string | null;
  sourceType: string;
  market: string;
  targetKey: string;
  action: string;
  horizon: string;
  marketPhase?: string | null;
}): Keys {
  const source = fields.sourceReportId != null ? `report:${fields.sourceReportId}` : fields.traceId ? `trace:${fields.traceId}` : null;
  if (source === null) return { dedupKey: null, relaxedKey: null };
  const relaxedKey = [source, fields.sourceType, fields.market, fields.targetKey, fields.action].join("|");
  return { relaxedKey, dedupKey: [relaxedKey, fields.horizon, fields.marketPhase ?? "-"].join("|") };
}

async function findMatch(tx: Tx, keys: Keys): Promise<DecisionSignal | null> {
  if (!keys.dedupKey || !keys.relaxedKey) return null;
  const exact = await tx.decisionSignal.findUnique({ where: { dedupKey: keys.dedupKey } });
  if (exact) return exact;
  return tx.decisionSignal.findFirst({
    where: { relaxedKey: keys.relaxedKey, status: { in: ["active", "expired"] } },
    orderBy: { id: "desc" },
  });
}

async function createIn(tx: Tx, request: TDecisionSignalCreateRequest): Promise<CreateSignalResult> {
  const at = signalNow();
  await expireOverdue(tx, at);
  const target = signalTarget(request.stock_code, request.market);
  const horizon = request.horizon ?? defaultHorizon(request.action, request.market_phase);
  const expiresAt = request.expires_at ? new Date(request.expires_at) : defaultExpiry(horizon, request.market, at);
  // An active create whose expiry has already passed (a late replay) is stored expired: never an activation.
  const status: TSignalStatus = request.status === "active" && expiresAt !== null && expiresAt.getTime() <= at.getTime() ? "expired" : request.status;
  const keys = signalKeys({
    sourceReportId: request.source_report_id,
    traceId: request.trace_id,
    sourceType: request.source_type,
    market: request.market,
    targetKey: target.targetKey,
    action: request.action,
    horizon,
    marketPhase: request.market_phase,
  });

  await lockInTransaction(tx, `decision-signal:${target.targetKey}`);
  const match = await findMatch(tx, keys);
  if (match) return answerMatch(tx, match, status, expiresAt, at);

  const data: Prisma.DecisionSignalUncheckedCreateInput = {
    stockCode: target.stockCode,
    stockName: request.stock_name ?? null,
    market: request.market,
    assetType: target.assetType,
    targetKey: target.targetKey,
    sourceType: request.source_type,
    sourceAgent: request.source_agent ?? null,
    sourceReportId: request.source_report_id ?? null,
    traceId: request.trace_id ?? null,
    marketPhase: request.market_phase ?? null,
    triggerSource: request.trigger_source,
    action: request.action,
    actionLabel: request.action_label ?? null,
    confidence: request.confidence ?? null,
    score: request.score ?? null,
    horizon,
    entryLow: request.entry_low ?? null,
    entryHigh: request.entry_high ?? null,
    stopLoss: request.stop_loss ?? null,
    targetPrice: request.target_price ?? null,
    invalidation: request.invalidation ?? null,
    watchConditions: request.watch_conditions ?? null,
    reason: request.reason ?? null,
    riskSummary: request.risk_summary ?? null,
    catalystSummary: request.catalyst_summary ?? null,
    evidence: request.evidence ?? null,
    dataQualitySummary: request.data_quality_summary ?? null,
    planQuality: request.plan_quality ?? derivePlanQuality(request),
    status,
    expiresAt,
    metadata: request.metadata ? JSON.stringify(request.metadata) : null,
    reportLanguage: request.report_language ?? null,
    decisionEngineVersion: request.decision_engine_version ?? null,
    dedupKey: keys.dedupKey,
    relaxedKey: keys.relaxedKey,
    createdAt: at,
    updatedAt: at,
  };
  const row = await tx.decisionSignal.create({ data });
  if (row.status === "active") await invalidateOpposites(tx, row, at);
  return { item: toSignalItem(row), created: true };
}

/**
 * Spec 3.2 for a create that matched: an active match is a duplicate retry (returned unchanged, invalidation
 * rerun as a repair); an expired match is renewed to active by an active create (new expiry, invalidation);
 * anything else — a non-active create, or a match that is invalidated, closed or archived — is returned as it
 * is, so an old replayed create never activates anything.
 */
async function answerMatch(tx: Tx, match: DecisionSignal, incoming: TSignalStatus, expiresAt: Date | null, at: Date): Promise<CreateSignalResult> {
  if (match.status === "active") {
    await invalidateOpposites(tx, match, at);
    return { item: toSignalItem(match), created: false };
  }
  if (match.status === "expired" && incoming === "active") {
    const metadata = { ...(parseMetadata(match.metadata) ?? {}), renewed_at: at.toISOString() };
    const renewed = await tx.decisionSignal.update({
      where: { id: match.id },
      data: { status: "active", expiresAt, metadata: JSON.stringify(metadata), updatedAt: at },
    });
    await invalidateOpposites(tx, renewed, at);
    return { item: toSignalItem(renewed), created: false };
  }
  return { item: toSignalItem(match), created: false };
}
