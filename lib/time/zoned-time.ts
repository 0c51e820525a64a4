import { getSettings } from "@/lib/settings/settings";
import { logger } from "@/lib/log/logger";
import { DEFAULT_SERVICE_TIME_ZONE, offsetMinutes, wallClock } from "./wall-clock";

// Calendar arithmetic in the service time zone (setting SERVICE_TIMEZONE, docs/api.md §6: default Asia/Shanghai).
// Days are "YYYY-MM-DD" strings; instants are Dates. Offsets are read from Intl at the instant in question, so
// zones with daylight saving time are handled (a local day may last 23 or 25 hours).

export { DEFAULT_SERVICE_TIME_ZONE };

let warnedAbout: string | null = null;

// Whether a zone name is known does not change while the process runs; asking Intl costs ~20 µs, which every request
// that reads the service zone paid (a profile of GET /api/v1/history under load). A few names are ever asked about.
const knownZones = new Map<string, boolean>();

export function isTimeZone(value: string): boolean {
  const known = knownZones.get(value);
  if (known !== undefined) return known;
  let valid = value.trim() !== "";
  if (valid) {
    try {
      wallClock(new Date(0), value);
    } catch {
      valid = false;
    }
  }
  if (knownZones.size >= 64) knownZones.clear();
  knownZones.set(value, valid);
  return valid;
}

/** The configured zone; an invalid value falls back to Asia/Shanghai (logged once per value). */
export function serviceTimeZone(): string {
  const configured = getSettings().SERVICE_TIMEZONE;
  if (isTimeZone(configured)) return configured;
  if (warnedAbout !== configured) {
    warnedAbout = configured;
    logger.warn(
      { SERVICE_TIMEZONE: configured, using: DEFAULT_SERVICE_TIME_ZONE },
      "invalid SERVICE_TIMEZONE, using the default",
    );
  }
  return DEFAULT_SERVICE_TIME_ZONE;
}

function pad(n: number, width = 2): string {
  return String(n).padStart(width, "0");
}

function ymd(year: number, month: number, day: number): string {
  // Date.UTC normalises overflow (month 13, day 0), so callers can step days and months freely.
  const d = new Date(Date.UTC(year, month - 1, day));
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}

function splitDay(day: string): [number, number, number] {
  const [y = 1970, m = 1, d = 1] = day.split("-").map(Number);
  return [y, m, d];
}

/** The local calendar day of an instant. */
export function localDay(at: Date, timeZone: string): string {
  const w = wallClock(at, timeZone);
  return ymd(w.year, w.month, w.day);
}

/** The first instant of a local day (its midnight, or the first existing minute when a DST jump skips it). */
export function startOfLocalDay(day: string, timeZone: string): Date {
  const [y, m, d] = splitDay(day);
  const utcMidnight = Date.UTC(y, m - 1, d);
  // Guess with the offset at UTC midnight, then correct once with the offset at the guess.
  let instant = utcMidnight - offsetMinutes(new Date(utcMidnight), timeZone) * 60_000;
  instant = utcMidnight - offsetMinutes(new Date(instant), timeZone) * 60_000;
  // If the correction moved to the previous local day (midnight does not exist), step forward to that day.
  if (localDay(new Date(instant), timeZone) < day) instant += 60 * 60_000;
  return new Date(instant);
}

export function addDays(day: string, days: number): string {
  const [y, m, d] = splitDay(day);
  return ymd(y, m, d + days);
}

export function firstOfMonth(day: string): string {
  const [y, m] = splitDay(day);
  return ymd(y, m, 1);
}

export function firstOfNextMonth(day: string): string {
  const [y, m] = splitDay(day);
  return ymd(y, m + 1, 1);
}
