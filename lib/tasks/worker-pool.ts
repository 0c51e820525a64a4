import { now } from "@/lib/clock";
import { getSettings } from "@/lib/settings/settings";
import { logger } from "@/lib/log/logger";
import { taskEventBus, type TTaskEventType } from "./event-bus";
import { MarketStartLimiter } from "./market-rate-limit";
import { failureReasonOf } from "@/lib/errors/failure-reason";
import { failureText, runTask } from "./run-task";
import { toTaskInfo } from "./serialize";
import {
  claimNextTask,
  finishTask,
  markCarriedOver,
  processOwnerId,
  purgeFinishedTasks,
  recordProgress,
  LEASE_RENEW_MS,
  releaseOwnTasks,
  renewLeases,
  requeueOrphans,
  type TaskRow,
} from "./store";

const POLL_MS = 1000;
const MAINTENANCE_MS = LEASE_RENEW_MS;
// How long aborted tasks get to unwind before their rows are handed back (an unwinding task may still finish).
const ABORT_SETTLE_MS = 2000;
const MARKETS = ["cn", "hk", "us"] as const;

/**
 * The workers of one server process: up to MAX_WORKERS tasks at a time, claimed from the database (so
 * tasks of another process on the same file are shared, never run twice), started no faster than the
 * per-market rate allows. Submissions wake it at once; a poll picks up what other processes queued.
 */
export class TaskWorkerPool {
  private readonly owner = processOwnerId();
  private readonly running = new Map<string, AbortController>();
  private readonly limiter = new MarketStartLimiter(() => ({
    ratePerMinute: getSettings().TASK_MARKET_RATE_PER_MINUTE,
    burst: getSettings().MAX_WORKERS,
  }));
  private started = false;
  private readonly startedAt = now();
  private stopping = false;
  private pumping = false;
  private pumpAgain = false;
  private pollTimer: NodeJS.Timeout | null = null;
  private maintenanceTimer: NodeJS.Timeout | null = null;
  private readonly idle = new Set<() => void>();

  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    this.pollTimer = setInterval(() => this.wake(), POLL_MS);
    this.maintenanceTimer = setInterval(() => void this.maintain(), MAINTENANCE_MS);
    this.pollTimer.unref();
    this.maintenanceTimer.unref();
    await this.maintain();
    await markCarriedOver(this.startedAt).catch((error: unknown) =>
      logger.warn({ err: error }, "could not mark carried-over tasks"),
    );
    this.wake();
  }

  wake(): void {
    if (!this.started || this.stopping) return;
    if (this.pumping) {
      this.pumpAgain = true;
      return;
    }
    void this.pump();
  }

  activeCount(): number {
    return this.running.size;
  }

  private async pump(): Promise<void> {
    this.pumping = true;
    try {
      do {
        this.pumpAgain = false;
        while (!this.stopping && this.running.size < getSettings().MAX_WORKERS) {
          const throttled = await this.limiter.throttled(MARKETS);
          const row = await claimNextTask(this.owner, throttled);
          if (!row) break;
          if (row.market) await this.limiter.take(row.market);
          void this.execute(row);
        }
      } while (this.pumpAgain && !this.stopping);
    } catch (error) {
      logger.error({ err: error }, "task queue: claiming failed");
    } finally {
      this.pumping = false;
    }
  }

  private publish(type: TTaskEventType, row: TaskRow | null): void {
    if (row) taskEventBus().publish({ type, task: toTaskInfo(row) });
  }

  private async execute(row: TaskRow): Promise<void> {
    const controller = new AbortController();
    this.running.set(row.id, controller);
    this.publish("task_started", row);
    // Progress writes are chained so events leave in the order the pipeline reported them.
    let progressChain: Promise<unknown> = Promise.resolve();
    const onProgress = (progress: number, message: string) => {
      const pct = Math.max(1, Math.min(99, Math.round(progress)));
      progressChain = progressChain
        .then(() => recordProgress(row.id, this.owner, pct, message))
        .then((updated) => this.publish("task_progress", updated))
        .catch((error: unknown) => logger.warn({ err: error, task_id: row.id }, "task progress not recorded"));
    };
    try {
      const result = await runTask(row, { signal: controller.signal, onProgress });
      await progressChain;
      this.publish(
        "task_completed",
        await finishTask(row.id, this.owner, {
          status: "completed",
          message: result.message,
          stockName: result.stockName,
        }),
      );
    } catch (error) {
      await progressChain;
      if (this.stopping && controller.signal.aborted) return; // re-queued by stop()
      const text = failureText(error);
      logger.warn({ task_id: row.id, trace_id: row.traceId, error: text }, "task failed");
      this.publish(
        "task_failed",
        await finishTask(row.id, this.owner, {
          status: "failed",
          message: "failed",
          error: text,
          reason: failureReasonOf(error),
        }).catch(() => null),
      );
    } finally {
      this.running.delete(row.id);
      if (this.running.size === 0) {
        for (const resolve of this.idle) resolve();
        this.idle.clear();
      }
      this.wake();
    }
  }

  private async maintain(): Promise<void> {
    try {
      await renewLeases(this.owner);
      const requeued = await requeueOrphans(this.owner);
      if (requeued.length > 0) {
        logger.warn({ count: requeued.length }, "re-queued tasks of a process that stopped");
        this.wake();
      }
      await purgeFinishedTasks();
    } catch (error) {
      logger.error({ err: error }, "task queue maintenance failed");
    }
  }

  /**
   * SIGTERM: stop claiming, give running tasks `graceMs` to finish, then abort the rest and, once they have
   * wound down, put them back in the queue for the next start or another replica. A task whose abort does not
   * settle in time keeps its lease and is taken up when that runs out.
   */
  async stop(graceMs = 5000): Promise<void> {
    this.stopping = true;
    if (this.pollTimer) clearInterval(this.pollTimer);
    if (this.maintenanceTimer) clearInterval(this.maintenanceTimer);
    await this.untilIdle(graceMs);
    if (this.running.size === 0) return;
    for (const controller of this.running.values()) controller.abort();
    await this.untilIdle(ABORT_SETTLE_MS);
    if (this.running.size > 0) return;
    const released = await releaseOwnTasks(this.owner).catch((error: unknown) => {
      logger.warn({ err: error }, "could not hand the running tasks back to the queue; their leases will run out");
      return 0;
    });
    if (released > 0) logger.info({ count: released }, "handed running tasks back to the queue");
  }

  private untilIdle(ms: number): Promise<void> {
    if (this.running.size === 0) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.idle.add(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}
