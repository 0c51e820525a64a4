// Wall-clock readings of an instant in a time zone, from Intl (one formatter kept per zone): the ground every zoned
// calculation stands on (market clocks in lib/market, the service calendar in zoned-time.ts).

/** The service calendar's zone when SERVICE_TIMEZONE is unset or invalid (zoned-time.ts), and the UI's fallback. */
export const DEFAULT_SERVICE_TIME_ZONE = "Asia/Shanghai";

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-CA", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      hourCycle: "h23",
    });
    formatters.set(timeZone, f);
  }
  return f;
}

export interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** The wall-clock reading in `timeZone` at instant `at` (throws a RangeError for an unknown zone). */
export function wallClock(at: Date, timeZone: string): WallClock {
  const out: WallClock = { year: 0, month: 0, day: 0, hour: 0, minute: 0, second: 0 };
  for (const p of formatter(timeZone).formatToParts(at)) {
    if (p.type in out) out[p.type as keyof WallClock] = Number(p.value);
  }
  return out;
}

/** Offset of `timeZone` from UTC at instant `at`, in minutes (Shanghai +480, New York -240 or -300). */
export function offsetMinutes(at: Date, timeZone: string): number {
  const w = wallClock(at, timeZone);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return Math.round((asUtc - Math.floor(at.getTime() / 1000) * 1000) / 60_000);
}
