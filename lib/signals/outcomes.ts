import { Prisma, type DecisionSignal, type DecisionSignalOutcome } from "@/generated/prisma/client";
import { now } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { activeDatabaseKind, placeholders } from "@/lib/db/raw-sql";
import { symbolKey } from "@/lib/market";
import { reportBarSources } from "@/lib/history/repository";
import { barsSince } from "@/lib/market/bars/bars-since";
import { lastClosedTradingDay } from "@/lib/market/market-time";
import type { TMarket } from "@/lib/market/symbols";
import { horizonSessions } from "./lifecycle";
import { ENGINE_VERSION, evaluateOutcome, type OutcomeEvaluation } from "./outcome-engine";
import { stockTargetKeys } from "./read";
import {
  OUTCOME_HORIZONS,
  type TDecisionSignalOutcomeItem,
  type TOutcomeHorizon,
  type TOutcomeListQuery,
  type TOutcomeRunRequest,
  type TOutcomeRunResponse,
  type TSignalAction,
} from "./schemas";
import { toOutcomeItem } from "./serialize";
import { getSignalRowOrThrow } from "./store";
import { marketSymbolOf } from "./target";

const SIGNAL_FACTS = { action: true, market: true, marketPhase: true, sourceType: true, planQuality: true } as const;

/** SQL conditions on decision_signal s for a run's filters. */
function runFilters(request: TOutcomeRunRequest): Prisma.Sql[] {
  const conditions: Prisma.Sql[] = [Prisma.sql`1 = 1`];
  if (request.signal_id != null) conditions.push(Prisma.sql`s.id = ${request.signal_id}`);
  if (request.market) conditions.push(Prisma.sql`s.market = ${request.market}`);
  if (request.stock_code)
    conditions.push(
      Prisma.sql`s.target_key IN (${Prisma.join(stockTargetKeys(request.stock_code, request.market ?? undefined))})`,
    );
  if (request.action) conditions.push(Prisma.sql`s.action = ${request.action}`);
  if (request.source_type) conditions.push(Prisma.sql`s.source_type = ${request.source_type}`);
  if (request.status) conditions.push(Prisma.sql`s.status = ${request.status}`);
  return conditions;
}

/** A row no run recomputes without force: completed, or unable for a reason more data cannot fix. */
const FINAL_ROW = Prisma.sql`(f.eval_status = 'completed' OR NOT f.retryable)`;

/**
 * Candidate signals of a run: the filters, and (without force) only those with work left for some requested
 * horizon (no row yet, or a recoverable unable row). Least recently evaluated first, then oldest, so repeated
 * runs with a limit walk through every signal instead of retrying the same recoverable ones forever. One
 * bounded SQL query (the ordering needs an aggregate Prisma cannot express).
 */
async function candidateIds(
  request: TOutcomeRunRequest,
  horizons: readonly TOutcomeHorizon[],
  limit: number,
): Promise<number[]> {
  const conditions = runFilters(request);
  if (!request.force) {
    conditions.push(Prisma.sql`(SELECT COUNT(*) FROM decision_signal_outcome f WHERE f.signal_id = s.id AND f.engine_version = ${ENGINE_VERSION}
      AND f.horizon IN (${Prisma.join([...horizons])}) AND ${FINAL_ROW}) < ${horizons.length}`);
  }
  const rows = await db().$queryRaw<{ id: number | bigint }[]>(Prisma.sql`
    SELECT s.id AS id FROM decision_signal s
    LEFT JOIN (SELECT signal_id, MAX(updated_at) AS last_tried FROM decision_signal_outcome WHERE engine_version = ${ENGINE_VERSION} GROUP BY signal_id) t
      ON t.signal_id = s.id
    WHERE ${Prisma.join(conditions, " AND ")}
    ORDER BY t.last_tried ASC NULLS FIRST, s.id ASC
    LIMIT ${limit}`);
  return rows.map((r) => Number(r.id));
}

/** Pairs (signal × requested horizon) of the matching signals that are final and so left alone (without force). */
async function countFinal(request: TOutcomeRunRequest, horizons: readonly TOutcomeHorizon[]): Promise<number> {
  if (request.force) return 0;
  const rows = await db().$queryRaw<{ n: number | bigint }[]>(Prisma.sql`
    SELECT COUNT(*) AS n FROM decision_signal_outcome f JOIN decision_signal s ON s.id = f.signal_id
    WHERE ${Prisma.join(runFilters(request), " AND ")} AND f.engine_version = ${ENGINE_VERSION}
      AND f.horizon IN (${Prisma.join([...horizons])}) AND ${FINAL_ROW}`);
  return Number(rows[0]?.n ?? 0);
}

interface Pending {
  signal: DecisionSignal;
  horizon: TOutcomeHorizon;
  existing: DecisionSignalOutcome | undefined;
  evaluation: OutcomeEvaluation;
}

