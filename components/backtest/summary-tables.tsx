import { formatSignedPct } from "@/components/history/format";
import { fmt } from "@/components/settings/format";
import { cx } from "@/components/ui/cx";
import { CARD, CARD_BLOCK, CARD_GRID, CARD_HEAD, CARD_HIDDEN, FULL, LABELLED } from "@/components/ui/table-cards";
import type { TBacktestSummary, TSideStats } from "@/lib/backtest/schemas";
import type { Dictionary } from "@/lib/i18n/dictionaries/types";
import { RobustTable } from "./robust-table";

type Texts = Dictionary["backtestUi"];

const pct = (v: number | null) => (v === null ? "—" : `${v.toFixed(1)}%`);

// On a phone each group is a card: its name, then its figures labelled, four a line.
const ROW_CARD = cx(CARD_GRID, "max-sm:grid-cols-4");
const GROUP = cx("py-1 pr-3 text-left", CARD, FULL);
const FIGURE = cx("py-1 pr-3 text-right", LABELLED);

function Row({ t, label, s, strong }: { t: Texts; label: string; s: TSideStats; strong?: boolean }) {
  return (
    <tr className={cx(ROW_CARD, "border-b border-line/60", strong && "font-medium")}>
      <th scope="row" className={cx(GROUP, "font-normal", strong && "max-sm:font-medium")}>
        {label}
      </th>
      <td className={FIGURE} data-label={t.colCount}>
        {s.count}
      </td>
      <td className={FIGURE} data-label={t.colHit}>
        {s.hit}
      </td>
      <td className={FIGURE} data-label={t.colMiss}>
        {s.miss}
      </td>
      <td className={FIGURE} data-label={t.colNeutral}>
        {s.neutral}
      </td>
      <td className={FIGURE} data-label={t.colHitRate}>
        {pct(s.hit_rate_pct)}
      </td>
      <td className={FIGURE} data-label={t.colMean}>
        {formatSignedPct(s.mean_return_pct)}
      </td>
      <td className={FIGURE} data-label={t.colMedian}>
        {formatSignedPct(s.median_return_pct)}
      </td>
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
          <div key={h.horizon} className="sm:overflow-x-auto">
            <table
              className={cx("w-full text-sm tabular-nums sm:min-w-[34rem]", CARD_BLOCK)}
              data-testid={`summary-${h.horizon}`}
            >
              <caption className={cx("pb-1 text-left text-xs font-medium text-muted", CARD_BLOCK)}>
                {fmt(t.horizon, { horizon: h.horizon })}
              </caption>
              <thead className={cx("text-xs text-muted", CARD_HEAD)}>
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
              <tbody className={CARD_BLOCK}>
                {h.by_action.map((a) => (
                  <Row key={a.action} t={t} label={actionLabels[a.action] ?? a.action} s={a} />
                ))}
                <Row t={t} label={t.longSide} s={h.long_side} strong />
                <Row t={t} label={t.shortSide} s={h.short_side} strong />
                <tr className={cx(ROW_CARD, "font-medium")}>
                  <th scope="row" className={GROUP}>
                    {t.allCalls}
                  </th>
                  <td className={FIGURE} data-label={t.colCount}>
                    {h.all.count}
                  </td>
                  <td colSpan={4} className={CARD_HIDDEN} />
                  <td className={FIGURE} data-label={t.colMean}>
                    {formatSignedPct(h.all.mean_return_pct)}
                  </td>
                  <td className={CARD_HIDDEN} />
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
