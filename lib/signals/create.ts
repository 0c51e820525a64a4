import type { DecisionSignal, Prisma } from "@/generated/prisma/client";
import { db, type Tx } from "@/lib/db/client";
import { signalNow } from "./clock";
import { assertPricePlan, defaultExpiry, defaultHorizon, derivePlanQuality } from "./lifecycle";
import type { TDecisionSignalCreateRequest, TDecisionSignalItem, TSignalStatus } from "./schemas";
import { parseMetadata, toSignalItem } from "./serialize";
import { displacedWhere, expireOverdue, invalidateDisplaced, invalidateOpposites, invalidateVictims } from "./store";
import { signalTarget } from "./target";
import { isUniqueViolation } from "@/lib/db/errors";
import { lockInTransaction } from "@/lib/db/transaction-lock";

export interface CreateSignalResult {
  item: TDecisionSignalItem;
  created: boolean;
}

// A parallel create can win the unique dedup key between our check and our insert, or commit a relaxed match
// while we wait for the stock's lock; the retry then finds its row. Each loser sees the winner's committed row,
// so a retry ends in the match path, which neither inserts nor aborts.
const RETRIES = 3;

/** A relaxed match committed while this create waited for its stock's lock: the insert is rolled back and retried. */
class RelaxedMatchCommitted extends Error {}

/**
 * POST /api/v1/decision-signals (spec 3.2, 4.5 rule 4). Fills the default lifecycle, checks the price plan,
 * runs the lazy expiry, then dedups (exact key, then the relaxed match against active or expired rows) and
 * either answers the match (created=false; an expired match renewed by an active create; an active match's
 * invalidation repair rerun) or inserts the signal and invalidates the signals it displaces: the opposite side's,
 * and the older active ones of its own side (superseded), so a stock keeps one active signal per side.
 *
 * Concurrency: the exact dedup key is a unique index, so parallel creates with the same key yield one row,
 * whichever process they run in. The relaxed match and the opposite side are settled under a per-stock lock
 * (a transaction advisory lock on PostgreSQL; on SQLite every transaction of the process already runs alone).
 * All of a create's reads run in its transactions (on SQLite a bare statement would run inside another open
 * transaction on the adapter's one connection). A match found is found again under the lock and answered there.
 * For a new signal the lock is held only for the last read and the commit: the row is inserted before it, and
 * under it one query finds both a relaxed match that committed meanwhile (the insert is then rolled back and retried) and
 * the signals to invalidate. So two parallel creates differing only in horizon or market_phase never both insert,
 * and neither two opposite signals nor two of one side are left active (the later commit wins), on one file or across replicas,
 * while creates for one stock from many replicas queue only for two round trips each. Creates without
 * source_report_id and trace_id are never deduplicated.
 */
export async function createSignal(request: TDecisionSignalCreateRequest): Promise<CreateSignalResult> {
  const plan = {
    entry_low: request.entry_low,
    entry_high: request.entry_high,
    stop_loss: request.stop_loss,
    target_price: request.target_price,
  };
  assertPricePlan(request.action, plan);
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await createOnce(request);
    } catch (error) {
      if (attempt < RETRIES && (isUniqueViolation(error) || error instanceof RelaxedMatchCommitted)) continue;
      throw error;
    }
  }
}

interface Keys {
  dedupKey: string | null;
  relaxedKey: string | null;
}

/** docs/api.md §4: (source_report_id or trace_id, source_type, market, stock, action, horizon, market_phase). */
export function signalKeys(fields: {
  sourceReportId?: number | null;
  traceId?: string | null;
  sourceType: string;
  market: string;
  targetKey: string;
  action: string;
  horizon: string;
  marketPhase?: string | null;
  decisionProfile?: string | null;
}): Keys {
  const source =
    fields.sourceReportId != null
      ? `report:${fields.sourceReportId}`
      : fields.traceId
        ? `trace:${fields.traceId}`
        : null;
  if (source === null) return { dedupKey: null, relaxedKey: null };
  // A profile joins the key only when set, so the keys of signals without one stay as they were stored.
  const relaxedKey = [source, fields.sourceType, fields.market, fields.targetKey, fields.action]
    .concat(fields.decisionProfile ? [`profile:${fields.decisionProfile}`] : [])
    .join("|");
  return { relaxedKey, dedupKey: [relaxedKey, fields.horizon, fields.marketPhase ?? "-"].join("|") };
}

