import type { TSettings } from "@/lib/settings/settings-schema";
import { localParts } from "@/lib/market/market-time";
import { isTimeZone, serviceTimeZone } from "@/lib/time/zoned-time";

// Noise control before anything is sent: the lowest severity worth a push, and quiet hours. Critical messages
// pass quiet hours (a stop-loss alert at 02:00 is why one sets an alert); everything held back is recorded as
// suppressed with the reason, never queued for later (a report delivered at 07:00 about 23:00 is stale news).

export const SEVERITIES = ["info", "warning", "error", "critical"] as const;
export type TSeverity = (typeof SEVERITIES)[number];

const RANK: Record<TSeverity, number> = { info: 0, warning: 1, error: 2, critical: 3 };

export function asSeverity(value: string | null | undefined): TSeverity | null {
  const v = value?.trim().toLowerCase();
  return (SEVERITIES as readonly string[]).includes(v ?? "") ? (v as TSeverity) : null;
}

export interface QuietWindow {
  /** Minutes after local midnight; start > end crosses midnight. */
  start: number;
  end: number;
  text: string;
}

/** "23:00-07:00" → a window; malformed or empty (start = end) → null, i.e. no quiet hours. */
export function parseQuietHours(text: string): QuietWindow | null {
  const match = /^([01]?\d|2[0-3]):([0-5]\d)\s*[-~–]\s*([01]?\d|2[0-3]):([0-5]\d)$/.exec(text.trim());
  if (!match) return null;
  const start = Number(match[1]) * 60 + Number(match[2]);
  const end = Number(match[3]) * 60 + Number(match[4]);
  return start === end ? null : { start, end, text: text.trim() };
}

/** Start inclusive, end exclusive: 23:00-07:00 is quiet at 23:00 and 06:59, not at 07:00. */
export function inQuietWindow(minutes: number, window: QuietWindow): boolean {
  return window.start < window.end
    ? minutes >= window.start && minutes < window.end
    : minutes >= window.start || minutes < window.end;
}

export function quietTimeZone(settings: Readonly<TSettings>): string {
  return isTimeZone(settings.NOTIFICATION_TIMEZONE) ? settings.NOTIFICATION_TIMEZONE : serviceTimeZone();
}

/** Why a message of this severity is not sent now (a suppression reason), or null to send it. */
export function holdReason(severity: TSeverity, settings: Readonly<TSettings>, at: Date): string | null {
  const minimum = settings.NOTIFICATION_MIN_SEVERITY;
  if (minimum && RANK[severity] < RANK[minimum])
    return `severity ${severity} below NOTIFICATION_MIN_SEVERITY ${minimum}`;
  const window = parseQuietHours(settings.NOTIFICATION_QUIET_HOURS);
  if (window && severity !== "critical") {
    const zone = quietTimeZone(settings);
    if (inQuietWindow(localParts(at, zone).minutes, window)) return `quiet hours ${window.text} (${zone})`;
  }
  return null;
}
