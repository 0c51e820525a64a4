"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useMemo, useState, useTransition } from "react";
import { direction } from "@/components/analysis/report-model";
import { directionText } from "@/components/analysis/tone";
import { fmt } from "@/components/settings/format";
import { useFormatTime } from "@/components/shell/time-zone";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { cx } from "@/components/ui/cx";
import { CARD, CARD_BLOCK, CARD_GRID, CARD_HEAD, LABELLED, WIDE } from "@/components/ui/table-cards";
import type { Dictionary } from "@/lib/i18n/dictionaries/types";
import type { THistoryItem } from "@/lib/history/schemas";
import { deleteRecords, errorText } from "./delete-request";
import { RecordAction } from "./record-action";
import { formatPrice, formatSignedPct, MARKET_REVIEW, reportTypeLabel } from "./format";

type Texts = Dictionary["historyUi"];

const TH = "px-2 py-1.5 text-left text-xs font-medium whitespace-nowrap text-muted";
const TD = "px-2 py-1.5 align-middle";
// A phone card: the checkbox in a narrow column down the left, beside three columns of name and type, verdict,
// score and price, then change and time; the summary stays hidden below xl as before.
const ROW_CARD = cx(CARD_GRID, "max-sm:grid-cols-[auto_repeat(3,minmax(0,1fr))]");

