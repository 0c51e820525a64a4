import os from "node:os";
import { Prisma, type AnalysisTask } from "@/generated/prisma/client";
import { now } from "@/lib/clock";
import { getSettings } from "@/lib/settings/settings";
import { db, type Tx } from "@/lib/db/client";
import { activeDatabaseKind, placeholders } from "@/lib/db/raw-sql";
import { ACTIVE_STATUSES, type TTaskKind } from "./schemas";
import { isUniqueViolation } from "@/lib/db/errors";
import type { FailureReason } from "@/lib/errors/failure-reason";

export type TaskRow = AnalysisTask;

export interface NewTask {
  id: string;
  traceId: string | null;
  kind: TTaskKind;
  stockCode: string;
  stockName: string | null;
  market: string | null;
  assetType: "stock" | "index" | null;
  activeKey: string;
  request: Record<string, unknown>;
  originalQuery: string | null;
  selectionSource: string | null;
  reportType: string | null;
  analysisPhase: string | null;
  skills: string[] | null;
  region: string | null;
  message: string;
}

export type CreateOutcome = { created: true; task: TaskRow } | { created: false; existing: TaskRow };

// Strictly increasing creation times within a process keep a batch in submission order (FIFO) even when
// its tasks are stored within one millisecond.
// A clock set back by more than a second (a test's clock, an NTP step) is followed rather than bridged.
let lastCreatedMs = 0;
function creationTime(): Date {
  const at = now().getTime();
  lastCreatedMs = at < lastCreatedMs - 1000 ? at : Math.max(at, lastCreatedMs + 1);
  return new Date(lastCreatedMs);
}

/**
 * Stores a pending task unless a live one holds the same key. The unique active_key makes the check and
 * the insert one atomic step, even for two server processes on one database file.
 */
/**
 * Inserts a pending task with the client given, a transaction's included (a write that must land with another, as a
 * backtest run and its task do). No retry: a unique violation on the active key fails the insert (see createTask).
 */
export function insertTask(client: Pick<Tx, "analysisTask">, task: NewTask): Promise<TaskRow> {
  return client.analysisTask.create({
    data: {
      ...task,
      request: JSON.stringify(task.request),
      skills: task.skills ? JSON.stringify(task.skills) : null,
      status: "pending",
      progress: 0,
      createdAt: creationTime(),
    },
  });
}

export async function createTask(task: NewTask): Promise<CreateOutcome> {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return { created: true, task: await insertTask(db(), task) };
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      const existing = await db().analysisTask.findUnique({ where: { activeKey: task.activeKey } });
      if (existing) return { created: false, existing };
      // The live task finished between the insert and the lookup: its key is free again, try once more.
    }
  }
  throw new Error(`Could not queue ${task.stockCode}: its task key kept changing`);
}

// "<host>:<pid>:<random>" names one running server process in the logs and task rows (recovery goes by the lease alone).
const holder = globalThis as typeof globalThis & { __dsaTaskOwner?: string };
export function processOwnerId(): string {
  holder.__dsaTaskOwner ??= `${os.hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 10)}`;
  return holder.__dsaTaskOwner;
}

// Renewed every LEASE_RENEW_MS by the worker pool, so three missed renewals in a row pass before another
// process may take the task: long enough for a stalled event loop, short enough for a restart to resume soon.
export const LEASE_MS = 20_000;
export const LEASE_RENEW_MS = 5_000;

/**
 * Takes the oldest pending task whose market is not throttled. SQLite (one writer at a time): the
 * conditional update is the claim; when another process took the row first it matches nothing and the next
 * candidate is tried. PostgreSQL: one statement that locks the row it picks and skips rows other replicas
 * are claiming, so concurrent workers never queue behind each other or take the same task.
 */
