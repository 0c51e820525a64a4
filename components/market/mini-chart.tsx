import { directionText } from "@/components/analysis/tone";
import { cx } from "@/components/ui/cx";

const WIDTH = 120;
const HEIGHT = 32;
const PAD = 2;

/** The polyline's points: closes scaled into the WIDTH × HEIGHT box, the lowest close at the bottom. */
function miniChartPoints(closes: readonly number[]): string {
  const min = Math.min(...closes);
  const max = Math.max(...closes);
  const span = max - min || 1;
  const step = (WIDTH - 2 * PAD) / Math.max(1, closes.length - 1);
  return closes
    .map(
      (close, i) =>
        `${(PAD + i * step).toFixed(1)},${(HEIGHT - PAD - ((close - min) / span) * (HEIGHT - 2 * PAD)).toFixed(1)}`,
    )
    .join(" ");
}

/**
 * A line of daily closes as inline SVG, drawn on the server (no client code). It stretches to its box; the stroke
 * keeps its width. Coloured by the market convention: a window that ends higher than it began takes the "up" colour.
 */
export function MiniChart({
  closes,
  label,
  className,
}: {
  closes: readonly number[];
  label: string;
  className?: string;
}) {
  if (closes.length < 2) return null;
  const direction = closes.at(-1)! > closes[0]! ? "up" : closes.at(-1)! < closes[0]! ? "down" : "flat";
  return (
    <svg
      role="img"
      aria-label={label}
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      preserveAspectRatio="none"
      className={cx("block h-8 w-full", directionText(direction), className)}
      data-testid="index-chart"
      data-points={closes.length}
    >
      <polyline
        points={miniChartPoints(closes)}
        fill="none"
        stroke="currentColor"
        strokeWidth="1.5"
        strokeLinejoin="round"
        strokeLinecap="round"
        vectorEffect="non-scaling-stroke"
      />
    </svg>
  );
}