// One page of history records with multi-select delete. The page itself is server-rendered from the URL;
// after a delete the router refreshes it, so the list, the counts and the sidebar come from the database again.
export function HistoryTable({ t, items }: { t: Texts; items: THistoryItem[] }) {
  const router = useRouter();
  const formatTime = useFormatTime();
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [, startTransition] = useTransition();

  // Selections of rows that are no longer on the page (after a refresh) are dropped.
  const visible = useMemo(() => new Set(items.map((i) => i.id)), [items]);
  const chosen = [...selected].filter((id) => visible.has(id));
  const allChosen = items.length > 0 && chosen.length === items.length;

  const toggle = (id: number) =>
    setSelected((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const toggleAll = () => setSelected(allChosen ? new Set() : new Set(items.map((i) => i.id)));

  async function confirmDelete() {
    setBusy(true);
    setError(null);
    try {
      const deleted = await deleteRecords(chosen);
      setConfirming(false);
      setSelected(new Set());
      setNotice(fmt(t.deleted, { count: deleted }));
      startTransition(() => router.refresh());
    } catch (failure) {
      setError(fmt(t.deleteFailed, { message: errorText(failure) }));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div>
      <div className="flex min-h-10 flex-wrap items-center gap-x-3 gap-y-1 border-b border-line px-3 py-1.5">
        <label className="inline-flex items-center gap-2 text-xs text-muted">
          <input
            type="checkbox"
            checked={allChosen}
            onChange={toggleAll}
            aria-label={t.selectAll}
            className="size-4 accent-(--dsa-accent)"
          />
          <span data-testid="history-selected-count">{fmt(t.selectedCount, { count: chosen.length })}</span>
        </label>
        <button
          type="button"
          disabled={chosen.length === 0}
          onClick={() => {
            setError(null);
            setConfirming(true);
          }}
          className="inline-flex h-7 items-center rounded-md border border-line bg-surface px-2.5 text-xs font-medium hover:bg-subtle focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-accent disabled:cursor-not-allowed disabled:opacity-50"
        >
          {t.deleteSelected}
        </button>
        <p role="status" className="ml-auto text-xs text-muted">
          {notice}
        </p>
      </div>
      <div className="sm:overflow-x-auto">
        <table
          className={cx("w-full border-collapse text-sm sm:min-w-[36rem]", CARD_BLOCK)}
          data-testid="history-table"
        >
          <thead className={cx("border-b border-line bg-subtle/60", CARD_HEAD)}>
            <tr>
              <th scope="col" className={cx(TH, "w-8")}>
                <span className="sr-only">{t.selectAll}</span>
              </th>
              <th scope="col" className={TH}>
                {t.colTime}
              </th>
              <th scope="col" className={TH}>
                {t.colStock}
              </th>
              <th scope="col" className={TH}>
                {t.colType}
              </th>
              <th scope="col" className={TH}>
                {t.colAction}
              </th>
              <th scope="col" className={cx(TH, "text-right")}>
                {t.colScore}
              </th>
              <th scope="col" className={cx(TH, "text-right")}>
                {t.colPrice}
              </th>
              <th scope="col" className={cx(TH, "text-right")}>
                {t.colChange}
              </th>
              <th scope="col" className={cx(TH, "hidden xl:table-cell")}>
                {t.colSummary}
              </th>
            </tr>
          </thead>
          <tbody className={cx("divide-y divide-line", CARD_BLOCK)}>
            {items.map((item) => {
              const review = item.report_type === MARKET_REVIEW;
              const name = review ? t.marketReview : (item.stock_name ?? item.stock_code);
              const time = formatTime(item.created_at);
              const dir = direction(item.change_pct);
              return (
                <tr
                  key={item.id}
                  data-testid="history-row"
                  data-record-id={item.id}
                  className={cx(ROW_CARD, "hover:bg-subtle/50", selected.has(item.id) && "bg-accent-soft/60")}
                >
                  <td className={cx(TD, CARD, "max-sm:order-1 max-sm:row-span-3")}>
                    <input
                      type="checkbox"
                      checked={selected.has(item.id)}
                      onChange={() => toggle(item.id)}
                      aria-label={fmt(t.selectRow, { name, time })}
                      className="size-4 align-middle accent-(--dsa-accent)"
                    />
                  </td>
                  <td
                    className={cx(
                      TD,
                      "font-mono text-xs whitespace-nowrap text-muted",
                      LABELLED,
                      WIDE,
                      "max-sm:order-8",
                    )}
                    data-label={t.colTime}
                  >
                    <time dateTime={item.created_at}>{time}</time>
                  </td>
                  <td className={cx(TD, "whitespace-nowrap", CARD, WIDE, "max-sm:order-2")}>
                    <Link
                      href={`/history/${item.id}`}
                      className="font-medium text-accent underline-offset-2 hover:underline"
                    >
                      {name}
                    </Link>
                    {review ? null : <span className="ml-1.5 font-mono text-xs text-muted">{item.stock_code}</span>}
                  </td>
                  <td
                    className={cx(TD, "text-xs whitespace-nowrap text-muted", CARD, "max-sm:order-3 max-sm:text-right")}
                  >
                    {reportTypeLabel(t.reportTypes, item.report_type)}
                  </td>
                  <td
                    className={cx(TD, LABELLED, "max-sm:order-4")}
                    data-label={t.colAction}
                    data-testid="history-action"
                  >
                    <RecordAction item={item} labels={t.actions} />
                  </td>
                  <td
                    className={cx(TD, "text-right font-medium tabular-nums", LABELLED, "max-sm:order-5")}
                    data-label={t.colScore}
                    data-testid="history-score"
                  >
                    {item.sentiment_score ?? "—"}
                  </td>
                  <td
                    className={cx(TD, "text-right tabular-nums", LABELLED, "max-sm:order-6")}
                    data-label={t.colPrice}
                    data-testid="history-price"
                  >
                    {formatPrice(item.current_price)}
                  </td>
                  <td
                    className={cx(
                      TD,
                      "text-right font-medium tabular-nums",
                      directionText(dir),
                      LABELLED,
                      "max-sm:order-7",
                    )}
                    data-label={t.colChange}
                  >
                    {formatSignedPct(item.change_pct)}
                  </td>
                  <td className={cx(TD, "hidden max-w-md xl:table-cell")}>
                    <span className="line-clamp-1 text-xs text-muted" title={item.analysis_summary ?? undefined}>
                      {item.analysis_summary ?? "—"}
                    </span>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <ConfirmDialog
        open={confirming}
        title={fmt(t.deleteSelectedTitle, { count: chosen.length })}
        confirmLabel={t.confirmDelete}
        cancelLabel={t.cancel}
        busyLabel={t.deleting}
        busy={busy}
        error={error}
        onConfirm={confirmDelete}
        onCancel={() => setConfirming(false)}
      >
        {t.deleteSelectedBody}
      </ConfirmDialog>
    </div>
  );
}