// Columns of one multi-row upsert; the order matches rowValues.
const COLUMNS = [
  "signal_id",
  "horizon",
  "engine_version",
  "eval_status",
  "retryable",
  "outcome",
  "direction_expected",
  "direction_correct",
  "unable_reason",
  "anchor_date",
  "eval_window_days",
  "start_price",
  "end_date",
  "end_close",
  "max_high",
  "min_low",
  "stock_return_pct",
  "max_favorable_excursion_pct",
  "max_adverse_excursion_pct",
  "entry_reachable",
  "first_hit",
  "first_hit_date",
  "created_at",
  "updated_at",
];
// Everything but the key and created_at is replaced on conflict (force and recoverable rows overwrite in place).
const UPDATED = COLUMNS.filter((c) => !["signal_id", "horizon", "engine_version", "created_at"].includes(c))
  .map((c) => `"${c}" = excluded."${c}"`)
  .join(", ");

const bool = (v: boolean | null) => (v === null ? null : v ? 1 : 0);

// PostgreSQL casts each JSON element to its column's type (SQLite's json_extract keeps the JSON type).
const POSTGRES_TYPES: Record<string, string> = {
  signal_id: "integer",
  eval_window_days: "integer",
  retryable: "boolean",
  direction_correct: "boolean",
  entry_reachable: "boolean",
  start_price: "double precision",
  end_close: "double precision",
  max_high: "double precision",
  min_low: "double precision",
  stock_return_pct: "double precision",
  max_favorable_excursion_pct: "double precision",
  max_adverse_excursion_pct: "double precision",
  created_at: "timestamp(3)",
  updated_at: "timestamp(3)",
};

function jsonRowsSource(): string {
  if (activeDatabaseKind() === "sqlite")
    return `SELECT ${COLUMNS.map((_, i) => `json_extract(value, '$[${i}]')`).join(", ")} FROM json_each(?)`;
  return `SELECT ${COLUMNS.map((c, i) => `(e ->> ${i})::${POSTGRES_TYPES[c] ?? "text"}`).join(", ")} FROM jsonb_array_elements(?::jsonb) AS e`;
}

function rowValues(p: Pending, stamp: string): unknown[] {
  const e = p.evaluation;
  return [
    p.signal.id,
    p.horizon,
    ENGINE_VERSION,
    e.evalStatus,
    bool(e.retryable),
    e.outcome,
    e.directionExpected,
    bool(e.directionCorrect),
    e.unableReason,
    e.anchorDate,
    e.evalWindowDays,
    e.startPrice,
    e.endDate,
    e.endClose,
    e.maxHigh,
    e.minLow,
    e.stockReturnPct,
    e.maxFavorableExcursionPct,
    e.maxAdverseExcursionPct,
    bool(e.entryReachable),
    e.firstHit,
    e.firstHitDate,
    stamp,
    stamp,
  ];
}

function toRow(p: Pending, id: number, createdAt: Date, at: Date): DecisionSignalOutcome {
  const e = p.evaluation;
  return {
    id,
    signalId: p.signal.id,
    horizon: p.horizon,
    engineVersion: ENGINE_VERSION,
    evalStatus: e.evalStatus,
    retryable: e.retryable,
    outcome: e.outcome,
    directionExpected: e.directionExpected,
    directionCorrect: e.directionCorrect,
    unableReason: e.unableReason,
    anchorDate: e.anchorDate,
    evalWindowDays: e.evalWindowDays,
    startPrice: e.startPrice,
    endDate: e.endDate,
    endClose: e.endClose,
    maxHigh: e.maxHigh,
    minLow: e.minLow,
    stockReturnPct: e.stockReturnPct,
    maxFavorableExcursionPct: e.maxFavorableExcursionPct,
    maxAdverseExcursionPct: e.maxAdverseExcursionPct,
    entryReachable: e.entryReachable,
    firstHit: e.firstHit,
    firstHitDate: e.firstHitDate,
    createdAt,
    updatedAt: at,
  };
}

/**
 * Writes a run's rows in one statement: a multi-row upsert on (signal_id, horizon, engine_version) whose rows
 * arrive as one JSON parameter (json_each / jsonb_array_elements), returning each row's id and creation time. Per-row ORM writes, and
 * even one bound parameter per value, made a run several times slower (bench/signal-outcomes.bench.ts).
 */
async function writeRows(pending: readonly Pending[], at: Date): Promise<DecisionSignalOutcome[]> {
  // The text form the Prisma SQLite adapter writes for DateTime columns; PostgreSQL reads it as the UTC time.
  const stamp = at.toISOString().replace("Z", "+00:00");
  const sql =
    `INSERT INTO "decision_signal_outcome" (${COLUMNS.map((c) => `"${c}"`).join(", ")}) ` +
    `${jsonRowsSource()} WHERE true ` +
    `ON CONFLICT ("signal_id", "horizon", "engine_version") DO UPDATE SET ${UPDATED} ` +
    `RETURNING "id", "signal_id", "horizon", "created_at"`;
  const returned = await db().$queryRawUnsafe<
    { id: number | bigint; signal_id: number | bigint; horizon: string; created_at: string | Date }[]
  >(placeholders(sql), JSON.stringify(pending.map((p) => rowValues(p, stamp))));
  const byKey = new Map(pending.map((p) => [`${p.signal.id}|${p.horizon}`, p]));
  return returned.map((r) =>
    toRow(byKey.get(`${Number(r.signal_id)}|${r.horizon}`)!, Number(r.id), new Date(r.created_at), at),
  );
}

