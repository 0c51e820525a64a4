import type { ReactNode } from "react";
import { fmt } from "@/components/settings/format";
import { cx } from "@/components/ui/cx";
import { Panel } from "@/components/ui/panel";
import type { Dictionary } from "@/lib/i18n/dictionaries/types";
import type { TOutcomeStatsBucket, TOutcomeStatsResponse } from "@/lib/signals/schemas";
import { actionFill, formatPct, labelOf, returnFill, returnText } from "./format";
import { RunOutcomesButton } from "./run-outcomes-button";

type Texts = Dictionary["signalsUi"];
type Cell = TOutcomeStatsResponse["by_horizon_action"][number];

// The outcome statistics of the Signals page (GET /api/v1/decision-signals/outcomes/stats, read on the server),
// drawn the way the Usage page draws its charts: plain HTML/CSS bars scaled in %, with the numbers written on them
// and repeated for screen readers.

function signedPct(value: number | null): string {
  if (value === null || !Number.isFinite(value)) return "—";
  return `${value > 0 ? "+" : ""}${value.toFixed(2)}%`;
}

function barText(t: Texts, label: string, value: string, b: { hit: number; miss: number; completed: number }): string {
  return fmt(t.chartBar, { label, value, hit: b.hit, miss: b.miss, completed: b.completed });
}

function ChartFrame({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="min-w-0 rounded-md border border-line px-3 pt-2 pb-2">
      <h3 className="text-xs font-semibold text-muted">{title}</h3>
      {children}
    </div>
  );
}

function HitRateChart({ t, buckets }: { t: Texts; buckets: TOutcomeStatsBucket[] }) {
  const items = buckets.map((b) => ({ b, label: labelOf(t.horizons, b.value), value: formatPct(b.hit_rate_pct) }));
  return (
    <ChartFrame title={t.hitRateChart}>
      <div
        role="img"
        aria-label={fmt(t.chartHitRateAria, { items: items.map((i) => `${i.label} ${i.value}`).join("，") })}
        data-testid="chart-hit-rate"
        className="relative mt-2 flex h-36 items-end gap-3 border-b border-line pr-7"
      >
        <div
          className="pointer-events-none absolute inset-x-0 border-t border-dashed border-line"
          style={{ bottom: "42.5%" }}
          aria-hidden="true"
        />
        <span
          className="pointer-events-none absolute right-0 translate-y-full text-[10px] text-muted"
          style={{ bottom: "42.5%" }}
          aria-hidden="true"
        >
          50%
        </span>
        {items.map(({ b, label, value }) => (
          <div
            key={b.value}
            className="relative h-full min-w-0 flex-1"
            title={barText(t, label, value, b)}
            data-horizon={b.value}
            data-value={b.hit_rate_pct ?? ""}
          >
            <div
              className="absolute bottom-0 left-1/2 w-full max-w-12 -translate-x-1/2 rounded-t-sm bg-accent"
              style={{ height: b.hit_rate_pct === null ? 0 : `max(2px, ${(b.hit_rate_pct * 0.85).toFixed(2)}%)` }}
            />
            <span
              className="absolute inset-x-0 text-center text-xs font-semibold tabular-nums"
              style={{ bottom: `calc(${((b.hit_rate_pct ?? 0) * 0.85).toFixed(2)}% + 2px)` }}
            >
              {value}
            </span>
          </div>
        ))}
      </div>
      <div className="mt-1 flex gap-3 pr-7 text-xs text-muted">
        {items.map(({ b, label }) => (
          <span key={b.value} className="min-w-0 flex-1 truncate text-center tabular-nums">
            {label} <span className="opacity-70">({b.hit + b.miss})</span>
          </span>
        ))}
      </div>
    </ChartFrame>
  );
}

