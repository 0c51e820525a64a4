import { fmt } from "@/components/settings/format";
import type { TScoreFactor, TStructureCell } from "@/lib/analysis/engine/schemas";
import type { Dictionary } from "@/lib/i18n/dictionaries/types";

type Texts = Dictionary["analyzeUi"];

function signed(value: number): string {
  return `${value > 0 ? "+" : ""}${value.toFixed(2)}`;
}

// Where a report's score comes from, from what the report stored: the rules-table cell that set the score and
// the action, then the factor readings, which are evidence beside it and not its parts.
export function ScoreBreakdown({
  t,
  score,
  action,
  cell,
  factors,
}: {
  t: Texts;
  score: number | null;
  action: string;
  cell: TStructureCell | null;
  factors: readonly TScoreFactor[] | null;
}) {
  if (score === null || (!cell && !factors?.length)) return null;
  const tp = t.scoreParts;
  return (
    <details data-testid="score-breakdown" className="mt-2 text-xs" open>
      <summary className="cursor-pointer font-medium text-muted">{tp.title}</summary>
      <p data-testid="score-cell" className="mt-1 leading-5">
        {cell
          ? fmt(tp.fromCell, {
              score,
              table: tp.tables[cell.table],
              regime: tp.regimes[cell.regime],
              band: tp.bands[cell.band],
              stretch: signed(cell.extension_atr),
              action,
            })
          : tp.noCell}
      </p>
      {factors?.length ? (
        <>
          <p className="mt-1.5 text-muted">{tp.factorsIntro}</p>
          <ul className="mt-1 grid grid-cols-2 gap-x-3 gap-y-0.5 tabular-nums sm:grid-cols-3">
            {factors.map((f) => (
              <li
                key={f.factor}
                data-testid="score-factor"
                data-factor={f.factor}
                className="flex justify-between gap-2"
              >
                <span className="text-muted">{tp.factors[f.factor]}</span>
                <span>{f.points === null ? tp.notScored : `${f.points}/${f.max}`}</span>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </details>
  );
}
