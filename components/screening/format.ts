import type { Dictionary } from "@/lib/i18n/dictionaries/types";
import { codeLabel } from "@/lib/i18n/labels";

// Display helpers of the Screening page (no zod here: the schemas are imported as types only).

export type ScreeningTexts = Dictionary["screeningUi"];

export const FIELD =
  "h-8 w-full min-w-0 rounded-md border border-line bg-surface px-2 text-sm focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-accent";
export const LABEL = "flex min-w-0 flex-col gap-1 text-xs text-muted";
export const BUTTON =
  "inline-flex h-8 items-center justify-center rounded-md bg-accent px-3 text-sm font-medium text-accent-fg hover:opacity-90 disabled:opacity-60 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-accent";
export const SMALL_BUTTON =
  "inline-flex h-7 items-center rounded-md border border-accent/40 bg-accent-soft px-2.5 text-xs font-medium text-accent hover:opacity-90 disabled:opacity-60 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-accent";

export function marketText(t: ScreeningTexts, market: string): string {
  return codeLabel(t.markets, market);
}

/** A run's page: the URL that shows one stored run. */
export function runHref(runId: string): string {
  return `/screening?run=${encodeURIComponent(runId)}`;
}
