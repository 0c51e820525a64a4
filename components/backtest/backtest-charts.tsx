"use client";

import { useEffect, useRef } from "react";
import { CandlestickSeries, createSeriesMarkers, LineSeries, type SeriesMarker, type Time } from "lightweight-charts";
import { candleOptions, followTheme, staticChart } from "@/components/analysis/price-chart";
import { directionText } from "@/components/analysis/tone";
import type { TBacktestCall, TSeriesPoint } from "@/lib/backtest/schemas";

// The Backtest page's two charts (lightweight-charts): equity of following the calls against
// buy-and-hold, and the candles with a marker on every directional call. Watch calls get no marker: on a
// daily chart they would cover every candle and hide the calls that matter.

const STRATEGY_COLOR = "#2563eb";
const BUY_HOLD_COLOR = "#9ca3af";
const LONG = new Set(["buy", "add"]);
const SHORT = new Set(["reduce", "sell", "avoid"]);

export function EquityChart({
  points,
  labels,
  ariaLabel,
}: {
  points: readonly TSeriesPoint[];
  labels: { strategy: string; buyHold: string };
  ariaLabel: string;
}) {
  const container = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = container.current;
    if (!el || points.length === 0) return;
    const chart = staticChart(el);
    const format = { type: "custom" as const, formatter: (v: number) => `${((v - 1) * 100).toFixed(1)}%` };
    const buyHold = chart.addSeries(LineSeries, {
      color: BUY_HOLD_COLOR,
      lineWidth: 1,
      priceLineVisible: false,
      title: labels.buyHold,
      priceFormat: format,
    });
    buyHold.setData(points.map((p) => ({ time: p.date as Time, value: p.buy_hold_equity })));
    const strategy = chart.addSeries(LineSeries, {
      color: STRATEGY_COLOR,
      lineWidth: 2,
      priceLineVisible: false,
      title: labels.strategy,
      priceFormat: format,
    });
    strategy.setData(points.map((p) => ({ time: p.date as Time, value: p.strategy_equity })));
    chart.timeScale().fitContent();
    return followTheme(chart);
  }, [points, labels.strategy, labels.buyHold]);
  return (
    <div ref={container} role="figure" aria-label={ariaLabel} data-testid="equity-chart" className="h-64 w-full" />
  );
}

/** More markers than this are drawn as bare arrows: 2,000 overlapping words read as noise. */
const MAX_LABELLED_MARKERS = 40;

export function CallsChart({
  points,
  calls,
  actionLabels,
  ariaLabel,
  legend,
}: {
  points: readonly TSeriesPoint[];
  calls: readonly Pick<TBacktestCall, "date" | "action">[];
  actionLabels: Readonly<Record<string, string>>;
  ariaLabel: string;
  /** What the arrows mean: a run of long calls starts at ▲, a run of short-side calls at ▼. */
  legend: { long: string; short: string };
}) {
  const container = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = container.current;
    if (!el || points.length === 0) return;
    const chart = staticChart(el);
    // Candles and call markers in the user's price colours: long calls take "up", short calls "down".
    const colors = candleOptions();
    const candles = chart.addSeries(CandlestickSeries, { ...colors, priceLineVisible: false });
    candles.setData(
      points.map((p) => ({ time: p.date as Time, open: p.open, high: p.high, low: p.low, close: p.close })),
    );
    const markers: SeriesMarker<Time>[] = [];
    let previous: string | null = null;
    for (const call of calls) {
      // One marker where the side changes: a run of daily buy calls is one decision, not fifty.
      const side = LONG.has(call.action) ? "long" : SHORT.has(call.action) ? "short" : null;
      if (side && side !== previous) {
        markers.push(
          side === "long"
            ? {
                time: call.date as Time,
                position: "belowBar",
                shape: "arrowUp",
                color: colors.upColor,
                text: actionLabels[call.action] ?? call.action,
              }
            : {
                time: call.date as Time,
                position: "aboveBar",
                shape: "arrowDown",
                color: colors.downColor,
                text: actionLabels[call.action] ?? call.action,
              },
        );
      }
      previous = side ?? (previous === null ? null : "none");
    }
    // Words only while they can be read: past a few dozen markers the arrows alone carry the side (legend below).
    const labelled = markers.length <= MAX_LABELLED_MARKERS;
    createSeriesMarkers(candles, labelled ? markers : markers.map((m) => ({ ...m, text: undefined })));
    el.dataset.markers = String(markers.length);
    el.dataset.labelled = String(labelled ? markers.length : 0);
    chart.timeScale().fitContent();
    return followTheme(chart);
  }, [points, calls, actionLabels]);
  return (
    <>
      <div ref={container} role="figure" aria-label={ariaLabel} data-testid="calls-chart" className="h-72 w-full" />
      <p data-testid="calls-legend" className="mt-1 flex gap-3 text-xs text-muted">
        <span>
          <span className={directionText("up")}>▲</span> {legend.long}
        </span>
        <span>
          <span className={directionText("down")}>▼</span> {legend.short}
        </span>
      </p>
    </>
  );
}
