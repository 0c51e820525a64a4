import { getSettings } from "@/lib/config/settings";
import { logger } from "@/lib/log/logger";
import { defaultAlertDeliver } from "./deliver";
import { evaluateAlertRules } from "./evaluator";

const holder = globalThis as typeof globalThis & { __dsaAlertScheduler?: { stop(): void } };

/**
 * Runs the evaluator every ALERT_EVAL_SECONDS (re-read each time, so a settings change applies at the next
 * pass); a pass that is still running when the next is due makes that one skip.
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
      const result = await evaluateAlertRules({ deliver: defaultAlertDeliver });
      if (result.triggers.length > 0) logger.info({ fired: result.triggers.length }, "alert rules fired");
    } catch (error) {
      logger.error({ err: error }, "alert evaluation failed");
    }
    schedule();
  };
  holder.__dsaAlertScheduler = {
    stop: () => {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
  schedule();
}
