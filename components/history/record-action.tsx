import { actionTone } from "@/components/analysis/tone";
import { cx } from "@/components/ui/cx";
import type { THistoryItem } from "@/lib/history/schemas";

/** A history record's action as a coloured badge in the record's language, or a dash when it has none. */
export function RecordAction({ item }: { item: Pick<THistoryItem, "action" | "action_label"> }) {
  if (!item.action && !item.action_label) return <span className="text-muted">—</span>;
  return (
    <span className={cx("inline-flex rounded border px-1.5 py-px text-xs font-semibold whitespace-nowrap", actionTone(item.action))}>{item.action_label ?? item.action}</span>
  );
}