function ReturnChart({ t, buckets }: { t: Texts; buckets: TOutcomeStatsBucket[] }) {
  const max = Math.max(0.01, ...buckets.map((b) => Math.abs(b.avg_stock_return_pct ?? 0)));
  const items = buckets.map((b) => ({
    b,
    label: labelOf(t.horizons, b.value),
    value: signedPct(b.avg_stock_return_pct),
  }));
  return (
    <ChartFrame title={t.avgReturnChart}>
      <div
        role="img"
        aria-label={fmt(t.chartReturnAria, { items: items.map((i) => `${i.label} ${i.value}`).join("，") })}
        data-testid="chart-avg-return"
        className="mt-2 flex h-36 gap-3"
      >
        {items.map(({ b, label, value }) => {
          const v = b.avg_stock_return_pct;
          const pct = v === null ? 0 : (Math.abs(v) / max) * 50;
          return (
            <div
              key={b.value}
              className="relative h-full min-w-0 flex-1"
              title={barText(t, label, value, b)}
              data-horizon={b.value}
              data-value={v ?? ""}
            >
              <div className="absolute inset-x-0 top-1/2 border-t border-line" aria-hidden="true" />
              {v !== null ? (
                <div
                  className={cx(
                    "absolute left-1/2 w-full max-w-12 -translate-x-1/2",
                    returnFill(v),
                    v >= 0 ? "rounded-t-sm" : "rounded-b-sm",
                  )}
                  style={
                    v >= 0
                      ? { bottom: "50%", height: `max(2px, ${pct.toFixed(2)}%)` }
                      : { top: "50%", height: `max(2px, ${pct.toFixed(2)}%)` }
                  }
                />
              ) : null}
              <span
                className={cx(
                  "absolute inset-x-0 text-center text-xs font-semibold tabular-nums",
                  returnText(v),
                  v !== null && v < 0 ? "top-0" : "bottom-0",
                )}
              >
                {value}
              </span>
            </div>
          );
        })}
      </div>
      <div className="mt-1 flex gap-3 text-xs text-muted">
        {items.map(({ b, label }) => (
          <span key={b.value} className="min-w-0 flex-1 truncate text-center tabular-nums">
            {label} <span className="opacity-70">({b.completed})</span>
          </span>
        ))}
      </div>
    </ChartFrame>
  );
}

