import { describe, expect, it } from "vitest";
import type { TDailyBar } from "@/lib/market";
import { applyStrategy, reasonText } from "./evaluate";
import { computeMetrics, METRIC_BARS } from "./metrics";
import { BUILT_IN_STRATEGIES, findBuiltInStrategy } from "./strategies";

function bar(i: number, close: number, volume = 1000, high = close): TDailyBar {
  const date = new Date(Date.UTC(2024, 0, 1) + i * 86_400_000).toISOString().slice(0, 10);
  return {
    date,
    open: close,
    high,
    low: close,
    close,
    volume,
    amount: close * volume,
    turnover_rate: null,
    source: "csv",
  };
}

/** A steady rise of 0.1 a session from 100, then the given last bars. */
function series(n: number, tail: Partial<TDailyBar>[] = []): TDailyBar[] {
  const bars = Array.from({ length: n }, (_, i) => bar(i, 100 + i * 0.1));
  tail.forEach((t, k) => {
    const i = n - tail.length + k;
    bars[i] = { ...bars[i]!, ...t };
  });
  return bars;
}

describe("screening figures", () => {
  it("each figure is the bars' own arithmetic", () => {
    const bars = series(METRIC_BARS, [{ close: 150, high: 150, volume: 5000 }]);
    const m = computeMetrics(bars, null);
    const closes = bars.map((b) => b.close);
    const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
    expect(m.close).toBe(150);
    expect(m.change_pct).toBeCloseTo((150 / closes.at(-2)! - 1) * 100, 2);
    expect(m.ret_20d_pct).toBeCloseTo((150 / closes.at(-21)! - 1) * 100, 2);
    expect(m.ma20).toBeCloseTo(mean(closes.slice(-20)), 4);
    expect(m.ma60).toBeCloseTo(mean(closes.slice(-60)), 4);
    expect(m.volume_ratio).toBe(5);
    expect(m.high_52w).toBe(Math.max(...bars.slice(-251, -1).map((b) => b.high)));
    expect(m.close_vs_high_52w_pct).toBeGreaterThan(0);
    expect(m.breakout_20d_pct).toBeCloseTo((150 / Math.max(...bars.slice(-21, -1).map((b) => b.high)) - 1) * 100, 2);
    expect(m.excess_ret_60d_pct).toBeNull();
  });

  it("a history too short for a figure leaves it null, and a filter on it fails", () => {
    const m = computeMetrics(series(30), null);
    expect(m.ma60).toBeNull();
    expect(m.high_52w).toBeNull();
    const strategy = findBuiltInStrategy("new_high_52w")!;
    const out = applyStrategy(
      strategy,
      [
        {
          code: "X",
          name: null,
          market: "cn",
          metrics: m,
          lastBarDate: "2024-01-30",
          barsSource: "csv",
          stale: false,
          closes: [],
        },
      ],
      10,
      "en",
    );
    expect(out).toEqual({ afterFilter: 0, candidates: [] });
  });

  it("relative strength is the return above the benchmark's over the same 60 sessions", () => {
    const bars = series(100);
    const flat = Array.from({ length: 100 }, (_, i) => bar(i, 50));
    const m = computeMetrics(bars, flat);
    expect(m.excess_ret_60d_pct).toBe(m.ret_60d_pct);
  });

  it("sessions since MA5 crossed above MA20", () => {
    const falling = Array.from({ length: 40 }, (_, i) => bar(i, 100 - i * 0.5));
    const jump = [...falling, bar(40, 120), bar(41, 121)];
    expect(computeMetrics(falling, null).ma5_cross_ma20_days).toBeNull();
    const days = computeMetrics(jump, null).ma5_cross_ma20_days;
    expect(days === 0 || days === 1).toBe(true);
  });

  it("candidates pass every filter, rank by the ranking metric and give one reason per filter with its figure", () => {
    const strategy = findBuiltInStrategy("volume_surge")!;
    const stock = (code: string, ratio: number | null) => ({
      code,
      name: code,
      market: "cn" as const,
      metrics: { ...computeMetrics(series(30), null), volume_ratio: ratio },
      lastBarDate: "2024-01-30",
      barsSource: "csv",
      stale: false,
      closes: [],
    });
    const out = applyStrategy(strategy, [stock("A", 3.5), stock("B", 2.9), stock("C", 6), stock("D", null)], 10, "en");
    expect(out.afterFilter).toBe(2);
    expect(out.candidates.map((c) => [c.code, c.rank, c.score])).toEqual([
      ["C", 1, 6],
      ["A", 2, 3.5],
    ]);
    expect(out.candidates[0]!.reasons).toEqual(["Volume vs 5-day average 6 ≥ 3"]);
    expect(reasonText({ metric: "rsi14", op: "lte", value: 30 }, 27.314, "zh")).toBe("RSI(14) 27.31 ≤ 30");
  });

  it("at least eight built-in strategies, each with both languages", () => {
    expect(BUILT_IN_STRATEGIES.length).toBeGreaterThanOrEqual(8);
    for (const s of BUILT_IN_STRATEGIES) expect(s.description.zh && s.description.en).toBeTruthy();
  });
});
