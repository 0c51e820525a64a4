import { actionTone } from "@/components/analysis/tone";
import { cx } from "@/components/ui/cx";
import type { THistoryItem } from "@/lib/history/schemas";
import { codeLabel } from "@/lib/i18n/labels";

/**
 * A history record's action as a coloured badge in the UI language (looked up by the action code, not
 * the record's action_label, which is in the report's language), or a dash when it has none.
 */
export function RecordAction({
  item,
  labels,
}: {
  item: Pick<THistoryItem, "action">;
  labels: Readonly<Record<string, string>>;
}) {
  if (!item.action) return <span className="text-muted">—</span>;
  return (
    <span
      data-testid="record-action"
      data-action={item.action}
      className={cx(
        "inline-flex rounded border px-1.5 py-px text-xs font-semibold whitespace-nowrap",
        actionTone(item.action),
      )}
    >
      {codeLabel(labels, item.action)}
    </span>
  );
}
