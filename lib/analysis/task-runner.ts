import { prerenderShareImage } from "@/lib/history/share/prerender";
import { recordStoredByTask } from "@/lib/history/stored-task";
import type { TResolvedSymbol } from "@/lib/market/symbols";
import { notifyAnalysisCompleted } from "@/lib/notify";
import { registerTaskRunner, type TaskRunContext, type TaskRunResult } from "@/lib/tasks/run-task";
import { ZStoredTaskRequest } from "@/lib/tasks/schemas";
import { taskSkills } from "@/lib/tasks/serialize";
import type { TaskRow } from "@/lib/tasks/store";
import { runAnalysis } from "./pipeline";

/** Registers the runner of "analysis" tasks with the queue (instrumentation.ts, at start-up). */
export function registerAnalysisTasks(): void {
  registerTaskRunner("analysis", runAnalysisTask);
}

async function runAnalysisTask(row: TaskRow, context: TaskRunContext): Promise<TaskRunResult> {
  const stored = await recordStoredByTask(row.id);
  if (stored) return { stockName: stored.stockName, message: "completed (the report was stored before a restart)" };
  const request = ZStoredTaskRequest.parse(JSON.parse(row.request));
  const outcome = await runAnalysis({
    target: requireTarget(request.target, row),
    reportType: request.reportType ?? "detailed",
    language: request.language,
    phase: request.phase ?? "auto",
    stockName: request.stockName ?? null,
    queryId: row.id,
    traceId: row.traceId ?? row.id,
    taskId: row.id,
    triggerSource: "api_async",
    forceRefresh: request.forceRefresh,
    // The request's strategies are stored on the task row (its `skills` column), as TaskInfo shows them.
    skills: taskSkills(row),
    signal: context.signal,
    onProgress: context.onProgress,
  });
  // Fire-and-forget: the task completes whatever happens to its notification.
  if (request.notify === true) notifyAnalysisCompleted(outcome.record, outcome.report);
  prerenderShareImage(outcome.record.id);
  return { stockName: outcome.record.stockName, message: "analysis completed" };
}

function requireTarget(target: TResolvedSymbol | undefined, row: TaskRow): TResolvedSymbol {
  if (!target) throw new Error(`Task ${row.id} has no stored target`);
  return target;
}