export async function claimNextTask(owner: string, excludeMarkets: readonly string[] = []): Promise<TaskRow | null> {
  if (activeDatabaseKind() === "postgres") return claimSkipLocked(owner, excludeMarkets);
  const where: Prisma.AnalysisTaskWhereInput = { status: "pending" };
  if (excludeMarkets.length > 0) where.OR = [{ market: null }, { market: { notIn: [...excludeMarkets] } }];
  // Another process may claim the candidate between the read and the update (the update then changes nothing): try
  // the next one for as long as any is pending. Giving up after a few lost races answered "none left" while tasks
  // waited, and this process's pump stopped until the next wake. Every lost race is a task another process took,
  // so the loop ends.
  for (;;) {
    const candidate = await db().analysisTask.findFirst({
      where,
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      select: { id: true },
    });
    if (!candidate) return null;
    const startedAt = now();
    const claimed = await db().analysisTask.updateMany({
      where: { id: candidate.id, status: "pending" },
      data: {
        status: "processing",
        leaseOwner: owner,
        leaseUntil: new Date(startedAt.getTime() + LEASE_MS),
        startedAt,
        progress: 1,
        message: "started",
        attempts: { increment: 1 },
      },
    });
    if (claimed.count === 1) return db().analysisTask.findUnique({ where: { id: candidate.id } });
  }
}

async function claimSkipLocked(owner: string, excludeMarkets: readonly string[]): Promise<TaskRow | null> {
  const startedAt = now();
  const markets =
    excludeMarkets.length > 0
      ? `AND (market IS NULL OR market NOT IN (${excludeMarkets.map(() => "?").join(", ")}))`
      : "";
  const [row] = await db().$queryRawUnsafe<{ id: string }[]>(
    placeholders(`UPDATE analysis_task SET status = 'processing', lease_owner = ?, lease_until = ?, started_at = ?, progress = 1,
         message = 'started', attempts = attempts + 1
       WHERE id = (SELECT id FROM analysis_task WHERE status = 'pending' ${markets}
                   ORDER BY created_at ASC, id ASC LIMIT 1 FOR UPDATE SKIP LOCKED)
       RETURNING id`),
    owner,
    new Date(startedAt.getTime() + LEASE_MS),
    startedAt,
    ...excludeMarkets,
  );
  return row ? db().analysisTask.findUnique({ where: { id: row.id } }) : null;
}

/** Progress of a task this process holds; a task it no longer holds (re-queued elsewhere) is left alone. */
export async function recordProgress(
  id: string,
  owner: string,
  progress: number,
  message: string,
): Promise<TaskRow | null> {
  const updated = await db().analysisTask.updateMany({
    where: { id, status: "processing", leaseOwner: owner },
    data: { progress, message },
  });
  return updated.count === 1 ? db().analysisTask.findUnique({ where: { id } }) : null;
}

export async function finishTask(
  id: string,
  owner: string,
  outcome: {
    status: "completed" | "failed";
    message: string;
    error?: string | null;
    reason?: FailureReason | null;
    stockName?: string | null;
  },
): Promise<TaskRow | null> {
  const data: Prisma.AnalysisTaskUpdateManyMutationInput = {
    status: outcome.status,
    message: outcome.message,
    error: outcome.error ?? null,
    errorCode: outcome.reason?.code ?? null,
    errorParams: outcome.reason ? JSON.stringify(outcome.reason.params) : null,
    completedAt: now(),
    activeKey: null,
    leaseOwner: null,
    leaseUntil: null,
  };
  if (outcome.status === "completed") data.progress = 100;
  if (outcome.stockName) data.stockName = outcome.stockName;
  const updated = await db().analysisTask.updateMany({ where: { id, status: "processing", leaseOwner: owner }, data });
  return updated.count === 1 ? db().analysisTask.findUnique({ where: { id } }) : null;
}

export async function renewLeases(owner: string): Promise<void> {
  await db().analysisTask.updateMany({
    where: { status: "processing", leaseOwner: owner },
    data: { leaseUntil: new Date(now().getTime() + LEASE_MS) },
  });
}

/**
 * A holder is gone only when its lease ran out. A host name and a pid do not name one process list: containers
 * sharing a host name (or each running the server as pid 1) would read each other's live tasks as orphans and
 * run them twice. A crashed holder's tasks wait at most LEASE_MS before they are taken up again.
 */
function holderGone(row: Pick<TaskRow, "leaseOwner" | "leaseUntil">, self: string, at: Date): boolean {
  if (row.leaseOwner === self) return false;
  return !row.leaseOwner || !row.leaseUntil || row.leaseUntil <= at;
}

