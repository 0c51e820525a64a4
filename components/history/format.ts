// Small display helpers shared by the History list and report pages (server and client components alike).

/** "YYYY-MM-DD HH:mm" of an instant in the service time zone (the same on server and client, so hydration agrees). */
export function formatDateTime(iso: string, timeZone: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).formatToParts(date);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  return `${get("year")}-${get("month")}-${get("day")} ${get("hour")}:${get("minute")}`;
}

export function formatPrice(value: number | null | undefined, digits = 2): string {
  return value === null || value === undefined || !Number.isFinite(value) ? "—" : value.toFixed(digits);
}

export function formatSignedPct(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return "—";
  return `${value > 0 ? "+" : ""}${value.toFixed(2)}%`;
}

/** "1.2 s" / "850 ms" for a duration in milliseconds. */
export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return "—";
  return ms >= 1000 ? `${(ms / 1000).toFixed(ms >= 10_000 ? 0 : 1)} s` : `${Math.round(ms)} ms`;
}

/** The label of a report type in the UI language; unknown types show as stored. */
export function reportTypeLabel(types: Readonly<Record<string, string>>, type: string): string {
  return Object.hasOwn(types, type) ? types[type]! : type;
}

export const MARKET_REVIEW = "market_review";

/**
 * Monospace for code-like text that may hold Chinese: the system monospace fonts first, then the page's CJK web
 * font, so Chinese characters never fall through to a missing glyph (tofu) where no system CJK font exists.
 */
export const MONO_WITH_CJK = { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace, "Noto Sans SC", sans-serif' } as const;