/** The exact-key row if any, else the newest active or expired row with the relaxed key. */
async function findMatch(client: Tx, keys: Keys): Promise<DecisionSignal | null> {
  if (!keys.dedupKey || !keys.relaxedKey) return null;
  const rows = await client.decisionSignal.findMany({
    where: {
      OR: [{ dedupKey: keys.dedupKey }, { relaxedKey: keys.relaxedKey, status: { in: ["active", "expired"] } }],
    },
    orderBy: { id: "desc" },
  });
  return rows.find((row) => row.dedupKey === keys.dedupKey) ?? rows[0] ?? null;
}

function lockKey(targetKey: string): string {
  return `decision-signal:${targetKey}`;
}

async function createOnce(request: TDecisionSignalCreateRequest): Promise<CreateSignalResult> {
  const at = signalNow();
  // In a transaction of its own: lazy expiry is a catch-up any later reader may redo, and rows it locked inside the
  // create's transaction could be the very opposites that the lock's current holder is invalidating (a deadlock).
  // (Never a bare statement: on SQLite the adapter's one connection would run it inside another open transaction.)
  await db().$transaction((tx) => expireOverdue(tx, at));
  const target = signalTarget(request.stock_code, request.market);
  const horizon = request.horizon ?? defaultHorizon(request.action, request.market_phase);
  const expiresAt = request.expires_at ? new Date(request.expires_at) : defaultExpiry(horizon, request.market, at);
  // An active create whose expiry has already passed (a late replay) is stored expired: never an activation.
  const status: TSignalStatus =
    request.status === "active" && expiresAt !== null && expiresAt.getTime() <= at.getTime()
      ? "expired"
      : request.status;
  const keys = signalKeys({
    sourceReportId: request.source_report_id,
    traceId: request.trace_id,
    sourceType: request.source_type,
    market: request.market,
    targetKey: target.targetKey,
    action: request.action,
    horizon,
    marketPhase: request.market_phase,
    decisionProfile: request.decision_profile,
  });

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
    decisionProfile: request.decision_profile ?? null,
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
  return db().$transaction(async (tx) => {
    if (await findMatch(tx, keys)) {
      // Found again under the lock: since the first look it may have been invalidated or closed, or renewed.
      await lockInTransaction(tx, lockKey(target.targetKey));
      const match = await findMatch(tx, keys);
      if (match) return answerMatch(tx, match, status, expiresAt, at);
    }
    return insertAndSettle(tx, data, keys.relaxedKey, at);
  });
}

/** Inserts the signal, then under its stock's lock (taken again if the match check took it) checks for a relaxed match committed meanwhile and invalidates the opposite side. */
async function insertAndSettle(
  tx: Tx,
  data: Prisma.DecisionSignalUncheckedCreateInput,
  relaxedKey: string | null,
  at: Date,
): Promise<CreateSignalResult> {
  const row = await tx.decisionSignal.create({ data });
  const displaced = row.status === "active" ? displacedWhere(row) : null;
  const relaxedMatch: Prisma.DecisionSignalWhereInput | null = relaxedKey
    ? { relaxedKey, status: { in: ["active", "expired"] }, id: { not: row.id } }
    : null;
  const settle = [relaxedMatch, displaced].filter((where) => where !== null);
  if (settle.length === 0) return { item: toSignalItem(row), created: true };
  await lockInTransaction(tx, lockKey(row.targetKey));
  const found = await tx.decisionSignal.findMany({
    where: { OR: settle },
    select: { id: true, relaxedKey: true, metadata: true, action: true },
  });
  // A relaxed match has this signal's relaxed key; a displaced signal (the other side's, or an older one of this side
  // from another source or action) has another, so the key tells them apart.
  if (relaxedKey && found.some((other) => other.relaxedKey === relaxedKey)) throw new RelaxedMatchCommitted();
  await invalidateVictims(tx, found, row, at);
  return { item: toSignalItem(row), created: true };
}

/**
 * Spec 3.2 for a create that matched: an active match is a duplicate retry (returned unchanged, invalidation
 * rerun as a repair); an expired match is renewed to active by an active create (new expiry, invalidation);
 * anything else — a non-active create, or a match that is invalidated, closed or archived — is returned as it
 * is, so an old replayed create never activates anything.
 */
async function answerMatch(
  tx: Tx,
  match: DecisionSignal,
  incoming: TSignalStatus,
  expiresAt: Date | null,
  at: Date,
): Promise<CreateSignalResult> {
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
    await invalidateDisplaced(tx, renewed, at);
    return { item: toSignalItem(renewed), created: false };
  }
  return { item: toSignalItem(match), created: false };
}
