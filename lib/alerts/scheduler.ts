import { getSettings } from "@/lib/settings/settings";
import { logger } from "@/lib/log/logger";
import { LeaderLock } from "@/lib/redis/leader-lock";
import { onShutdown } from "@/lib/shutdown";
import { defaultAlertDeliver } from "./deliver";
import { evaluateAlertRules } from "./evaluator";

const holder = globalThis as typeof globalThis & { __dsaAlertScheduler?: { stop(): Promise<void> } };

// Several replicas: the timer runs on each, the pass on the one holding this lock.
const leader = new LeaderLock("alert-evaluator");

/** Long enough that the leader keeps the lock from one pass to the next; a dead leader's lock frees within it. */
function leaseMs(): number {
  return (2 * getSettings().ALERT_EVAL_SECONDS + 15) * 1000;
}

/**
 * Runs the evaluator every ALERT_EVAL_SECONDS (re-read each time, so a settings change applies at the next
 * pass); a pass that is still running when the next is due makes that one skip. With REDIS_URL only the
 * replica holding the leader lock evaluates; without it (or while Redis is down) every process does, as before.
 */
export function startAlertScheduler(): void {
  if (holder.__dsaAlertScheduler) return;
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(run, getSettings().ALERT_EVAL_SECONDS * 1000);
    timer.unref();
  };
  const run = async () => {
    try {
      const pass = await leader.run(leaseMs(), () => evaluateAlertRules({ deliver: defaultAlertDeliver }));
      if (pass.ran && pass.value.triggers.length > 0)
        logger.info({ fired: pass.value.triggers.length }, "alert rules fired");
    } catch (error) {
      logger.error({ err: error }, "alert evaluation failed");
    }
    schedule();
  };
  holder.__dsaAlertScheduler = {
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      await leader.release();
    },
  };
  // A stopping replica hands the evaluator to the next one at once instead of after the lock's TTL.
  onShutdown("alert-scheduler", () => holder.__dsaAlertScheduler!.stop());
  schedule();
}
