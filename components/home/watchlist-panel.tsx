"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useMemo, useRef, useState } from "react";
import { actionTone, directionText } from "@/components/analysis/tone";
import { StockSearchInput, type StockSuggestion } from "@/components/analysis/stock-search-input";
import { formatPrice, formatSignedPct } from "@/components/history/format";
import { fmt } from "@/components/settings/format";
import { MiniChart } from "@/components/market/mini-chart";
import { isFinished, useTaskStream } from "@/components/tasks/use-task-stream";
import { cx } from "@/components/ui/cx";
import type { Dictionary } from "@/lib/i18n/dictionaries/types";

// The watchlist of the home page: STOCK_LIST as rows, edited here through the watchlist API (docs/api.md
// §12.7: add, remove, parse-import; order through the config API, which holds the list), and analysed in one click
// (async tasks; progress from the task stream; the row's verdict refreshes when its task completes).

export interface WatchItem {
  token: string;
  code: string | null;
  name: string | null;
  invalid: string | null;
  price: number | null;
  changePct: number | null;
  priceAt: string | null;
  /** Provider and session of the price, said beside it; old when it ended before the last closed session. */
  priceSource: string | null;
  priceDate: string | null;
  priceStale: boolean;
  /** This render's read was late or failed: the price is the last one read, at `delayedAt`. */
  delayed: boolean;
  delayedAt: string | null;
  closes: number[];
  dataError: string | null;
  latest: { recordId: number; action: string | null; score: number | null; age: string; createdAt: string } | null;
}

type Texts = Dictionary["homeUi"];
type ImportItem = {
  code?: string | null;
  name?: string | null;
  confidence: string;
  reason?: string | null;
  raw?: string | null;
};

async function postJson(
  url: string,
  body: unknown,
): Promise<{ ok: boolean; status: number; body: Record<string, unknown> }> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const json = (await res.json().catch(() => ({}))) as Record<string, unknown>;
  return { ok: res.ok, status: res.status, body: json };
}

function messageOf(body: Record<string, unknown>, fallback: string): string {
  return typeof body.message === "string" ? body.message : fallback;
}