/**
 * Puts back in the queue every processing task whose holder died (crash, kill -9, restart). Each
 * re-queue is conditional on the row still naming the dead holder, so two recovering processes agree.
 */
export async function requeueOrphans(self: string): Promise<TaskRow[]> {
  const at = now();
  const processing = await db().analysisTask.findMany({
    where: { status: "processing" },
    select: { id: true, leaseOwner: true, leaseUntil: true },
  });
  const requeued: TaskRow[] = [];
  for (const row of processing) {
    if (!holderGone(row, self, at)) continue;
    const updated = await db().analysisTask.updateMany({
      where: { id: row.id, status: "processing", leaseOwner: row.leaseOwner },
      data: {
        status: "pending",
        progress: 0,
        leaseOwner: null,
        leaseUntil: null,
        startedAt: null,
        message: REQUEUED_MESSAGE,
      },
    });
    if (updated.count === 1) requeued.push((await db().analysisTask.findUnique({ where: { id: row.id } }))!);
  }
  return requeued;
}

export const REQUEUED_MESSAGE = "re-queued after a restart";

/** SIGTERM: this process's own running tasks go back to the queue at once instead of waiting for their lease. */
export async function releaseOwnTasks(owner: string): Promise<number> {
  const updated = await db().analysisTask.updateMany({
    where: { status: "processing", leaseOwner: owner },
    data: {
      status: "pending",
      progress: 0,
      leaseOwner: null,
      leaseUntil: null,
      startedAt: null,
      message: REQUEUED_MESSAGE,
    },
  });
  return updated.count;
}

/**
 * At start: tasks still waiting that were queued before this process started say that they were carried
 * over a restart (they keep their place in the queue; only the message changes).
 */
export async function markCarriedOver(startedAt: Date): Promise<number> {
  const updated = await db().analysisTask.updateMany({
    where: { status: "pending", createdAt: { lt: startedAt }, message: "queued" },
    data: { message: REQUEUED_MESSAGE },
  });
  return updated.count;
}

/** Finished tasks stay readable in the queue view for the retention window (spec 3.1). */
export function retentionCutoff(): Date {
  return new Date(now().getTime() - getSettings().TASK_RETENTION_MINUTES * 60_000);
}

function visibleWhere(): Prisma.AnalysisTaskWhereInput {
  return { OR: [{ status: { in: [...ACTIVE_STATUSES] } }, { completedAt: { gte: retentionCutoff() } }] };
}

export async function findVisibleTask(id: string): Promise<TaskRow | null> {
  return db().analysisTask.findFirst({ where: { id, ...visibleWhere() } });
}

export async function listVisibleTasks(limit: number): Promise<TaskRow[]> {
  return db().analysisTask.findMany({
    where: visibleWhere(),
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit,
  });
}

/** Queue-wide counters in one statement (each Prisma query costs its compile time; this is read per list call). */
export async function queueCounters(): Promise<{ total: number; pending: number; processing: number }> {
  const [row] = await db().$queryRawUnsafe<
    { total: bigint | null; pending: bigint | null; processing: bigint | null }[]
  >(
    placeholders(`SELECT COUNT(*) AS total, SUM(CASE WHEN status = 'pending' THEN 1 ELSE 0 END) AS pending,
              SUM(CASE WHEN status = 'processing' THEN 1 ELSE 0 END) AS processing
       FROM analysis_task WHERE status IN ('pending', 'processing') OR completed_at >= ?`),
    retentionCutoff(),
  );
  return {
    total: Number(row?.total ?? 0),
    pending: Number(row?.pending ?? 0),
    processing: Number(row?.processing ?? 0),
  };
}

export async function activeTasks(): Promise<TaskRow[]> {
  return db().analysisTask.findMany({
    where: { status: { in: [...ACTIVE_STATUSES] } },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
}

/** Rows past the window are only history's business now; deleting them keeps the table small. */
export async function purgeFinishedTasks(): Promise<number> {
  const result = await db().analysisTask.deleteMany({
    where: { status: { notIn: [...ACTIVE_STATUSES] }, completedAt: { lt: retentionCutoff() } },
  });
  return result.count;
}
