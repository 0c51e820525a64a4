import { runAnalysis } from "@/lib/analysis/pipeline";
import { runBacktestTask } from "@/lib/backtest/run";
import { sanitizeText } from "@/lib/analysis/sanitize";
import type { TResolvedSymbol } from "@/lib/market/symbols";
import { runMarketReview } from "@/lib/market-review";
import { db } from "@/lib/db/client";
import { notifyAnalysisCompleted, notifyMarketReviewCompleted } from "@/lib/notify";
import { ZStoredTaskRequest, type TReviewRegion } from "./schemas";
import { taskSkills } from "./serialize";
import type { TaskRow } from "./store";

export interface TaskRunContext {
  signal: AbortSignal;
  onProgress: (progress: number, message: string) => void;
}

export interface TaskRunResult {
  stockName: string | null;
  message: string;
}

/**
 * Runs one claimed task through the one pipeline (or the market review). A task whose record already
 * exists (the process died between storing it and marking the task) is done: running it again would
 * write a second record for the same query_id.
 */
export async function runTask(row: TaskRow, context: TaskRunContext): Promise<TaskRunResult> {
  if (row.kind === "backtest") return runBacktestTask(row.id, { ...context, failureText });
  const stored = await db().analysisHistory.findUnique({ where: { queryId: row.id }, select: { stockName: true } });
  if (stored) return { stockName: stored.stockName, message: "completed (the report was stored before a restart)" };

  const request = ZStoredTaskRequest.parse(JSON.parse(row.request));
  if (row.kind === "market_review") {
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
    return { stockName: outcome.record.stockName, message: "market review completed" };
  }

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
  return { stockName: outcome.record.stockName, message: "analysis completed" };
}

function requireTarget(target: TResolvedSymbol | undefined, row: TaskRow): TResolvedSymbol {
  if (!target) throw new Error(`Task ${row.id} has no stored target`);
  return target;
}

export function failureText(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return sanitizeText(message).slice(0, 2000) || "analysis failed";
}
