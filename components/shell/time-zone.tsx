"use client";

import { createContext, useContext, type ReactNode } from "react";
import { fmt } from "@/components/settings/format";
import { FALLBACK_TIME_ZONE, formatInstant, type DisplayTimeZone, type FormatTimeOptions } from "@/lib/i18n/time";

// The display zone of the page, read from the dsa_tz cookie by the (ui) layout and handed down here,
// so every client component formats times in the zone the server used: the same string on both sides.

const DEFAULT: DisplayTimeZone = { choice: "service", zone: FALLBACK_TIME_ZONE, serviceZone: FALLBACK_TIME_ZONE };

const TimeZoneContext = createContext<DisplayTimeZone>(DEFAULT);

export function TimeZoneProvider({ value, children }: { value: DisplayTimeZone; children: ReactNode }) {
  return <TimeZoneContext.Provider value={value}>{children}</TimeZoneContext.Provider>;
}

export function useDisplayTimeZone(): DisplayTimeZone {
  return useContext(TimeZoneContext);
}

/** Formats instants in the display zone, with its label: `formatTime(iso)` → "2025-01-15 06:28 GMT+8". */
export function useFormatTime(): (value: string | Date, options?: FormatTimeOptions) => string {
  const { zone } = useDisplayTimeZone();
  return (value, options) => formatInstant(value, zone, options);
}

type ZonedTimeProps = FormatTimeOptions & {
  value: string | Date;
  /** A dictionary string with a {time} placeholder ("生成于 {time}"). */
  template?: string;
};

/**
 * An instant as text in the display zone, for server components too (they cannot read the context themselves):
 * `<time dateTime={iso}><ZonedTime value={iso} /></time>`.
 */
export function ZonedTime({ value, template, ...options }: ZonedTimeProps) {
  const text = useFormatTime()(value, options);
  return <>{template ? fmt(template, { time: text }) : text}</>;
}
