import { now } from "@/lib/clock";
import { getSettings } from "@/lib/config/settings";
import { logger } from "@/lib/log/logger";
import { taskEventBus } from "@/lib/tasks/event-bus";
import { serviceTimeZone } from "@/lib/usage/time-zone";
import { claimInterruptedRuns, claimSlot } from "./run-store";
import { executeRun } from "./run-watchlist";
import { sendDueDigests } from "./digest";
import type { TScheduledRun } from "./schemas";
import { dueSlot, parseSlotTime } from "./slots";

// Seconds between two looks at the clock: a slot starts at most this late. Settings are re-read each time, so
// enabling the schedule or moving its time applies without a restart.
const TICK_MS = 20_000;

const holder = globalThis as typeof globalThis & { __dsaDailyScheduler?: { stop(): void } };

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
      await runDueWork();
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
    sendDueDigests(event.task.trace_id).catch((error: unknown) => logger.error({ err: error }, "watchlist digest check failed"));
  });
  holder.__dsaDailyScheduler = {
    stop: () => {
      stopped = true;
      unsubscribe();
      if (timer) clearTimeout(timer);
    },
  };
  // The first look comes right after start, so a slot missed while the service was down is caught up at once.
  timer = setTimeout(tick, 0);
  timer.unref();
}
