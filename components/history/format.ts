// Small display helpers shared by the History list and report pages (server and client components alike).

import type { Dictionary } from "@/lib/i18n/dictionaries/types";
import { formatInstant } from "@/lib/i18n/time";

/**
 * A run step's name in the UI language by its stage key (the run stores English labels); a data-source attempt
 * (named by its provider) or a key this UI does not know keeps the stored label.
 */
export function stageLabel(t: Dictionary["historyUi"], key: string, stored: string): string {
  return Object.hasOwn(t.flowNodes, key) ? t.flowNodes[key as keyof typeof t.flowNodes] : stored;
}

/**
 * "YYYY-MM-DD HH:mm GMT+8": an instant in the given zone with the zone's label. Pass the display
 * zone: useDisplayTimeZone() / <ZonedTime> in components, getDisplayTimeZone() on the server, never a browser default.
 */
export function formatDateTime(iso: string, timeZone: string): string {
  return formatInstant(iso, timeZone);
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
export const MONO_WITH_CJK = {
  fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace, "Noto Sans SC", sans-serif',
} as const;
