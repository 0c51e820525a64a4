"use client";

import { useEffect, useRef } from "react";
import {
  CandlestickSeries,
  ColorType,
  createChart,
  HistogramSeries,
  LineSeries,
  LineStyle,
  type AutoscaleInfoProvider,
  type DeepPartial,
  type IChartApi,
  type ChartOptions,
  type Time,
} from "lightweight-charts";
import { movingAverage, type ChartBar } from "./report-model";
import { documentPriceColors } from "./tone";

// Candle, volume and marker colours follow the user's price convention (red up in zh-CN by default,
// green up in en), read from the page's --price-up-chart / --price-down-chart variables when the chart is drawn.
export function candleOptions(): {
  upColor: string;
  downColor: string;
  borderUpColor: string;
  borderDownColor: string;
  wickUpColor: string;
  wickDownColor: string;
} {
  const { up, down } = documentPriceColors();
  return {
    upColor: up,
    downColor: down,
    borderUpColor: up,
    borderDownColor: down,
    wickUpColor: up,
    wickDownColor: down,
  };
}

/** "#rrggbb" with an alpha, as rgba() (the volume bars are translucent). */
export function withAlpha(hex: string, alpha: number): string {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex.trim());
  if (!m) return hex;
  return `rgba(${parseInt(m[1]!, 16)},${parseInt(m[2]!, 16)},${parseInt(m[3]!, 16)},${alpha})`;
}

export const MA_LINES = [
  { period: 5, color: "#f59e0b" },
  { period: 10, color: "#3b82f6" },
  { period: 20, color: "#a855f7" },
] as const;

// The chart draws on a canvas, so it takes its colours from the page's CSS variables (globals.css) and
// follows theme changes: the <html> class (explicit choice) and the system scheme.
/** A chart that shows a whole series at once: themed, no scrolling, zooming or crosshair, both edges fixed. */
export function staticChart(el: HTMLElement): IChartApi {
  return createChart(el, {
    autoSize: true,
    ...themeOptions(),
    handleScroll: false,
    handleScale: false,
    crosshair: { mode: 0 },
    timeScale: { ...themeOptions().timeScale, fixLeftEdge: true, fixRightEdge: true },
  });
}

export function themeOptions(): DeepPartial<ChartOptions> {
  const css = getComputedStyle(document.documentElement);
  const read = (name: string, fallback: string) => css.getPropertyValue(name).trim() || fallback;
  const line = read("--dsa-line", "#dfe2e7");
  return {
    layout: {
      background: { type: ColorType.Solid, color: read("--dsa-surface", "#ffffff") },
      textColor: read("--dsa-muted", "#5f6773"),
      fontFamily: getComputedStyle(document.body).fontFamily,
      fontSize: 11,
    },
    grid: { vertLines: { color: line }, horzLines: { color: line } },
    rightPriceScale: { borderColor: line },
    timeScale: { borderColor: line },
  };
}

/** Re-applies the theme colours when the page's theme changes; the returned cleanup also removes the chart. */
export function followTheme(chart: IChartApi): () => void {
  const retheme = () => chart.applyOptions(themeOptions());
  const observer = new MutationObserver(retheme);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ["class"] });
  const media = window.matchMedia("(prefers-color-scheme: dark)");
  media.addEventListener("change", retheme);
  return () => {
    observer.disconnect();
    media.removeEventListener("change", retheme);
    chart.remove();
  };
}

/** A key level drawn across the chart: buy levels in the "up" colour, stops in "down", targets amber. */
export interface ChartPriceLine {
  id: string;
  price: number;
  title: string;
  tone: "up" | "down" | "target";
}

// Amber 600, the take-profit level's colour (report-view.tsx shows its text in amber too).
const TARGET_LINE = "#d97706";

/** The candle series' own range, widened to every key level so none falls off the chart. */
function rangeWithLevels(prices: readonly number[]): AutoscaleInfoProvider {
  return (original) => {
    const info = original();
    if (!info?.priceRange || prices.length === 0) return info;
    return {
      ...info,
      priceRange: {
        minValue: Math.min(info.priceRange.minValue, ...prices),
        maxValue: Math.max(info.priceRange.maxValue, ...prices),
      },
    };
  };
}

