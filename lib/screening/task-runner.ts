import { registerTaskRunner } from "@/lib/tasks/run-task";
import { runScreen } from "./run";
import { queuedRequest } from "./tasks";

/** Registers the runner of "screening" tasks with the queue (instrumentation.ts, at start-up). */
export function registerScreeningTasks(): void {
  registerTaskRunner("screening", async (row, context) => {
    const run = await runScreen(queuedRequest(row.request), {
      runId: row.id,
      onProgress: context.onProgress,
      signal: context.signal,
    });
    return { stockName: row.stockName, message: `screening completed: ${run.candidate_count} candidates` };
  });
}
