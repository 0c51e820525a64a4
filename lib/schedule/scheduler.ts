import { now } from "@/lib/clock";
import { getSettings } from "@/lib/settings/settings";
import { logger } from "@/lib/log/logger";
import { LeaderLock } from "@/lib/redis/leader-lock";
import { onShutdown } from "@/lib/shutdown";
import { taskEventBus } from "@/lib/tasks/event-bus";
import { serviceTimeZone } from "@/lib/time/zoned-time";
import { claimInterruptedRuns, claimSlot } from "./run-store";
import { executeRun } from "./run-watchlist";
import { sendDueDigests } from "./digest";
import type { TScheduledRun } from "./schemas";
import { dueSlot, parseSlotTime } from "./slots";

// Seconds between two looks at the clock: a slot starts at most this late. Settings are re-read each time, so
// enabling the schedule or moving its time applies without a restart.
const TICK_MS = 20_000;

const holder = globalThis as typeof globalThis & { __dsaDailyScheduler?: { stop(): Promise<void> } };

// Several replicas: each ticks, the one holding this lock does the work. The lease spans two ticks
// so the leader keeps it; the claims in run-store.ts still make a slot run once if two ever tick together.
const leader = new LeaderLock("schedule-tick");
const LEASE_MS = 2 * TICK_MS + 15_000;

/**
 * One look: resumes runs a dead process left half-done, sends merged reports whose analyses have finished, then
 * runs the due slot unless some process already took it. Returns the runs executed here.
 */
export async function runDueWork(at: Date = now()): Promise<TScheduledRun[]> {
  const done: TScheduledRun[] = [];
  for (const row of await claimInterruptedRuns()) done.push(await executeRun(row));
  await sendDueDigests();
  const settings = getSettings();
  const time = parseSlotTime(settings.SCHEDULE_TIME);
  if (!settings.SCHEDULE_ENABLED || !time) return done;
  const slot = dueSlot(at, time, serviceTimeZone(), settings.SCHEDULE_CATCH_UP_MINUTES);
  if (!slot) return done;
  const row = await claimSlot(slot.key, "schedule");
  if (row) done.push(await executeRun(row));
  return done;
}

export function startDailyScheduler(): void {
  if (holder.__dsaDailyScheduler) return;
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  const tick = async () => {
    try {
      await leader.run(LEASE_MS, () => runDueWork());
    } catch (error) {
      logger.error({ err: error }, "daily schedule check failed");
    }
    if (stopped) return;
    timer = setTimeout(tick, TICK_MS);
    timer.unref();
  };
  // The worker finishing a run's last analysis triggers its merged report at once (the tick is the backstop).
  const unsubscribe = taskEventBus().subscribe((event) => {
    if ((event.type !== "task_completed" && event.type !== "task_failed") || !event.task.trace_id) return;
    sendDueDigests(event.task.trace_id).catch((error: unknown) =>
      logger.error({ err: error }, "watchlist digest check failed"),
    );
  });
  holder.__dsaDailyScheduler = {
    stop: async () => {
      stopped = true;
      unsubscribe();
      if (timer) clearTimeout(timer);
      await leader.release();
    },
  };
  // A stopping replica hands the schedule tick to the next one at once instead of after the lock's TTL.
  onShutdown("daily-scheduler", () => holder.__dsaDailyScheduler!.stop());
  // The first look comes right after start, so a slot missed while the service was down is caught up at once.
  timer = setTimeout(tick, 0);
  timer.unref();
}
