import { formatSignedPct } from "@/components/history/format";
import { fmt } from "@/components/settings/format";
import type { TRobustSummary } from "@/lib/backtest/schemas";
import type { Dictionary } from "@/lib/i18n/dictionaries/types";

// One horizon's robust figures (docs/api.md §11): each action and side against the run's other calls, with the
// Newey-West interval and the interval of the non-overlapping calls alone, and the score's rank correlation.

type Texts = Dictionary["backtestUi"];

const interval = (low: number | null, high: number | null) =>
  low === null || high === null ? "—" : `[${formatSignedPct(low)}, ${formatSignedPct(high)}]`;
const num = (v: number | null | undefined, digits = 2) => (v === null || v === undefined ? "—" : v.toFixed(digits));

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
      className="overflow-x-auto focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-accent"
    >
      <table className="w-full min-w-[34rem] text-sm tabular-nums" data-testid={`robust-${horizon}`}>
        <caption className="pb-1 text-left text-xs font-medium text-muted">
          {fmt(t.robustCaption, { horizon, lags: robust.lags })}
        </caption>
        <thead className="text-xs text-muted">
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
        <tbody>
          {robust.rows.map((r) => (
            <tr key={r.group} data-group={r.group} className="border-b border-line/60">
              <th scope="row" className="py-1 pr-3 text-left font-normal">
                {groupLabel(t, actionLabels, r.group)}
              </th>
              <td className="py-1 pr-3 text-right">
                {r.count} ({r.independent})
              </td>
              <td className="py-1 pr-3 text-right">{formatSignedPct(r.excess_pct)}</td>
              <td className="py-1 pr-3 text-right">{interval(r.nw_low_pct, r.nw_high_pct)}</td>
              <td className="py-1 pr-3 text-right">{num(r.nw_t)}</td>
              <td className="py-1 pr-3 text-right">{interval(r.nonoverlap_low_pct, r.nonoverlap_high_pct)}</td>
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
