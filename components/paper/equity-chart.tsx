"use client";

import { useEffect, useRef } from "react";
import { createChart, LineSeries, type Time } from "lightweight-charts";
import { followTheme, themeOptions } from "@/components/analysis/price-chart";

// The account's equity at each session's close (lightweight-charts).
const FIXED = { handleScroll: false, handleScale: false, crosshair: { mode: 0 } } as const;

export function PaperEquityChart({
  points,
  ariaLabel,
}: {
  points: readonly { session: string; equity: number }[];
  ariaLabel: string;
}) {
  const container = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = container.current;
    if (!el || points.length === 0) return;
    const chart = createChart(el, {
      autoSize: true,
      ...themeOptions(),
      ...FIXED,
      timeScale: { ...themeOptions().timeScale, fixLeftEdge: true, fixRightEdge: true },
    });
    const line = chart.addSeries(LineSeries, { color: "#2563eb", lineWidth: 2, priceLineVisible: false });
    line.setData(points.map((p) => ({ time: p.session as Time, value: p.equity })));
    chart.timeScale().fitContent();
    return followTheme(chart);
  }, [points]);
  return (
    <div
      ref={container}
      role="figure"
      aria-label={ariaLabel}
      data-testid="paper-equity-chart"
      data-points={points.length}
      className="h-56 w-full"
    />
  );
}
