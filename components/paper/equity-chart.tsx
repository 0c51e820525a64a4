"use client";

import { useEffect, useRef } from "react";
import { LineSeries, type Time } from "lightweight-charts";
import { followTheme, staticChart } from "@/components/analysis/price-chart";

// The account's equity at each session's close, and the market's index from the same start (lightweight-charts).
export function PaperEquityChart({
  points,
  benchmark,
  labels,
  ariaLabel,
}: {
  points: readonly { session: string; equity: number }[];
  /** The market's index scaled to the account's first close; null when its bars are missing. */
  benchmark: readonly { session: string; value: number }[] | null;
  labels: { equity: string; benchmark: string };
  ariaLabel: string;
}) {
  const container = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = container.current;
    if (!el || points.length === 0) return;
    const chart = staticChart(el);
    if (benchmark) {
      const index = chart.addSeries(LineSeries, {
        color: "#9ca3af",
        lineWidth: 1,
        priceLineVisible: false,
        title: labels.benchmark,
      });
      index.setData(benchmark.map((p) => ({ time: p.session as Time, value: p.value })));
    }
    const line = chart.addSeries(LineSeries, {
      color: "#2563eb",
      lineWidth: 2,
      priceLineVisible: false,
      title: labels.equity,
    });
    line.setData(points.map((p) => ({ time: p.session as Time, value: p.equity })));
    chart.timeScale().fitContent();
    return followTheme(chart);
  }, [points, benchmark, labels.equity, labels.benchmark]);
  return (
    <div
      ref={container}
      role="figure"
      aria-label={ariaLabel}
      data-testid="paper-equity-chart"
      data-points={points.length}
      data-benchmark={benchmark ? benchmark.length : 0}
      className="h-56 w-full"
    />
  );
}
