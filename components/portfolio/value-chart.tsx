import { DOWN_AREA, DOWN_STROKE } from "@/components/analysis/tone";
import { fmt } from "@/components/settings/format";
import type { TPortfolioRisk } from "@/lib/portfolio/risk-schema";
import { money, pct, type PortfolioTexts } from "./format";

// The portfolio's value over the lookback (drawdown.series) as an SVG line, with the drawdown of its
// time-weighted index below it as an area. Server-rendered: no chart package, and it scales with the panel.

const W = 600;
const VALUE_H = 150;
const DD_H = 50;

function points(values: readonly number[], min: number, max: number, height: number): string {
  const span = max - min || 1;
  const step = values.length > 1 ? W / (values.length - 1) : 0;
  return values
    .map((v, i) => `${(i * step).toFixed(2)},${(height - ((v - min) / span) * height).toFixed(2)}`)
    .join(" ");
}

/** Drawdown in % below the running peak of the time-weighted index, point by point. */
function drawdownPath(index: readonly number[]): number[] {
  const out: number[] = [];
  let peak = -Infinity;
  for (const value of index) {
    peak = Math.max(peak, value);
    out.push(peak > 0 ? ((peak - value) / peak) * 100 : 0);
  }
  return out;
}

export function ValueChart({ t, drawdown }: { t: PortfolioTexts; drawdown: TPortfolioRisk["drawdown"] }) {
  const series = drawdown.series;
  if (series.length < 2) {
    return (
      <p data-testid="risk-chart-empty" className="px-3 py-6 text-center text-sm text-muted">
        {t.chartEmpty}
      </p>
    );
  }
  const values = series.map((p) => p.value);
  const vMin = Math.min(...values);
  const vMax = Math.max(...values);
  const dd = drawdownPath(series.map((p) => p.index));
  const ddMax = Math.max(...dd, 0.0001);
  const ddLine = points(
    dd.map((v) => -v),
    -ddMax,
    0,
    DD_H,
  );
  const first = series[0]!;
  const last = series.at(-1)!;
  const label = fmt(t.chartAria, { points: series.length, maxdd: pct(drawdown.max_drawdown_pct) });
  return (
    <div className="px-3 pt-3 pb-2" data-testid="risk-chart" data-points={series.length}>
      <div className="flex items-baseline justify-between text-xs text-muted tabular-nums">
        <span>
          {t.chartValue} {money(vMax)}
        </span>
        <span data-testid="risk-chart-last">{money(last.value)}</span>
      </div>
      <svg
        role="img"
        aria-label={label}
        viewBox={`0 0 ${W} ${VALUE_H}`}
        preserveAspectRatio="none"
        className="mt-1 block h-36 w-full border-b border-line"
      >
        <title>{label}</title>
        <polyline
          points={`0,${VALUE_H} ${points(values, vMin, vMax, VALUE_H)} ${W},${VALUE_H}`}
          className="fill-accent/10 stroke-none"
        />
        <polyline
          points={points(values, vMin, vMax, VALUE_H)}
          fill="none"
          vectorEffect="non-scaling-stroke"
          strokeWidth="1.5"
          className="stroke-accent"
        />
      </svg>
      <div className="mt-0.5 flex items-baseline justify-between text-xs text-muted tabular-nums">
        <span>{money(vMin)}</span>
      </div>
      <div className="mt-2 flex items-baseline justify-between text-xs text-muted tabular-nums">
        <span>{t.chartDrawdown}</span>
        <span>-{pct(ddMax)}</span>
      </div>
      <svg
        aria-hidden="true"
        viewBox={`0 0 ${W} ${DD_H}`}
        preserveAspectRatio="none"
        className="mt-1 block h-12 w-full border-t border-line"
      >
        <polyline points={`0,0 ${ddLine} ${W},0`} className={`stroke-none ${DOWN_AREA}`} />
        <polyline
          points={ddLine}
          fill="none"
          vectorEffect="non-scaling-stroke"
          strokeWidth="1"
          className={DOWN_STROKE}
        />
      </svg>
      <div className="mt-1 flex justify-between text-xs text-muted tabular-nums">
        <span>{first.date}</span>
        <span>{last.date}</span>
      </div>
    </div>
  );
}
