import { now } from "@/lib/clock";
import { getSettings } from "@/lib/settings/settings";
import { serviceTimeZone } from "@/lib/time/zoned-time";
import { recentRuns } from "./run-store";
import type { TSchedulerStatus } from "./schemas";
import { toScheduledRun } from "./serialize";
import { nextSlot, parseSlotTime } from "./slots";

export async function schedulerStatus(limit: number): Promise<TSchedulerStatus> {
  const settings = getSettings();
  const time = parseSlotTime(settings.SCHEDULE_TIME);
  const timeZone = serviceTimeZone();
  const enabled = settings.SCHEDULE_ENABLED && time !== null;
  const problem =
    settings.SCHEDULE_ENABLED && !time ? `SCHEDULE_TIME "${settings.SCHEDULE_TIME}" is not HH:MM (00:00-23:59)` : null;
  return {
    enabled,
    schedule_time: settings.SCHEDULE_TIME,
    time_zone: timeZone,
    problem,
    next_run_at: enabled && time ? nextSlot(now(), time, timeZone).at.toISOString() : null,
    catch_up_minutes: settings.SCHEDULE_CATCH_UP_MINUTES,
    trading_day_check: settings.TRADING_DAY_CHECK_ENABLED,
    market_review_enabled: settings.MARKET_REVIEW_ENABLED,
    market_review_region: settings.MARKET_REVIEW_REGION,
    report_type: settings.REPORT_TYPE,
    stock_list: settings.STOCK_LIST,
    recent_runs: (await recentRuns(limit)).map(toScheduledRun),
  };
}
