import { formatSignedPct } from "@/components/history/format";
import { fmt } from "@/components/settings/format";
import { cx } from "@/components/ui/cx";
import type { TBacktestSummary, TSideStats } from "@/lib/backtest/schemas";
import type { Dictionary } from "@/lib/i18n/dictionaries/types";
import { RobustTable } from "./robust-table";

type Texts = Dictionary["backtestUi"];

const pct = (v: number | null) => (v === null ? "—" : `${v.toFixed(1)}%`);

function Row({ label, s, strong }: { label: string; s: TSideStats; strong?: boolean }) {
  return (
    <tr className={cx("border-b border-line/60", strong && "font-medium")}>
      <th scope="row" className="py-1 pr-3 text-left font-normal">
        {label}
      </th>
      <td className="py-1 pr-3 text-right">{s.count}</td>
      <td className="py-1 pr-3 text-right">{s.hit}</td>
      <td className="py-1 pr-3 text-right">{s.miss}</td>
      <td className="py-1 pr-3 text-right">{s.neutral}</td>
      <td className="py-1 pr-3 text-right">{pct(s.hit_rate_pct)}</td>
      <td className="py-1 pr-3 text-right">{formatSignedPct(s.mean_return_pct)}</td>
      <td className="py-1 pr-3 text-right">{formatSignedPct(s.median_return_pct)}</td>
    </tr>
  );
}

/** Equity figures, then one table per horizon: every action, both sides and all calls (docs/api.md §11 summary). */
export function SummaryTables({
  t,
  summary,
  actionLabels,
}: {
  t: Texts;
  summary: TBacktestSummary;
  actionLabels: Readonly<Record<string, string>>;
}) {
  const e = summary.equity;
  return (
    <div className="space-y-4">
      {e ? (
        <dl className="grid grid-cols-2 gap-2 sm:grid-cols-5" data-testid="equity-figures">
          {[
            [`${t.strategy} · ${t.totalReturn}`, formatSignedPct(e.strategy_return_pct)],
            [`${t.buyHold} · ${t.totalReturn}`, formatSignedPct(e.buy_hold_return_pct)],
            [`${t.strategy} · ${t.maxDrawdown}`, formatSignedPct(e.strategy_max_drawdown_pct)],
            [`${t.buyHold} · ${t.maxDrawdown}`, formatSignedPct(e.buy_hold_max_drawdown_pct)],
            [t.exposure, pct(e.exposure_pct)],
          ].map(([label, value]) => (
            <div key={label} className="rounded-md border border-line px-3 py-2">
              <dt className="text-xs text-muted">{label}</dt>
              <dd className="text-base font-semibold tabular-nums">{value}</dd>
            </div>
          ))}
        </dl>
      ) : null}
      <h3 className="text-sm font-semibold">{t.actionsTitle}</h3>
      <div className="grid gap-4 xl:grid-cols-2">
        {summary.horizons.map((h) => (
          <div key={h.horizon} className="overflow-x-auto">
            <table className="w-full min-w-[34rem] text-sm tabular-nums" data-testid={`summary-${h.horizon}`}>
              <caption className="pb-1 text-left text-xs font-medium text-muted">
                {fmt(t.horizon, { horizon: h.horizon })}
              </caption>
              <thead className="text-xs text-muted">
                <tr className="border-b border-line">
                  <th scope="col" className="py-1 pr-3 text-left font-medium">
                    {t.colGroup}
                  </th>
                  <th scope="col" className="py-1 pr-3 text-right font-medium">
                    {t.colCount}
                  </th>
                  <th scope="col" className="py-1 pr-3 text-right font-medium">
                    {t.colHit}
                  </th>
                  <th scope="col" className="py-1 pr-3 text-right font-medium">
                    {t.colMiss}
                  </th>
                  <th scope="col" className="py-1 pr-3 text-right font-medium">
                    {t.colNeutral}
                  </th>
                  <th scope="col" className="py-1 pr-3 text-right font-medium">
                    {t.colHitRate}
                  </th>
                  <th scope="col" className="py-1 pr-3 text-right font-medium">
                    {t.colMean}
                  </th>
                  <th scope="col" className="py-1 pr-3 text-right font-medium">
                    {t.colMedian}
                  </th>
                </tr>
              </thead>
              <tbody>
                {h.by_action.map((a) => (
                  <Row key={a.action} label={actionLabels[a.action] ?? a.action} s={a} />
                ))}
                <Row label={t.longSide} s={h.long_side} strong />
                <Row label={t.shortSide} s={h.short_side} strong />
                <tr className="font-medium">
                  <th scope="row" className="py-1 pr-3 text-left">
                    {t.allCalls}
                  </th>
                  <td className="py-1 pr-3 text-right">{h.all.count}</td>
                  <td colSpan={4} />
                  <td className="py-1 pr-3 text-right">{formatSignedPct(h.all.mean_return_pct)}</td>
                  <td />
                </tr>
              </tbody>
            </table>
          </div>
        ))}
      </div>
      {summary.horizons.some((h) => h.robust) ? (
        <>
          <h3 className="text-sm font-semibold">{t.robustTitle}</h3>
          <p className="text-xs text-muted">{t.robustHint}</p>
          <div className="grid gap-4 xl:grid-cols-2">
            {summary.horizons.map((h) =>
              h.robust ? (
                <RobustTable key={h.horizon} t={t} horizon={h.horizon} robust={h.robust} actionLabels={actionLabels} />
              ) : null,
            )}
          </div>
        </>
      ) : null}
    </div>
  );
}
