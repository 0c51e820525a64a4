"use client";

import { useState } from "react";
import { formatPrice, formatSignedPct, MONO_WITH_CJK } from "@/components/history/format";
import { fmt } from "@/components/settings/format";
import { cx } from "@/components/ui/cx";
import { CARD, CARD_BLOCK, CARD_HEAD, CARD_ROW_3, FULL, LABELLED } from "@/components/ui/table-cards";
import type { TBacktestCall, TCallsPage } from "@/lib/backtest/schemas";
import type { Dictionary } from "@/lib/i18n/dictionaries/types";
import { requestJson } from "@/components/ui/request";

type Texts = Dictionary["backtestUi"];

const PAGE_SIZE = 100;
// The API's largest page: the export reads the whole run in as few requests as it allows.
const EXPORT_PAGE_SIZE = 500;

function fetchPage(id: string, page: number, size: number): Promise<TCallsPage> {
  return requestJson<TCallsPage>(
    "GET",
    `/api/v1/backtests/${encodeURIComponent(id)}/calls?page=${page}&page_size=${size}`,
  );
}

function csvCell(value: string | number | null): string {
  if (value === null) return "";
  const text = String(value);
  return /[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function callsCsv(calls: readonly TBacktestCall[], horizons: readonly number[]): string {
  const head = [
    "date",
    "close",
    "action",
    "score",
    "ideal_buy",
    "stop_loss",
    "take_profit",
    ...horizons.flatMap((h) => [`return_${h}d_pct`, `outcome_${h}d`]),
  ];
  const rows = calls.map((c) => [
    c.date,
    c.close,
    c.action,
    c.score,
    c.ideal_buy,
    c.stop_loss,
    c.take_profit,
    ...horizons.flatMap((h) => {
      const o = c.outcomes.find((x) => x.horizon === h);
      return [o?.return_pct ?? null, o?.outcome ?? null];
    }),
  ]);
  return [head, ...rows].map((r) => r.map(csvCell).join(",")).join("\n") + "\n";
}

const CELL = "py-1 pr-3";
const FIGURE = cx(CELL, "text-right", LABELLED);

/**
 * The run's calls, 100 a page from the API, and the whole list as a CSV download. On a phone each call is a card:
 * the date, action, score and close, the plan's buy, stop and target, then the return per horizon.
 */
export function CallsTable({
  t,
  backtestId,
  stockCode,
  horizons,
  total,
  firstPage,
  actionLabels,
}: {
  t: Texts;
  backtestId: string;
  stockCode: string;
  horizons: readonly number[];
  total: number;
  firstPage: readonly TBacktestCall[];
  actionLabels: Readonly<Record<string, string>>;
}) {
  const [page, setPage] = useState(1);
  const [items, setItems] = useState<readonly TBacktestCall[]>(firstPage.slice(0, PAGE_SIZE));
  const [busy, setBusy] = useState(false);
  const [exporting, setExporting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));

  async function go(target: number) {
    setBusy(true);
    setError(null);
    try {
      setItems((await fetchPage(backtestId, target, PAGE_SIZE)).items);
      setPage(target);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  }

  async function exportCsv() {
    setExporting(true);
    setError(null);
    try {
      const all: TBacktestCall[] = [];
      for (let p = 1; p <= Math.ceil(total / EXPORT_PAGE_SIZE); p += 1)
        all.push(...(await fetchPage(backtestId, p, EXPORT_PAGE_SIZE)).items);
      const url = URL.createObjectURL(new Blob([callsCsv(all, horizons)], { type: "text/csv;charset=utf-8" }));
      const link = document.createElement("a");
      link.href = url;
      link.download = `backtest-${stockCode}-${backtestId.slice(0, 8)}.csv`;
      link.click();
      URL.revokeObjectURL(url);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setExporting(false);
    }
  }

  const button =
    "h-7 rounded-md border border-line bg-surface px-2.5 text-sm font-medium hover:bg-subtle disabled:cursor-not-allowed disabled:opacity-60";
  return (
    <div>
      <div className="flex flex-wrap items-center gap-2">
        <h3 className="text-sm font-semibold">{t.callsTitle}</h3>
        <span className="text-xs text-muted tabular-nums">{total}</span>
        <button
          type="button"
          onClick={exportCsv}
          disabled={exporting}
          className={`${button} ml-auto`}
          data-testid="calls-export"
        >
          {exporting ? t.exporting : t.exportCsv}
        </button>
      </div>
      <div className="mt-2 sm:overflow-x-auto">
        <table className={cx("w-full text-sm tabular-nums sm:min-w-[40rem]", CARD_BLOCK)} data-testid="calls-table">
          <thead className={cx("text-left text-xs text-muted", CARD_HEAD)}>
            <tr className="border-b border-line">
              <th className="py-1.5 pr-3 font-medium">{t.colDate}</th>
              <th className="py-1.5 pr-3 text-right font-medium">{t.colClose}</th>
              <th className="py-1.5 pr-3 font-medium">{t.colAction}</th>
              <th className="py-1.5 pr-3 text-right font-medium">{t.colScore}</th>
              <th className="py-1.5 pr-3 text-right font-medium">{t.colIdealBuy}</th>
              <th className="py-1.5 pr-3 text-right font-medium">{t.colStopLoss}</th>
              <th className="py-1.5 pr-3 text-right font-medium">{t.colTakeProfit}</th>
              {horizons.map((h) => (
                <th key={h} className="py-1.5 pr-3 text-right font-medium">
                  {fmt(t.colReturn, { horizon: h })}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className={CARD_BLOCK}>
            {items.map((c) => (
              <tr key={c.date} className={cx(CARD_ROW_3, "border-b border-line/60")}>
                <td className={cx(CELL, CARD, FULL, "max-sm:font-medium")} style={MONO_WITH_CJK}>
                  {c.date}
                </td>
                <td className={cx(FIGURE, "max-sm:order-1")} data-label={t.colClose} data-testid="call-close">
                  {formatPrice(c.close)}
                </td>
                <td className={cx(CELL, LABELLED)} data-label={t.colAction} data-testid="call-action">
                  {actionLabels[c.action] ?? c.action}
                </td>
                <td className={FIGURE} data-label={t.colScore} data-testid="call-score">
                  {c.score ?? "—"}
                </td>
                <td className={cx(FIGURE, "max-sm:order-2")} data-label={t.colIdealBuy} data-testid="call-ideal-buy">
                  {formatPrice(c.ideal_buy)}
                </td>
                <td className={cx(FIGURE, "max-sm:order-2")} data-label={t.colStopLoss} data-testid="call-stop-loss">
                  {formatPrice(c.stop_loss)}
                </td>
                <td
                  className={cx(FIGURE, "max-sm:order-2")}
                  data-label={t.colTakeProfit}
                  data-testid="call-take-profit"
                >
                  {formatPrice(c.take_profit)}
                </td>
                {horizons.map((h) => {
                  const o = c.outcomes.find((x) => x.horizon === h);
                  const tone =
                    o?.outcome === "hit"
                      ? "text-emerald-700 dark:text-emerald-300"
                      : o?.outcome === "miss"
                        ? "text-red-700 dark:text-red-300"
                        : "";
                  return (
                    <td
                      key={h}
                      className={cx(FIGURE, "max-sm:order-3", tone)}
                      data-label={fmt(t.colReturn, { horizon: h })}
                      title={o?.outcome ?? undefined}
                    >
                      {formatSignedPct(o?.return_pct)}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="mt-2 flex items-center justify-between gap-2 text-sm">
        <button type="button" className={button} disabled={busy || page <= 1} onClick={() => go(page - 1)}>
          {t.previous}
        </button>
        <span className="text-xs text-muted tabular-nums">{fmt(t.pageStatus, { page, pages })}</span>
        <button type="button" className={button} disabled={busy || page >= pages} onClick={() => go(page + 1)}>
          {t.next}
        </button>
      </div>
      {error ? (
        <p role="alert" className="mt-1 text-sm text-red-700 dark:text-red-300">
          {error}
        </p>
      ) : null}
    </div>
  );
}
