import { sanitizeText } from "@/lib/log/sanitize";
import type { TTaskKind } from "./schemas";
import type { TaskRow } from "./store";

// The queue runs tasks without knowing what they do: each domain registers the runner of its task kind at
// start-up (instrumentation.ts calls registerTaskRunners in lib/task-runners.ts), so lib/tasks imports no domain.

export interface TaskRunContext {
  signal: AbortSignal;
  onProgress: (progress: number, message: string) => void;
}

export interface TaskRunResult {
  stockName: string | null;
  message: string;
}

export type TaskRunner = (row: TaskRow, context: TaskRunContext) => Promise<TaskRunResult>;

// One registry per process (globalThis: Next may load this module more than once).
const holder = globalThis as typeof globalThis & { dsaTaskRunners?: Map<string, TaskRunner> };
const runners = (holder.dsaTaskRunners ??= new Map<string, TaskRunner>());

export function registerTaskRunner(kind: TTaskKind, runner: TaskRunner): void {
  runners.set(kind, runner);
}

/** Runs one claimed task with its kind's runner; a kind nobody registered fails the task. */
export async function runTask(row: TaskRow, context: TaskRunContext): Promise<TaskRunResult> {
  const runner = runners.get(row.kind);
  if (!runner) throw new Error(`No runner is registered for task kind ${row.kind}`);
  return runner(row, context);
}

export function failureText(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return sanitizeText(message).slice(0, 2000) || "analysis failed";
}
