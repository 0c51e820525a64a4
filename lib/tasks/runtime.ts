import { onShutdown } from "@/lib/shutdown";
import type { TaskWorkerPool } from "./worker-pool";

// One pool per server process, kept on globalThis so Next's separate module instances (route handlers,
// instrumentation) and dev-mode reloads all reach the same one.
const holder = globalThis as typeof globalThis & { __dsaTaskPool?: TaskWorkerPool };

/** Started once from instrumentation.ts register(); never on a request. */
export async function startTaskRuntime(options: { afterStop?: () => Promise<void> } = {}): Promise<TaskWorkerPool> {
  if (holder.__dsaTaskPool) return holder.__dsaTaskPool;
  const { TaskWorkerPool } = await import("./worker-pool");
  const pool = new TaskWorkerPool();
  holder.__dsaTaskPool = pool;
  try {
    await pool.start();
  } catch (error) {
    // The server still answers (health, history); the poll keeps trying once the database is back.
    const { logger } = await import("@/lib/log/logger");
    logger.error({ err: error }, "task workers could not start");
  }
  // Finish (or leave for re-queueing) what the workers hold, then what the caller wants done after (notifications).
  onShutdown("task-workers", async () => {
    await pool.stop();
    await options.afterStop?.();
  });
  return pool;
}

/** A submission tells the local workers at once instead of waiting for their next poll. */
export function wakeTaskWorkers(): void {
  holder.__dsaTaskPool?.wake();
}
