"use client";

import { useState } from "react";
import { fmt } from "@/components/settings/format";
import { PriceChart, type ChartPriceLine } from "./price-chart";
import { RadioSegments } from "./radio-segments";
import type { ChartBar } from "./report-model";

/** Sessions per range: about a month and a quarter of trading days; "all" is every bar the report stored. */
const RANGES = { m1: 22, m3: 66, all: Infinity } as const;
type Range = keyof typeof RANGES;

// The report's chart with a range switch and the dates it spans, years included.
export function ChartRange({
  bars,
  priceLines,
  texts,
}: {
  bars: readonly ChartBar[];
  priceLines: readonly ChartPriceLine[];
  texts: { range: string; ranges: Record<Range, string>; span: string; aria: string };
}) {
  const [range, setRange] = useState<Range>("m3");
  const count = Math.min(RANGES[range], bars.length);
  const first = bars[bars.length - count]?.date ?? "";
  const last = bars.at(-1)?.date ?? "";
  return (
    <>
      <div className="flex flex-wrap items-end justify-between gap-2 px-2 pb-1">
        <RadioSegments
          name="chart_range"
          label={texts.range}
          value={range}
          onChange={setRange}
          options={(Object.keys(RANGES) as Range[]).map((value) => ({ value, label: texts.ranges[value] }))}
        />
        <span data-testid="chart-span" className="text-xs text-muted tabular-nums">
          {fmt(texts.span, { first, last, count })}
        </span>
      </div>
      <PriceChart bars={bars} visible={count} ariaLabel={fmt(texts.aria, { count })} priceLines={priceLines} />
    </>
  );
}
