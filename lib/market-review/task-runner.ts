import { prerenderShareImage } from "@/lib/history/share/prerender";
import { recordStoredByTask } from "@/lib/history/stored-task";
import { notifyMarketReviewCompleted } from "@/lib/notify";
import { registerTaskRunner, type TaskRunContext, type TaskRunResult } from "@/lib/tasks/run-task";
import { ZStoredTaskRequest, type TReviewRegion } from "@/lib/tasks/schemas";
import type { TaskRow } from "@/lib/tasks/store";
import { runMarketReview } from "./run";

/** Registers the runner of "market_review" tasks with the queue (instrumentation.ts, at start-up). */
export function registerMarketReviewTasks(): void {
  registerTaskRunner("market_review", runMarketReviewTask);
}

async function runMarketReviewTask(row: TaskRow, context: TaskRunContext): Promise<TaskRunResult> {
  const stored = await recordStoredByTask(row.id);
  if (stored) return { stockName: stored.stockName, message: "completed (the report was stored before a restart)" };
  const request = ZStoredTaskRequest.parse(JSON.parse(row.request));
  const outcome = await runMarketReview({
    queryId: row.id,
    traceId: row.traceId ?? row.id,
    taskId: row.id,
    region: (request.region ?? row.region ?? "cn") as TReviewRegion,
    language: request.language,
    triggerSource: "market_review",
    signal: context.signal,
    onProgress: context.onProgress,
  });
  if (request.sendNotification === true) notifyMarketReviewCompleted(outcome.record, outcome.payload);
  prerenderShareImage(outcome.record.id);
  return { stockName: outcome.record.stockName, message: "market review completed" };
}
