import { db } from "@/lib/db/client";
import { notFound } from "@/lib/errors/api-error";
import { newId } from "@/lib/ids";
import { getSettings } from "@/lib/settings/settings";
import { taskEventBus } from "@/lib/tasks/event-bus";
import { wakeTaskWorkers } from "@/lib/tasks/runtime";
import { toTaskInfo } from "@/lib/tasks/serialize";
import { insertTask } from "@/lib/tasks/store";
import { strategyNotFound } from "./run";
import {
  ZScreenRequest,
  type TScheduledLatestResponse,
  type TScreenRequest,
  type TScreenTaskAccepted,
  type TScreenTaskStatus,
} from "./schemas";
import { assertScreeningEnabled } from "./status";
import { findStoredRun } from "./stored-run";
import { findStrategy } from "./saved-strategies";

// A screening run queued on the durable task queue (kind "screening"): it survives a restart like an analysis, shows
// its progress on the task stream, and stores its run under the task's id (its run_id), once.

export async function submitScreenTask(
  request: TScreenRequest,
  traceId: string,
  /** "schedule" for the daily run's (GET /scheduled-latest reads those); null for a request's. */
  selectionSource: "schedule" | null = null,
): Promise<TScreenTaskAccepted> {
  assertScreeningEnabled();
  const strategy = await findStrategy(request.strategy);
  if (!strategy) throw strategyNotFound(request.strategy);
  const id = newId();
  // Its own active key: two runs of one strategy may be queued at once (a run is cheap and may differ in market).
  const task = await insertTask(db(), {
    id,
    traceId,
    kind: "screening",
    stockCode: strategy.id,
    stockName: strategy.name[request.language],
    market: request.market,
    assetType: null,
    activeKey: `screening:${id}`,
    request,
    originalQuery: null,
    selectionSource,
    reportType: null,
    analysisPhase: null,
    skills: null,
    region: request.market,
    message: "screening queued",
  });
  taskEventBus().publish({ type: "task_created", task: toTaskInfo(task) });
  wakeTaskWorkers();
  return {
    task_id: id,
    trace_id: traceId,
    status: "pending",
    message: "Screening queued",
    strategy: strategy.id,
    market: request.market,
    max_results: request.max_results,
  };
}

export async function screenTaskStatus(taskId: string): Promise<TScreenTaskStatus> {
  const task = await db().analysisTask.findUnique({ where: { id: taskId } });
  if (!task || task.kind !== "screening") throw notFound(`No screening task has id ${taskId}`);
  const result = task.status === "completed" ? await findStoredRun(taskId) : null;
  const status = (["pending", "processing", "completed", "failed"] as const).find((s) => s === task.status) ?? "failed";
  return {
    task_id: task.id,
    trace_id: task.traceId,
    status,
    progress: task.progress,
    message: task.message,
    error: task.error,
    result,
  };
}

/** The stored request of a queued run. */
export function queuedRequest(text: string): TScreenRequest {
  return ZScreenRequest.parse(JSON.parse(text));
}

/** The newest completed screening run the daily schedule queued (SCREENING_SCHEDULE_STRATEGIES). */
export async function scheduledLatest(targetTime: string | undefined): Promise<TScheduledLatestResponse> {
  const task = await db().analysisTask.findFirst({
    where: { kind: "screening", selectionSource: "schedule", status: "completed" },
    orderBy: [{ completedAt: "desc" }, { createdAt: "desc" }],
  });
  const result = task ? await findStoredRun(task.id) : null;
  if (!result) return { available: false, run: null, candidates: [] };
  return {
    available: true,
    run: {
      run_id: result.run_id,
      strategy: result.strategy,
      market: result.market,
      created_at: result.created_at,
      result: {
        target_time: targetTime ?? getSettings().SCHEDULE_TIME,
        mode: "scheduled",
        run_url: `/screening?run=${encodeURIComponent(result.run_id)}`,
        candidates: result.candidates,
      },
    },
    candidates: result.candidates,
  };
}