export function PriceChart({
  bars,
  ariaLabel,
  priceLines = [],
  visible,
}: {
  bars: readonly ChartBar[];
  ariaLabel: string;
  priceLines?: readonly ChartPriceLine[];
  /** Sessions in view, the latest ones; all when absent. The moving averages are computed over every bar. */
  visible?: number;
}) {
  const container = useRef<HTMLDivElement>(null);
  // The effect redraws when the levels' values change, not when a parent re-render builds a new array.
  const linesKey = JSON.stringify(priceLines);

  useEffect(() => {
    const el = container.current;
    if (!el || bars.length === 0) return;
    const lines = JSON.parse(linesKey) as ChartPriceLine[];
    const chart = createChart(el, {
      autoSize: true,
      ...themeOptions(),
      rightPriceScale: { ...themeOptions().rightPriceScale, scaleMargins: { top: 0.08, bottom: 0.24 } },
      timeScale: { ...themeOptions().timeScale, fixLeftEdge: true, fixRightEdge: true },
      crosshair: { mode: 0 },
      // The crosshair's date carries its year: a range can span two.
      localization: { dateFormat: "yyyy-MM-dd" },
      handleScroll: false,
      handleScale: false,
    });

    const colors = candleOptions();
    const candles = chart.addSeries(CandlestickSeries, {
      ...colors,
      priceLineVisible: false,
      autoscaleInfoProvider: rangeWithLevels(lines.map((l) => l.price)),
    });
    candles.setData(
      bars.map((b) => ({ time: b.date as Time, open: b.open, high: b.high, low: b.low, close: b.close })),
    );
    const lineColor = { up: colors.upColor, down: colors.downColor, target: TARGET_LINE };
    for (const line of lines) {
      candles.createPriceLine({
        id: line.id,
        price: line.price,
        title: line.title,
        color: lineColor[line.tone],
        lineWidth: 1,
        lineStyle: LineStyle.Dashed,
        axisLabelVisible: true,
      });
    }
    // The canvas cannot be read back: the lines the chart holds are listed on its container (for tests and tools).
    el.dataset.priceLines = JSON.stringify(
      candles.priceLines().map((line) => {
        const { id, price, title } = line.options();
        return { id, price, title };
      }),
    );

    const volume = chart.addSeries(HistogramSeries, {
      priceScaleId: "volume",
      priceFormat: { type: "volume" },
      lastValueVisible: false,
      priceLineVisible: false,
    });
    chart.priceScale("volume").applyOptions({ scaleMargins: { top: 0.82, bottom: 0 } });
    volume.setData(
      bars.map((b, i) => {
        const up = b.close > b.open || (b.close === b.open && i > 0 && b.close >= bars[i - 1]!.close);
        return {
          time: b.date as Time,
          value: b.volume,
          color: withAlpha(up ? colors.upColor : colors.downColor, 0.45),
        };
      }),
    );

    for (const { period, color } of MA_LINES) {
      const values = movingAverage(bars, period);
      const series = chart.addSeries(LineSeries, {
        color,
        lineWidth: 1,
        priceLineVisible: false,
        lastValueVisible: false,
        crosshairMarkerVisible: false,
        title: `MA${period}`,
      });
      series.setData(bars.flatMap((b, i) => (values[i] === null ? [] : [{ time: b.date as Time, value: values[i]! }])));
    }
    const shown = visible && visible < bars.length ? visible : bars.length;
    if (shown < bars.length)
      chart.timeScale().setVisibleLogicalRange({ from: bars.length - shown, to: bars.length - 1 });
    else chart.timeScale().fitContent();
    el.dataset.bars = String(bars.length);
    el.dataset.visible = String(shown);

    const stopFollowing = followTheme(chart);
    return () => {
      delete el.dataset.priceLines;
      stopFollowing();
    };
  }, [bars, linesKey, visible]);

  return (
    <div
      ref={container}
      role="figure"
      aria-label={ariaLabel}
      data-testid="price-chart"
      className="h-72 w-full sm:h-80"
    />
  );
}
