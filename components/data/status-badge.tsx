import { cx } from "@/components/ui/cx";
import type { DATASET_STATUSES } from "@/lib/data-sources/schemas";
import type { DataTexts } from "./format";

export type DataStatus = (typeof DATASET_STATUSES)[number];

// Health colours, not price colours: green works, amber works with a caveat, red does not, grey says nothing yet.
const GREEN =
  "border-emerald-600/30 bg-emerald-50 text-emerald-800 dark:border-emerald-400/30 dark:bg-emerald-950/50 dark:text-emerald-300";
const AMBER =
  "border-amber-500/40 bg-amber-50 text-amber-800 dark:border-amber-400/30 dark:bg-amber-950/60 dark:text-amber-300";
const RED = "border-red-500/40 bg-red-50 text-red-800 dark:border-red-400/30 dark:bg-red-950/50 dark:text-red-200";
const GREY = "border-line bg-subtle text-muted";

const TONES: Record<DataStatus, string> = {
  ok: GREEN,
  degraded: AMBER,
  partial: AMBER,
  stale: AMBER,
  unavailable: RED,
  unknown: GREY,
  unconfigured: GREY,
};

/** A dataset's or a source's status, worded in the UI language, with what it means on hover. */
export function DataStatusBadge({ t, status, testId }: { t: DataTexts; status: DataStatus; testId?: string }) {
  return (
    <span
      data-testid={testId}
      data-status={status}
      title={t.statusHints[status]}
      className={cx(
        "inline-flex items-center rounded border px-1.5 py-0.5 text-xs leading-4 font-medium whitespace-nowrap",
        TONES[status] ?? GREY,
      )}
    >
      {t.statuses[status] ?? status}
    </span>
  );
}
