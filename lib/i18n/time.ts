// The one clock of the UI: every time on a page is written in one display zone, the service time
// zone (setting SERVICE_TIMEZONE) unless the user chose the browser's own zone, and carries that zone's short
// label ("GMT+8", "EDT"). The choice lives in the dsa_tz preference cookie, read on the server, so the server
// and the browser format the same string and hydration never flips a time.
// No server-only imports here: client components format with the same functions.

import { DEFAULT_SERVICE_TIME_ZONE } from "@/lib/time/wall-clock";

export const TIME_ZONE_COOKIE = "dsa_tz";
/** The cookie value of the default choice; any other valid value is the IANA zone the browser reported. */
export const SERVICE_TIME_ZONE_CHOICE = "service";
/** The service zone's own fallback (lib/time/wall-clock.ts: no settings read there, so client code may import it). */
export const FALLBACK_TIME_ZONE = DEFAULT_SERVICE_TIME_ZONE;

export type TimeZoneChoice = "service" | "local";

export type DisplayTimeZone = {
  /** What the user picked: the service zone (default) or the browser's. */
  choice: TimeZoneChoice;
  /** The IANA zone every time is written in. */
  zone: string;
  /** The service's zone (SERVICE_TIMEZONE), named by the toggle. */
  serviceZone: string;
};

export function isValidTimeZone(value: unknown): value is string {
  if (typeof value !== "string" || value.trim() === "" || value.length > 64) return false;
  try {
    partsFormatter(value);
    return true;
  } catch {
    return false;
  }
}

/** The display zone from the dsa_tz cookie: a valid zone name means "local" in that zone, anything else the service zone. */
export function resolveDisplayTimeZone(cookieValue: string | null | undefined, serviceZone: string): DisplayTimeZone {
  const value = cookieValue ? safeDecode(cookieValue) : null;
  if (value && value !== SERVICE_TIME_ZONE_CHOICE && isValidTimeZone(value))
    return { choice: "local", zone: value, serviceZone };
  return { choice: "service", zone: serviceZone, serviceZone };
}

function safeDecode(value: string): string | null {
  try {
    return decodeURIComponent(value);
  } catch {
    return null;
  }
}

// Intl formatters are costly to build and a page formats many times in few zones.
const partsFormatters = new Map<string, Intl.DateTimeFormat>();

function partsFormatter(zone: string): Intl.DateTimeFormat {
  let f = partsFormatters.get(zone);
  if (!f) {
    // en-US with h23 and a short zone name: ASCII digits and a CLDR label that Node and the browser agree on.
    f = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      hourCycle: "h23",
      timeZoneName: "short",
    });
    // Zone names come from a cookie: keep the cache bounded whatever spellings arrive.
    if (partsFormatters.size >= 256) partsFormatters.clear();
    partsFormatters.set(zone, f);
  }
  return f;
}

type WallParts = {
  year: string;
  month: string;
  day: string;
  hour: string;
  minute: string;
  second: string;
  zoneName: string;
};

function wallParts(at: Date, zone: string): WallParts {
  const parts = partsFormatter(zone).formatToParts(at);
  const get = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? "";
  return {
    year: get("year"),
    month: get("month"),
    day: get("day"),
    hour: get("hour"),
    minute: get("minute"),
    second: get("second"),
    zoneName: get("timeZoneName"),
  };
}

/**
 * The zone's short label at an instant: the CLDR abbreviation where English has one ("EST", "EDT", "UTC", "GMT"),
 * else the offset ("GMT+8", "GMT+5:30"). Zones with daylight saving time change label with the date.
 */
export function zoneLabel(at: Date, zone: string): string {
  return wallParts(at, zone).zoneName || zone;
}

/**
 * datetime "2025-01-15 06:28" · time "06:28" · clock "06:28:54" · short "01-15 06:28" · date "2025-01-15".
 * The zone label follows by default (not for a bare date, whose zone rarely matters to a reader).
 */
export type TimeStyle = "datetime" | "time" | "clock" | "short" | "date";

export type FormatTimeOptions = { style?: TimeStyle; label?: boolean };

/** An instant in the display zone, e.g. "2025-01-15 06:28 GMT+8"; an unreadable value is returned as given. */
export function formatInstant(
  value: string | Date,
  zone: string,
  { style = "datetime", label = style !== "date" }: FormatTimeOptions = {},
): string {
  const at = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(at.getTime())) return String(value);
  const safeZone = isValidTimeZone(zone) ? zone : FALLBACK_TIME_ZONE;
  const w = wallParts(at, safeZone);
  const text = {
    datetime: `${w.year}-${w.month}-${w.day} ${w.hour}:${w.minute}`,
    time: `${w.hour}:${w.minute}`,
    clock: `${w.hour}:${w.minute}:${w.second}`,
    short: `${w.month}-${w.day} ${w.hour}:${w.minute}`,
    date: `${w.year}-${w.month}-${w.day}`,
  }[style];
  return label ? `${text} ${w.zoneName || safeZone}` : text;
}
