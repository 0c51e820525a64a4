import { direction } from "@/components/analysis/report-model";
import { directionText } from "@/components/analysis/tone";
import { fmt } from "@/components/settings/format";
import { cx } from "@/components/ui/cx";
import type { StockTrend as TStockTrend, StockTrendPoint } from "@/lib/history/trend";
import type { Dictionary } from "@/lib/i18n/dictionaries/types";
import { formatDateTime, formatPrice, formatSignedPct } from "./format";

type Texts = Dictionary["historyUi"];

const W = 168;
const H = 40;
const PAD = 4;

function priceText(value: number | null): string {
  return formatPrice(value, value !== null && Math.abs(value) < 1 ? 3 : 2);
}

function signedInt(value: number | null): string {
  if (value === null) return "—";
  return value > 0 ? `+${value}` : String(value);
}

/** x of point i of n, spread over the width (one point sits in the middle). */
function xOf(i: number, n: number): number {
  return n <= 1 ? W / 2 : PAD + (i * (W - 2 * PAD)) / (n - 1);
}

/** A series scaled into the box: the score on its fixed 0–100 scale, the price between its own low and high. */
function yScale(values: readonly (number | null)[], fixed?: { min: number; max: number }): (v: number) => number {
  const known = values.filter((v): v is number => v !== null);
  const min = fixed?.min ?? Math.min(...known);
  const max = fixed?.max ?? Math.max(...known);
  const span = max - min;
  return (v) => (span > 0 ? PAD + ((max - v) * (H - 2 * PAD)) / span : H / 2);
}

function Series({
  points,
  values,
  scale,
  className,
  testId,
}: {
  points: readonly StockTrendPoint[];
  values: readonly (number | null)[];
  scale: (v: number) => number;
  className: string;
  testId: string;
}) {
  const placed = values.flatMap((v, i) =>
    v === null ? [] : [{ x: xOf(i, points.length), y: scale(v), id: points[i]!.id, value: v }],
  );
  return (
    <g className={className} data-testid={testId}>
      {placed.length > 1 ? (
        <polyline
          points={placed.map((p) => `${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(" ")}
          fill="none"
          stroke="currentColor"
          strokeWidth={1.5}
          strokeLinejoin="round"
        />
      ) : null}
      {placed.map((p) => (
        <circle key={p.id} cx={p.x} cy={p.y} r={2} fill="currentColor" />
      ))}
    </g>
  );
}

/**
 * The stock's score and price over its reports up to this one (oldest → newest), with the change since
 * the report before it. Drawn as two small lines (score on 0–100, price on its own range) beside the headline.
 */
export function StockTrend({ t, trend, zone }: { t: Texts; trend: TStockTrend; zone: string }) {
  const { points, change } = trend;
  if (points.length === 0) return null;
  const scores = points.map((p) => p.sentiment_score);
  const prices = points.map((p) => p.current_price);
  const hasPrices = prices.some((p) => p !== null);
  const label = fmt(t.trendAria, { count: points.length });
  return (
    <div
      data-testid="stock-trend"
      data-points={points.length}
      className="flex flex-wrap items-center gap-x-4 gap-y-1.5"
    >
      <div className="flex items-center gap-2">
        <svg
          role="img"
          aria-label={label}
          viewBox={`0 0 ${W} ${H}`}
          width={W}
          height={H}
          className="shrink-0 overflow-visible"
        >
          <title>
            {points
              .map((p) =>
                fmt(t.trendPoint, {
                  id: p.id,
                  time: formatDateTime(p.created_at, zone),
                  score: p.sentiment_score ?? "—",
                  price: priceText(p.current_price),
                }),
              )
              .join("\n")}
          </title>
          {hasPrices ? (
            <Series
              points={points}
              values={prices}
              scale={yScale(prices)}
              className="text-muted"
              testId="trend-price"
            />
          ) : null}
          <Series
            points={points}
            values={scores}
            scale={yScale(scores, { min: 0, max: 100 })}
            className="text-accent"
            testId="trend-score"
          />
        </svg>
        <div className="text-[11px] leading-4 text-muted">
          <div className="font-medium text-fg">{t.trendTitle}</div>
          <div className="flex gap-2">
            <span className="inline-flex items-center gap-1">
              <span aria-hidden="true" className="inline-block h-0.5 w-3 bg-accent" />
              {t.trendScore}
            </span>
            {hasPrices ? (
              <span className="inline-flex items-center gap-1">
                <span aria-hidden="true" className="inline-block h-0.5 w-3 bg-muted" />
                {t.trendPrice}
              </span>
            ) : null}
          </div>
        </div>
      </div>
      {change ? (
        <dl
          data-testid="trend-change"
          data-previous-id={change.previous_id}
          className="flex flex-wrap items-baseline gap-x-3 gap-y-0.5 text-xs"
        >
          <dt className="text-muted">{fmt(t.trendChange, { id: change.previous_id })}</dt>
          <dd className="flex gap-1">
            <span className="text-muted">{t.trendScore}</span>
            <span
              data-testid="trend-score-delta"
              className={cx("font-semibold tabular-nums", directionText(direction(change.score_delta)))}
            >
              {signedInt(change.score_delta)}
            </span>
          </dd>
          <dd className="flex gap-1">
            <span className="text-muted">{t.trendPrice}</span>
            <span
              data-testid="trend-price-change"
              className={cx("font-semibold tabular-nums", directionText(direction(change.price_change_pct)))}
            >
              {formatSignedPct(change.price_change_pct)}
            </span>
          </dd>
        </dl>
      ) : (
        <p data-testid="trend-first" className="text-xs text-muted">
          {t.trendFirst}
        </p>
      )}
      {trend.other_sources > 0 ? (
        <p data-testid="trend-other-sources" className="text-xs text-muted">
          {fmt(t.trendOtherSources, { count: trend.other_sources })}
        </p>
      ) : null}
    </div>
  );
}
