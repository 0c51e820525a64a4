import { addDays, firstOfMonth, firstOfNextMonth, localDay, startOfLocalDay } from "@/lib/time/zoned-time";

// Usage periods (docs/api.md §6): today from local 00:00, month from the local 1st, all without bounds; all in
// the service time zone. The window is half-open [from, until): a record stamped exactly at local midnight
// belongs to the day that starts then.

export const USAGE_PERIODS = ["today", "month", "all"] as const;
export type TUsagePeriod = (typeof USAGE_PERIODS)[number];

export interface PeriodWindow {
  period: TUsagePeriod;
  timeZone: string;
  /** Local day the window starts; null for "all" (the caller fills in the first recorded day). */
  fromDate: string | null;
  /** Local day of "now": the last day the window covers. */
  toDate: string;
  /** Prisma condition on calledAt; undefined for "all". */
  calledAt: { gte: Date; lt: Date } | undefined;
}

export function periodWindow(period: TUsagePeriod, at: Date, timeZone: string): PeriodWindow {
  const today = localDay(at, timeZone);
  if (period === "all") return { period, timeZone, fromDate: null, toDate: today, calledAt: undefined };
  if (period === "today") {
    return {
      period,
      timeZone,
      fromDate: today,
      toDate: today,
      calledAt: { gte: startOfLocalDay(today, timeZone), lt: startOfLocalDay(addDays(today, 1), timeZone) },
    };
  }
  const first = firstOfMonth(today);
  return {
    period,
    timeZone,
    fromDate: first,
    toDate: today,
    calledAt: { gte: startOfLocalDay(first, timeZone), lt: startOfLocalDay(firstOfNextMonth(today), timeZone) },
  };
}

/** The `days` local days ending today, oldest first, with the instant each starts and the end of the last. */
export function dayWindow(days: number, at: Date, timeZone: string): { days: string[]; starts: Date[]; until: Date } {
  const today = localDay(at, timeZone);
  const list = Array.from({ length: days }, (_, i) => addDays(today, i - days + 1));
  return {
    days: list,
    starts: list.map((d) => startOfLocalDay(d, timeZone)),
    until: startOfLocalDay(addDays(today, 1), timeZone),
  };
}
