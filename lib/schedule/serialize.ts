import type { RunRow } from "./run-store";
import { DIGEST_STATES, type TScheduledRun } from "./schemas";

const EMPTY = {
  message: "",
  accepted: [],
  duplicates: [],
  rejected: [],
  skipped: [],
  screening: [],
  market_review: { outcome: "skipped" as const, region: null, task_id: null, message: "not reached" },
};

function parseSummary(text: string | null): Partial<TScheduledRun> {
  if (!text) return {};
  try {
    return JSON.parse(text) as Partial<TScheduledRun>;
  } catch {
    return {};
  }
}

export function toScheduledRun(row: RunRow): TScheduledRun {
  const summary = { ...EMPTY, ...parseSummary(row.summary) };
  return {
    id: row.id,
    trigger: row.trigger === "manual" ? "manual" : "schedule",
    slot: row.trigger === "manual" ? null : row.slotKey,
    status: row.status === "completed" || row.status === "failed" ? row.status : "running",
    started_at: row.startedAt.toISOString(),
    finished_at: row.finishedAt?.toISOString() ?? null,
    message: row.status === "running" ? "queueing" : summary.message,
    error: row.error,
    accepted: summary.accepted,
    duplicates: summary.duplicates,
    rejected: summary.rejected,
    skipped: summary.skipped,
    screening: summary.screening,
    market_review: summary.market_review,
    digest: (DIGEST_STATES as readonly string[]).includes(row.digest ?? "")
      ? (row.digest as TScheduledRun["digest"])
      : null,
  };
}
