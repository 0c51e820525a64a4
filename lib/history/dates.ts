import { addDays, DEFAULT_SERVICE_TIME_ZONE, serviceTimeZone, startOfLocalDay } from "@/lib/time/zoned-time";

// Calendar days of the history filters are days in the service time zone (SERVICE_TIMEZONE, docs/api.md §6:
// default Asia/Shanghai), so "2024-05-01" means the same day as in the usage endpoints.
export const HISTORY_TIME_ZONE = DEFAULT_SERVICE_TIME_ZONE;

/** The instant a calendar day (YYYY-MM-DD) starts in `zone`. */
export function startOfDay(day: string, zone = serviceTimeZone()): Date {
  return startOfLocalDay(day, zone);
}

/** The instant the day after `day` starts: the exclusive upper bound of an inclusive end date. */
export function startOfNextDay(day: string, zone = serviceTimeZone()): Date {
  return startOfLocalDay(addDays(day, 1), zone);
}

/** Prisma createdAt condition for an inclusive day range; undefined when neither end is given. */
export function createdAtRange(startDate?: string, endDate?: string): { gte?: Date; lt?: Date } | undefined {
  if (!startDate && !endDate) return undefined;
  const zone = serviceTimeZone();
  const range: { gte?: Date; lt?: Date } = {};
  if (startDate) range.gte = startOfDay(startDate, zone);
  if (endDate) range.lt = startOfNextDay(endDate, zone);
  return range;
}
