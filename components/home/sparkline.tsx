import { UP_TEXT, DOWN_TEXT } from "@/components/analysis/tone";
import { cx } from "@/components/ui/cx";

// A line of daily closes drawn as inline SVG (no client code): rising series in the "up" colour of the market
// convention, falling ones in the "down" colour.
export function Sparkline({ closes, label, width = 96, height = 28 }: { closes: readonly number[]; label: string; width?: number; height?: number }) {
  if (closes.length < 2) return <span className="inline-block text-xs text-muted" style={{ width }} aria-label={label}>–</span>;
  const min = Math.min(...closes);
  const max = Math.max(...closes);
  const span = max - min || 1;
  const step = width / (closes.length - 1);
  const points = closes.map((c, i) => `${(i * step).toFixed(1)},${(height - 2 - ((c - min) / span) * (height - 4)).toFixed(1)}`).join(" ");
  const rising = closes.at(-1)! >= closes[0]!;
  return (
    <svg role="img" aria-label={label} width={width} height={height} viewBox={`0 0 ${width} ${height}`} className={cx("overflow-visible", rising ? UP_TEXT : DOWN_TEXT)} data-testid="sparkline" data-points={closes.length}>
      <polyline points={points} fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinejoin="round" strokeLinecap="round" />
    </svg>
  );
}
