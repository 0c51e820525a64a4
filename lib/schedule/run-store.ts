import type { ScheduledRun } from "@/generated/prisma/client";
import { now } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { processOwnerId } from "@/lib/tasks/store";
import { isUniqueViolation } from "@/lib/db/errors";

export type RunRow = ScheduledRun;

// A run is "running" only while its submissions are made (milliseconds to seconds): one still running after this
// long lost its process, and its slot is resumed by whoever sees it.
export const STALE_RUN_MS = 5 * 60_000;

/** Takes a slot: the new row, or null when the slot was already taken (by this or another process). */
export async function claimSlot(slotKey: string, trigger: "schedule" | "manual"): Promise<RunRow | null> {
  try {
    return await db().scheduledRun.create({
      data: { slotKey, trigger, status: "running", owner: processOwnerId(), startedAt: now() },
    });
  } catch (error) {
    if (isUniqueViolation(error)) return null;
    throw error;
  }
}

/** Takes over runs left "running" by a process that died; each is returned to exactly one caller. */
export async function claimInterruptedRuns(): Promise<RunRow[]> {
  const cutoff = new Date(now().getTime() - STALE_RUN_MS);
  const stale = await db().scheduledRun.findMany({
    where: { status: "running", startedAt: { lt: cutoff } },
    orderBy: { id: "asc" },
  });
  const taken: RunRow[] = [];
  for (const row of stale) {
    const startedAt = now();
    const { count } = await db().scheduledRun.updateMany({
      where: { id: row.id, status: "running", startedAt: row.startedAt },
      data: { owner: processOwnerId(), startedAt },
    });
    if (count === 1) taken.push({ ...row, owner: processOwnerId(), startedAt });
  }
  return taken;
}

export interface RunOutcome {
  status: "completed" | "failed";
  summary: unknown;
  error: string | null;
  traceId: string;
  /** "pending" when a merged report is to be sent once the run's analyses finish. */
  digest: "pending" | null;
}

export async function finishRun(id: number, outcome: RunOutcome): Promise<RunRow> {
  return db().scheduledRun.update({
    where: { id },
    data: {
      status: outcome.status,
      summary: JSON.stringify(outcome.summary),
      error: outcome.error,
      traceId: outcome.traceId,
      digest: outcome.digest,
      owner: null,
      finishedAt: now(),
    },
  });
}

export async function recentRuns(limit: number): Promise<RunRow[]> {
  return db().scheduledRun.findMany({ orderBy: { id: "desc" }, take: limit });
}
