import { formatSignedPct } from "@/components/history/format";
import { fmt } from "@/components/settings/format";
import { cx } from "@/components/ui/cx";
import { CARD, CARD_BLOCK, CARD_HEAD, CARD_ROW, FULL, LABELLED } from "@/components/ui/table-cards";
import type { TRobustSummary } from "@/lib/backtest/schemas";
import type { Dictionary } from "@/lib/i18n/dictionaries/types";

// One horizon's robust figures (docs/api.md §11): each action and side against the run's other calls, with the
// Newey-West interval and the interval of the non-overlapping calls alone, and the score's rank correlation. On a
// phone each group is a card of its labelled figures, the non-overlap interval on a line of its own.

type Texts = Dictionary["backtestUi"];

const interval = (low: number | null, high: number | null) =>
  low === null || high === null ? "—" : `[${formatSignedPct(low)}, ${formatSignedPct(high)}]`;
const num = (v: number | null | undefined, digits = 2) => (v === null || v === undefined ? "—" : v.toFixed(digits));
const FIGURE = cx("py-1 pr-3 text-right", LABELLED);

export function groupLabel(t: Texts, actionLabels: Readonly<Record<string, string>>, group: string): string {
  if (group === "long_side") return t.longSide;
  if (group === "short_side") return t.shortSide;
  return actionLabels[group] ?? group;
}

export function RobustTable({
  t,
  horizon,
  robust,
  actionLabels,
}: {
  t: Texts;
  horizon: number;
  robust: TRobustSummary;
  actionLabels: Readonly<Record<string, string>>;
}) {
  const rank = robust.score_rank;
  return (
    <div
      role="region"
      aria-label={fmt(t.robustCaption, { horizon, lags: robust.lags })}
      tabIndex={0}
      className="focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-accent sm:overflow-x-auto"
    >
      <table
        className={cx("w-full text-sm tabular-nums sm:min-w-[34rem]", CARD_BLOCK)}
        data-testid={`robust-${horizon}`}
      >
        <caption className={cx("pb-1 text-left text-xs font-medium text-muted", CARD_BLOCK)}>
          {fmt(t.robustCaption, { horizon, lags: robust.lags })}
        </caption>
        <thead className={cx("text-xs text-muted", CARD_HEAD)}>
          <tr className="border-b border-line">
            <th scope="col" className="py-1 pr-3 text-left font-medium">
              {t.colGroup}
            </th>
            <th scope="col" className="py-1 pr-3 text-right font-medium">
              {t.colCountIndependent}
            </th>
            <th scope="col" className="py-1 pr-3 text-right font-medium">
              {t.colExcess}
            </th>
            <th scope="col" className="py-1 pr-3 text-right font-medium">
              {t.colNwInterval}
            </th>
            <th scope="col" className="py-1 pr-3 text-right font-medium">
              {t.colNwT}
            </th>
            <th scope="col" className="py-1 pr-3 text-right font-medium">
              {t.colNonOverlap}
            </th>
          </tr>
        </thead>
        <tbody className={CARD_BLOCK}>
          {robust.rows.map((r) => (
            <tr key={r.group} data-group={r.group} className={cx(CARD_ROW, "border-b border-line/60")}>
              <th scope="row" className={cx("py-1 pr-3 text-left font-normal", CARD, FULL, "max-sm:font-medium")}>
                {groupLabel(t, actionLabels, r.group)}
              </th>
              <td className={FIGURE} data-label={t.colCountIndependent}>
                {r.count} ({r.independent})
              </td>
              <td className={FIGURE} data-label={t.colExcess}>
                {formatSignedPct(r.excess_pct)}
              </td>
              <td className={FIGURE} data-label={t.colNwInterval}>
                {interval(r.nw_low_pct, r.nw_high_pct)}
              </td>
              <td className={FIGURE} data-label={t.colNwT}>
                {num(r.nw_t)}
              </td>
              <td className={cx(FIGURE, FULL)} data-label={t.colNonOverlap}>
                {interval(r.nonoverlap_low_pct, r.nonoverlap_high_pct)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="mt-1 text-xs text-muted" data-testid={`score-rank-${horizon}`}>
        {rank ? fmt(t.scoreRank, { rho: num(rank.rho, 3), count: rank.count, t: num(rank.nw_t) }) : t.scoreRankNone}
      </p>
    </div>
  );
}