/**
 * POST /api/v1/decision-signals/outcomes/run (spec 3.3): evaluates up to `limit` signals over the requested
 * horizons (default 1d, 3d, 5d, 10d) with engine decision-signal-v1. Completed rows and terminal unable rows
 * are skipped unless force; recoverable unable rows are recomputed; rows are keyed by (signal, horizon,
 * engine version), so force overwrites in place.
 */
export async function runOutcomes(request: TOutcomeRunRequest): Promise<TOutcomeRunResponse> {
  if (request.signal_id != null) await getSignalRowOrThrow(db(), request.signal_id);
  const horizons = [...new Set(request.horizons ?? OUTCOME_HORIZONS)];
  // Counted before this run writes, so its own new rows are not reported as skipped.
  const skipped = await countFinal(request, horizons);
  const ids = await candidateIds(request, horizons, request.limit);
  const signals = await db().decisionSignal.findMany({
    where: { id: { in: ids } },
    include: { outcomes: { where: { engineVersion: ENGINE_VERSION, horizon: { in: horizons } } } },
    orderBy: { id: "asc" },
  });
  // The anchor: the last session closed when the signal was created.
  const anchored = signals.map((signal) => ({
    signal,
    anchorDate: lastClosedTradingDay(signal.market as TMarket, signal.createdAt),
  }));
  const bars = await barsSince(
    anchored.map(({ signal, anchorDate }) => ({ symbol: marketSymbolOf(signal), from: anchorDate })),
    "decision signal outcomes",
  );
  const sources = await reportBarSources(signals.flatMap((s) => (s.sourceReportId === null ? [] : [s.sourceReportId])));
  const pending: Pending[] = [];
  for (const { signal, anchorDate } of anchored) {
    const series = bars.get(symbolKey(marketSymbolOf(signal))) ?? [];
    for (const horizon of horizons) {
      const existing = signal.outcomes.find((o) => o.horizon === horizon);
      const final = existing && (existing.evalStatus === "completed" || !existing.retryable);
      if (final && !request.force) continue;
      const evaluation = evaluateOutcome(
        {
          action: signal.action as TSignalAction,
          entryLow: signal.entryLow,
          entryHigh: signal.entryHigh,
          stopLoss: signal.stopLoss,
          targetPrice: signal.targetPrice,
          source: signal.sourceReportId === null ? null : sources.get(signal.sourceReportId),
        },
        series,
        anchorDate,
        horizonSessions(horizon)!,
      );
      pending.push({ signal, horizon, existing, evaluation });
    }
  }
  const written = pending.length > 0 ? await writeRows(pending, now()) : [];
  const byId = new Map(signals.map((s) => [s.id, s]));
  const created = pending.filter((p) => !p.existing).length;
  return {
    items: written.map((row) => toOutcomeItem(row, byId.get(row.signalId) ?? null)),
    evaluated: pending.length,
    created,
    updated: pending.length - created,
    skipped,
    engine_version: ENGINE_VERSION,
  };
}

// GET /api/v1/decision-signals/outcomes – outcome rows of one engine version (default the current), newest first
export async function listOutcomes(query: TOutcomeListQuery) {
  const where: Prisma.DecisionSignalOutcomeWhereInput = { engineVersion: query.engine_version ?? ENGINE_VERSION };
  if (query.signal_id !== undefined) where.signalId = query.signal_id;
  if (query.horizon) where.horizon = query.horizon;
  if (query.eval_status) where.evalStatus = query.eval_status;
  if (query.outcome) where.outcome = query.outcome;
  const [total, rows] = await Promise.all([
    db().decisionSignalOutcome.count({ where }),
    db().decisionSignalOutcome.findMany({
      where,
      include: { signal: { select: SIGNAL_FACTS } },
      orderBy: [{ updatedAt: "desc" }, { id: "desc" }],
      skip: (query.page - 1) * query.page_size,
      take: query.page_size,
    }),
  ]);
  return { items: rows.map((r) => toOutcomeItem(r, r.signal)), total, page: query.page, page_size: query.page_size };
}

// GET /api/v1/decision-signals/{signal_id}/outcomes – the signal's rows of the current engine, by horizon
export async function signalOutcomes(signalId: number) {
  const signal = await getSignalRowOrThrow(db(), signalId);
  const rows = await db().decisionSignalOutcome.findMany({ where: { signalId, engineVersion: ENGINE_VERSION } });
  const order = (h: string) => (OUTCOME_HORIZONS as readonly string[]).indexOf(h);
  const items: TDecisionSignalOutcomeItem[] = rows
    .sort((a, b) => order(a.horizon) - order(b.horizon))
    .map((r) => toOutcomeItem(r, signal));
  return { items, total: items.length, page: 1, page_size: Math.max(1, items.length) };
}