/** Rows are actions, columns horizons; each cell a hit-rate bar with its value and the average return under it. */
function Matrix({ t, cells }: { t: Texts; cells: Cell[] }) {
  const horizons = [...new Set(cells.map((c) => c.horizon))];
  const actions = [...new Set(cells.map((c) => c.action))];
  const cellOf = (h: string, a: string) => cells.find((c) => c.horizon === h && c.action === a);
  return (
    <ChartFrame title={t.matrixChart}>
      <div className="overflow-x-auto">
        <table className="mt-1 w-full min-w-[24rem] text-sm" data-testid="stats-matrix">
          <thead>
            <tr className="border-b border-line text-xs text-muted">
              <th scope="col" className="py-1 pr-2 text-left font-medium">
                {t.colAction}
              </th>
              {horizons.map((h) => (
                <th key={h} scope="col" className="px-2 py-1 text-left font-medium">
                  {labelOf(t.horizons, h)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-line">
            {actions.map((a) => (
              <tr key={a}>
                <th scope="row" className="py-1.5 pr-2 text-left font-normal whitespace-nowrap">
                  <span
                    className={cx("mr-1.5 inline-block size-2 rounded-sm align-middle", actionFill(a))}
                    aria-hidden="true"
                  />
                  {labelOf(t.actions, a)}
                </th>
                {horizons.map((h) => {
                  const c = cellOf(h, a);
                  if (!c)
                    return (
                      <td key={h} className="px-2 py-1.5 text-muted">
                        —
                      </td>
                    );
                  const label = `${labelOf(t.horizons, h)} · ${labelOf(t.actions, a)}`;
                  return (
                    <td
                      key={h}
                      className="px-2 py-1.5 align-top"
                      data-testid="stats-cell"
                      data-horizon={h}
                      data-action={a}
                      title={barText(t, label, formatPct(c.hit_rate_pct), c)}
                    >
                      <div className="flex items-baseline justify-between gap-1">
                        <span className="text-xs font-semibold tabular-nums" data-testid="cell-hit-rate">
                          {formatPct(c.hit_rate_pct)}
                        </span>
                        <span
                          className={cx("text-xs tabular-nums", returnText(c.avg_stock_return_pct))}
                          data-testid="cell-avg-return"
                        >
                          {signedPct(c.avg_stock_return_pct)}
                        </span>
                      </div>
                      <div className="mt-1 h-1.5 rounded-full bg-subtle" aria-hidden="true">
                        <div
                          className={cx("h-full rounded-full", actionFill(a))}
                          style={{ width: `${(c.hit_rate_pct ?? 0).toFixed(2)}%` }}
                        />
                      </div>
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="mt-1 flex max-w-40 justify-between gap-2 text-xs text-muted" aria-hidden="true">
        <span>{t.matrixHitRate}</span>
        <span>{t.matrixReturn}</span>
      </p>
    </ChartFrame>
  );
}

export function StatsPanel({ t, stats }: { t: Texts; stats: TOutcomeStatsResponse }) {
  const totals: [string, string, string, string?][] = [
    ["hit-rate", t.statsHitRate, formatPct(stats.hit_rate_pct), "text-2xl text-accent"],
    [
      "avg-return",
      t.statsAvgReturn,
      signedPct(stats.avg_stock_return_pct),
      cx("text-2xl", returnText(stats.avg_stock_return_pct)),
    ],
    ["total", t.statsTotal, String(stats.total)],
    ["completed", t.statsCompleted, String(stats.completed)],
    ["hit", t.statsHit, String(stats.hit)],
    ["miss", t.statsMiss, String(stats.miss)],
    ["neutral", t.statsNeutral, String(stats.neutral)],
    ["unable", t.statsUnable, String(stats.unable)],
  ];
  const horizonBuckets = stats.breakdowns.horizon.filter((b) => b.value !== null);
  return (
    <Panel>
      <div
        className="flex flex-wrap items-center justify-between gap-2 border-b border-line px-3 py-2"
        data-testid="signal-stats"
      >
        <h2 className="text-sm font-semibold">
          {t.statsTitle}
          <span className="ml-2 text-xs font-normal text-muted">
            {fmt(t.statsEngine, { version: stats.engine_version })}
          </span>
        </h2>
        <RunOutcomesButton t={t} />
      </div>
      {stats.total === 0 ? (
        <p className="px-3 py-5 text-sm text-muted" data-testid="signal-stats-empty">
          {t.statsEmpty}
        </p>
      ) : (
        <div className="space-y-3 px-3 py-3">
          <dl className="grid grid-cols-4 gap-x-4 gap-y-2 sm:grid-cols-8">
            {totals.map(([key, label, value, size]) => (
              <div
                key={key}
                className={cx("min-w-0", size ? "col-span-2 sm:col-span-1" : "")}
                data-testid={`stats-${key}`}
              >
                <dt className="truncate text-xs text-muted">{label}</dt>
                <dd className={cx("mt-0.5 font-semibold tabular-nums", size ?? "text-lg")}>{value}</dd>
              </div>
            ))}
          </dl>
          <div className="grid grid-cols-1 items-start gap-3 md:grid-cols-2 xl:grid-cols-[1fr_1fr_1.4fr]">
            <HitRateChart t={t} buckets={horizonBuckets} />
            <ReturnChart t={t} buckets={horizonBuckets} />
            <div className="md:col-span-2 xl:col-span-1">
              <Matrix t={t} cells={stats.by_horizon_action} />
            </div>
          </div>
          <p className="text-xs text-muted">{t.statsNote}</p>
        </div>
      )}
    </Panel>
  );
}
