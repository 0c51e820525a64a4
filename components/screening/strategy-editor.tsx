"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { fmt } from "@/components/settings/format";
import { messageOf, requestJson } from "@/components/ui/request";
import { BUTTON, FIELD, LABEL, SMALL_BUTTON, marketText, type ScreeningTexts } from "./format";

// A strategy of the user's own: the same parts as a built-in one (filters on the figures the screener computes and
// one ranking figure). The API checks it; its message is shown as it is when it refuses.

interface FilterRow {
  metric: string;
  op: "gte" | "lte";
  value: string;
}

const MARKETS = ["cn", "hk", "us"] as const;

export function StrategyEditor({
  t,
  metrics,
  language,
}: {
  t: ScreeningTexts;
  /** The figures a filter can use, with their labels in the UI language. */
  metrics: { value: string; label: string }[];
  language: "zh" | "en";
}) {
  const router = useRouter();
  const first = metrics[0]?.value ?? "close";
  const [id, setId] = useState("");
  const [names, setNames] = useState({ zh: "", en: "" });
  const [descriptions, setDescriptions] = useState({ zh: "", en: "" });
  const [category, setCategory] = useState<string>("trend");
  const [markets, setMarkets] = useState<string[]>(["cn"]);
  const [filters, setFilters] = useState<FilterRow[]>([{ metric: first, op: "gte", value: "0" }]);
  const [rank, setRank] = useState({ metric: first, order: "desc" as "desc" | "asc" });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const setFilter = (index: number, change: Partial<FilterRow>) =>
    setFilters((rows) => rows.map((row, i) => (i === index ? { ...row, ...change } : row)));

  async function save(event: React.FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await requestJson("POST", `/api/v1/screening/strategies?language=${language}`, {
        id: id.trim(),
        name: names,
        description: descriptions,
        category,
        markets,
        filters: filters.map((f) => ({ metric: f.metric, op: f.op, value: Number(f.value) })),
        rank,
      });
      router.refresh();
      setId("");
    } catch (failure) {
      setError(fmt(t.saveFailed, { message: messageOf(failure) }));
    } finally {
      setBusy(false);
    }
  }

  const text = (label: string, value: string, onChange: (v: string) => void, name: string) => (
    <label className={LABEL}>
      {label}
      <input className={FIELD} name={name} value={value} onChange={(e) => onChange(e.target.value)} required />
    </label>
  );

  return (
    <details className="rounded-md border border-line bg-surface p-3" data-testid="strategy-editor">
      <summary className="cursor-pointer text-sm font-semibold">{t.editorTitle}</summary>
      <form onSubmit={save} aria-label={t.editorTitle} className="mt-3 grid gap-2 sm:grid-cols-2">
        {text(t.idLabel, id, setId, "id")}
        <label className={LABEL}>
          {t.categoryLabel}
          <select className={FIELD} name="category" value={category} onChange={(e) => setCategory(e.target.value)}>
            {Object.entries(t.categories).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        {text(t.nameZhLabel, names.zh, (v) => setNames((n) => ({ ...n, zh: v })), "name_zh")}
        {text(t.nameEnLabel, names.en, (v) => setNames((n) => ({ ...n, en: v })), "name_en")}
        {text(t.descZhLabel, descriptions.zh, (v) => setDescriptions((d) => ({ ...d, zh: v })), "description_zh")}
        {text(t.descEnLabel, descriptions.en, (v) => setDescriptions((d) => ({ ...d, en: v })), "description_en")}
        <fieldset className="sm:col-span-2">
          <legend className="text-xs text-muted">{t.marketsLabel}</legend>
          <div className="mt-1 flex flex-wrap gap-3">
            {MARKETS.map((m) => (
              <label key={m} className="inline-flex items-center gap-1.5 text-sm">
                <input
                  type="checkbox"
                  checked={markets.includes(m)}
                  onChange={(e) =>
                    setMarkets((list) => (e.target.checked ? [...list, m] : list.filter((x) => x !== m)))
                  }
                />
                {marketText(t, m)}
              </label>
            ))}
          </div>
        </fieldset>
        <fieldset className="space-y-2 sm:col-span-2">
          <legend className="text-xs text-muted">{t.filtersLabel}</legend>
          {filters.map((f, i) => (
            <div
              key={i}
              className="grid grid-cols-[minmax(0,1fr)_4.5rem_6rem_auto] items-end gap-2"
              data-testid="filter-row"
            >
              <select
                className={FIELD}
                aria-label={`${t.filtersLabel} ${i + 1}`}
                value={f.metric}
                onChange={(e) => setFilter(i, { metric: e.target.value })}
              >
                {metrics.map((m) => (
                  <option key={m.value} value={m.value}>
                    {m.label}
                  </option>
                ))}
              </select>
              <select
                className={FIELD}
                aria-label="≥ / ≤"
                value={f.op}
                onChange={(e) => setFilter(i, { op: e.target.value as "gte" | "lte" })}
              >
                <option value="gte">≥</option>
                <option value="lte">≤</option>
              </select>
              <input
                className={FIELD}
                type="number"
                step="any"
                aria-label={t.valueLabel}
                value={f.value}
                onChange={(e) => setFilter(i, { value: e.target.value })}
                required
              />
              <button
                type="button"
                className={SMALL_BUTTON}
                disabled={filters.length === 1}
                onClick={() => setFilters((rows) => rows.filter((_, k) => k !== i))}
              >
                {t.removeFilter}
              </button>
            </div>
          ))}
          <button
            type="button"
            className={SMALL_BUTTON}
            onClick={() => setFilters((rows) => [...rows, { metric: first, op: "gte", value: "0" }])}
          >
            {t.addFilter}
          </button>
        </fieldset>
        <label className={LABEL}>
          {t.rankLabel}
          <select
            className={FIELD}
            name="rank_metric"
            value={rank.metric}
            onChange={(e) => setRank((r) => ({ ...r, metric: e.target.value }))}
          >
            {metrics.map((m) => (
              <option key={m.value} value={m.value}>
                {m.label}
              </option>
            ))}
          </select>
        </label>
        <label className={LABEL}>
          <span className="sr-only">{t.rankLabel}</span>
          <select
            className={FIELD}
            name="rank_order"
            aria-label={`${t.rankLabel}: ${t.orderDesc} / ${t.orderAsc}`}
            value={rank.order}
            onChange={(e) => setRank((r) => ({ ...r, order: e.target.value as "desc" | "asc" }))}
          >
            <option value="desc">{t.orderDesc}</option>
            <option value="asc">{t.orderAsc}</option>
          </select>
        </label>
        <div className="flex flex-wrap items-center gap-2 sm:col-span-2">
          <button type="submit" className={BUTTON} disabled={busy} aria-busy={busy}>
            {busy ? t.saving : t.save}
          </button>
          {error ? (
            <p role="alert" className="text-sm text-red-700 dark:text-red-300">
              {error}
            </p>
          ) : null}
        </div>
      </form>
    </details>
  );
}
