import { failureText, registerTaskRunner } from "@/lib/tasks/run-task";
import { runBacktestTask } from "./run";

/** Registers the runner of "backtest" tasks with the queue (instrumentation.ts, at start-up). */
export function registerBacktestTasks(): void {
  registerTaskRunner("backtest", (row, context) => runBacktestTask(row.id, { ...context, failureText }));
}