export function WatchlistPanel({
  items,
  t,
  ta,
  actions,
  locale,
  sampleData,
}: {
  items: WatchItem[];
  t: Texts;
  ta: Dictionary["analyzeUi"];
  actions: Record<string, string>;
  locale: string;
  sampleData: boolean;
}) {
  const router = useRouter();
  const stream = useTaskStream();
  const [searchText, setSearchText] = useState("");
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<{ tone: "ok" | "error"; text: string } | null>(null);
  const [importText, setImportText] = useState("");
  const [importOpen, setImportOpen] = useState(false);
  const [preview, setPreview] = useState<{ codes: string[]; items: ImportItem[] } | null>(null);
  const codes = useMemo(() => items.flatMap((i) => (i.code ? [i.code.toUpperCase()] : [])), [items]);
  // Its own label: the analyze box above has a search field of the same kind.
  const searchTexts = useMemo(() => ({ ...ta, codeLabel: t.addLabel }), [ta, t.addLabel]);

  // Tasks of watched stocks: the running one per code shows its progress; a completion refreshes the page's data.
  const running = useMemo(() => {
    const out = new Map<string, { progress: number; message: string | null }>();
    for (const task of stream.tasks) {
      const code = task.stock_code.toUpperCase();
      if (!codes.includes(code) || isFinished(task) || out.has(code)) continue;
      out.set(code, { progress: task.progress, message: task.message ?? null });
    }
    return out;
  }, [stream.tasks, codes]);
  const seenActive = useRef(new Set<string>());
  useEffect(() => {
    let finished = false;
    for (const task of stream.tasks) {
      if (!codes.includes(task.stock_code.toUpperCase())) continue;
      if (!isFinished(task)) seenActive.current.add(task.task_id);
      else if (seenActive.current.delete(task.task_id)) finished = true;
    }
    if (finished) router.refresh();
  }, [stream.tasks, codes, router]);

  async function analyse(list: string[]) {
    if (list.length === 0) return;
    setNotice(null);
    const res = await postJson("/api/v1/analysis/analyze", {
      stock_codes: list,
      async_mode: true,
      report_type: "simple",
      report_language: locale === "en" ? "en" : "zh",
    });
    if (res.ok || res.status === 409) {
      setNotice({ tone: "ok", text: fmt(t.analyseQueued, { count: list.length }) });
      void stream.refresh();
    } else setNotice({ tone: "error", text: messageOf(res.body, t.requestFailed) });
  }

  async function edit(path: "add" | "remove", code: string) {
    setBusy(true);
    setNotice(null);
    try {
      const res = await postJson(`/api/v1/stocks/watchlist/${path}`, { stock_code: code });
      if (!res.ok) {
        setNotice({ tone: "error", text: messageOf(res.body, t.requestFailed) });
        return false;
      }
      router.refresh();
      return true;
    } finally {
      setBusy(false);
    }
  }

  async function move(index: number, delta: -1 | 1) {
    const target = index + delta;
    if (target < 0 || target >= items.length) return;
    setBusy(true);
    setNotice(null);
    try {
      const tokens = items.map((i) => i.code ?? i.token);
      [tokens[index], tokens[target]] = [tokens[target]!, tokens[index]!];
      const current = await fetch("/api/v1/system/config").then(
        (r) => r.json() as Promise<{ config_version?: string }>,
      );
      const res = await fetch("/api/v1/system/config", {
        method: "PUT",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          config_version: current.config_version,
          items: [{ key: "STOCK_LIST", value: tokens.join(",") }],
        }),
      });
      if (!res.ok)
        setNotice({
          tone: "error",
          text: messageOf((await res.json().catch(() => ({}))) as Record<string, unknown>, t.requestFailed),
        });
      router.refresh();
    } finally {
      setBusy(false);
    }
  }

  async function pick(item: StockSuggestion) {
    if (await edit("add", item.code)) setSearchText("");
  }

  async function parseImport() {
    setBusy(true);
    setNotice(null);
    try {
      const res = await postJson("/api/v1/stocks/parse-import", { text: importText });
      if (!res.ok) {
        setNotice({ tone: "error", text: messageOf(res.body, t.requestFailed) });
        return;
      }
      setPreview({ codes: (res.body.codes as string[]) ?? [], items: (res.body.items as ImportItem[]) ?? [] });
    } finally {
      setBusy(false);
    }
  }

  async function confirmImport() {
    if (!preview) return;
    setBusy(true);
    let added = 0;
    try {
      for (const code of preview.codes) {
        const res = await postJson("/api/v1/stocks/watchlist/add", { stock_code: code });
        if (res.ok) added += 1;
      }
    } finally {
      setBusy(false);
    }
    setNotice({ tone: "ok", text: fmt(t.importDone, { count: added }) });
    setPreview(null);
    setImportText("");
    setImportOpen(false);
    router.refresh();
  }

  return (
    <div data-testid="watchlist">
      <div className="flex flex-wrap items-center justify-between gap-2 border-b border-line px-3 py-2">
        <h2 className="text-sm font-semibold">{t.watchlistTitle}</h2>
        <div className="flex flex-wrap items-center gap-2">
          <button
            type="button"
            onClick={() => setImportOpen((v) => !v)}
            aria-expanded={importOpen}
            className="rounded border border-line px-2 py-1 text-xs hover:border-accent/50"
          >
            {t.import}
          </button>
          <button
            type="button"
            disabled={codes.length === 0}
            onClick={() => void analyse(codes)}
            className="rounded bg-accent px-2 py-1 text-xs font-medium text-accent-fg disabled:opacity-50"
          >
            {t.analyseAll}
          </button>
        </div>
      </div>

      <div className="border-b border-line px-3 py-2">
        <StockSearchInput
          t={searchTexts}
          locale={locale}
          text={searchText}
          onTextChange={setSearchText}
          onPick={(item) => void pick(item)}
          disabled={busy}
        />
      </div>

      {importOpen ? (
        <div className="space-y-2 border-b border-line px-3 py-2" data-testid="watchlist-import">
          <label className="block text-xs text-muted" htmlFor="watchlist-import-text">
            {t.importLabel}
          </label>
          <textarea
            id="watchlist-import-text"
            value={importText}
            onChange={(e) => setImportText(e.target.value)}
            rows={3}
            placeholder={t.importPlaceholder}
            className="w-full rounded border border-line bg-surface px-2 py-1 text-sm"
          />
          <button
            type="button"
            disabled={busy || importText.trim() === ""}
            onClick={() => void parseImport()}
            className="rounded border border-line px-2 py-1 text-xs disabled:opacity-50"
          >
            {t.importParse}
          </button>
          {preview ? (
            <div className="text-xs" data-testid="watchlist-import-preview">
              <p>{fmt(t.importPreview, { count: preview.codes.length })}</p>
              <ul className="mt-1 flex flex-wrap gap-1">
                {preview.items.map((item, i) => (
                  <li
                    key={i}
                    className={cx(
                      "rounded border px-1.5 py-0.5",
                      item.code ? "border-line" : "border-red-500/40 text-red-700 dark:text-red-300",
                    )}
                    title={item.reason ?? undefined}
                  >
                    {item.code ? `${item.name ?? ""} ${item.code}`.trim() : `${item.raw ?? item.name ?? "?"} ✗`}
                  </li>
                ))}
              </ul>
              <button
                type="button"
                disabled={busy || preview.codes.length === 0}
                onClick={() => void confirmImport()}
                className="mt-2 rounded bg-accent px-2 py-1 font-medium text-accent-fg disabled:opacity-50"
              >
                {t.importConfirm}
              </button>
            </div>
          ) : null}
        </div>
      ) : null}

      {notice ? (
        <p
          role={notice.tone === "error" ? "alert" : "status"}
          className={cx(
            "px-3 py-1.5 text-xs",
            notice.tone === "error" ? "text-red-700 dark:text-red-300" : "text-muted",
          )}
        >
          {notice.text}
        </p>
      ) : null}

      {items.length === 0 ? (
        <p className="px-3 py-6 text-sm text-muted" data-testid="watchlist-empty">
          {sampleData ? t.emptySample : t.empty}
        </p>
      ) : (
        <ul className="divide-y divide-line">
          {items.map((item, index) => {
            const run = item.code ? running.get(item.code.toUpperCase()) : undefined;
            const dir =
              item.changePct === null ? "flat" : item.changePct > 0 ? "up" : item.changePct < 0 ? "down" : "flat";
            const action = item.latest?.action ?? null;
            return (
              <li
                key={`${item.token}-${index}`}
                data-testid="watch-row"
                data-code={item.code ?? item.token}
                className="grid grid-cols-[minmax(0,1fr)_auto] items-center gap-x-3 gap-y-1 px-3 py-2 sm:grid-cols-[minmax(0,1.4fr)_auto_auto_auto_auto]"
              >
                <div className="min-w-0">
                  <div className="truncate text-sm font-medium">
                    {item.latest ? (
                      <Link href={`/history/${item.latest.recordId}`} className="hover:underline">
                        {item.name ?? item.code ?? item.token}
                      </Link>
                    ) : (
                      (item.name ?? item.code ?? item.token)
                    )}
                  </div>
                  <div className="text-xs text-muted tabular-nums">
                    {item.code ?? item.token}
                    {item.invalid ? (
                      <span className="ml-1 text-red-700 dark:text-red-300">
                        {fmt(t.invalid, { reason: item.invalid })}
                      </span>
                    ) : null}
                    {item.dataError && !item.delayed ? (
                      <span className="ml-1" title={item.dataError}>
                        {t.noData}
                      </span>
                    ) : null}
                  </div>
                </div>
                <div className="text-right tabular-nums" data-testid="watch-price" title={item.priceAt ?? undefined}>
                  <div className={cx("text-sm font-semibold", directionText(dir))}>{formatPrice(item.price)}</div>
                  <div className={cx("text-xs", directionText(dir))}>{formatSignedPct(item.changePct)}</div>
                  {item.delayed ? (
                    <div
                      data-testid="watch-price-delayed"
                      title={item.dataError ?? undefined}
                      className="text-[11px] leading-4 text-amber-700 dark:text-amber-400"
                    >
                      {fmt(t.priceDelayed, {
                        source: item.priceSource ?? "",
                        at: item.delayedAt ?? item.priceDate ?? "",
                      })}
                    </div>
                  ) : item.priceSource && item.priceDate ? (
                    <div
                      data-testid="watch-price-source"
                      data-source={item.priceSource}
                      data-stale={item.priceStale ? "true" : "false"}
                      className={cx(
                        "text-[11px] leading-4",
                        item.priceSource === "sample" || item.priceStale
                          ? "text-amber-700 dark:text-amber-400"
                          : "text-muted",
                      )}
                    >
                      {fmt(item.priceStale ? t.priceOld : t.priceSource, {
                        source: item.priceSource,
                        date: item.priceDate,
                      })}
                    </div>
                  ) : null}
                </div>
                <div className="hidden w-24 sm:block">
                  <MiniChart
                    closes={item.closes}
                    label={fmt(t.sparklineLabel, {
                      name: item.name ?? item.code ?? item.token,
                      count: item.closes.length,
                    })}
                    className="h-7"
                  />
                </div>
                <div className="flex items-center gap-2 text-xs" data-testid="watch-verdict">
                  {item.latest ? (
                    <>
                      <span
                        className={cx(
                          "rounded border px-1.5 py-0.5 font-medium",
                          actionTone(action as Parameters<typeof actionTone>[0]),
                        )}
                      >
                        {action ? (actions[action] ?? action) : t.noVerdict}
                      </span>
                      <span className="tabular-nums">{item.latest.score ?? "–"}</span>
                      <span className="text-muted" title={item.latest.createdAt}>
                        {item.latest.age}
                      </span>
                    </>
                  ) : (
                    <span className="text-muted">{t.notAnalysed}</span>
                  )}
                </div>
                <div className="col-span-2 flex items-center justify-end gap-1 sm:col-span-1">
                  {run ? (
                    <span role="status" className="text-xs text-muted tabular-nums" data-testid="watch-progress">
                      {fmt(t.analysing, { progress: run.progress })}
                    </span>
                  ) : (
                    <button
                      type="button"
                      disabled={!item.code}
                      onClick={() => item.code && void analyse([item.code])}
                      aria-label={fmt(t.analyseOne, { name: item.name ?? item.code ?? item.token })}
                      className="rounded border border-line px-2 py-0.5 text-xs hover:border-accent/50 disabled:opacity-50"
                    >
                      {t.analyse}
                    </button>
                  )}
                  <button
                    type="button"
                    disabled={busy || index === 0}
                    onClick={() => void move(index, -1)}
                    aria-label={fmt(t.moveUp, { name: item.name ?? item.token })}
                    className="rounded px-1 text-xs text-muted hover:text-fg disabled:opacity-30"
                  >
                    ↑
                  </button>
                  <button
                    type="button"
                    disabled={busy || index === items.length - 1}
                    onClick={() => void move(index, 1)}
                    aria-label={fmt(t.moveDown, { name: item.name ?? item.token })}
                    className="rounded px-1 text-xs text-muted hover:text-fg disabled:opacity-30"
                  >
                    ↓
                  </button>
                  <button
                    type="button"
                    disabled={busy}
                    onClick={() => void edit("remove", item.code ?? item.token)}
                    aria-label={fmt(t.remove, { name: item.name ?? item.token })}
                    className="rounded px-1 text-xs text-muted hover:text-red-600 disabled:opacity-30"
                  >
                    ✕
                  </button>
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
