import { describe, expect, it } from "vitest";
import type { TDecisionAction } from "@/lib/analysis/engine/schemas";
import { barsFromCloses } from "@/tests/kits/test-bars";
import type { JudgedCall } from "./judge";
import { summarize } from "./summary";
import { summaryCsv } from "./summary-csv";

// The backtest summary's robust figures (docs/api.md §11): per action and side, the excess over the run's other calls
// with a Newey-West and a non-overlapping interval, and the score's rank correlation, on constructed calls.

/** 200 daily calls: buy on every other 20-day block returning +3 % ± 1, watch otherwise ± 1 (noise averaging 0 per block). */
function calls(): JudgedCall[] {
  return Array.from({ length: 200 }, (_, i) => {
    const buy = Math.floor(i / 20) % 2 === 0;
    const noise = [1, -1, -1, 1][i % 4]!;
    const action: TDecisionAction = buy ? "buy" : "watch";
    return {
      index: i,
      date: `d${String(i).padStart(3, "0")}`,
      close: 100,
      action,
      score: buy ? 70 : 40,
      ideal_buy: null,
      stop_loss: null,
      take_profit: null,
      outcomes: [{ horizon: 10, return_pct: (buy ? 3 : 0) + noise, outcome: null }],
    };
  });
}

describe("robust backtest summary", () => {
  const bars = barsFromCloses(Array.from({ length: 200 }, () => 100));
  const { summary } = summarize(calls(), bars, [10]);
  const robust = summary.horizons[0]!.robust!;
  const row = (group: string) => robust.rows.find((r) => r.group === group)!;

  it("per action and side: the excess over the run's other calls, with both intervals around it", () => {
    expect(robust.lags).toBe(9);
    const buy = row("buy");
    expect(buy).toMatchObject({ count: 100, independent: 10 });
    expect(buy.excess_pct).toBeCloseTo(3, 10);
    expect(buy.nw_low_pct!).toBeLessThan(3);
    expect(buy.nw_high_pct!).toBeGreaterThan(3);
    expect(buy.nonoverlap_low_pct!).toBeLessThan(buy.nonoverlap_high_pct!);
    // The long side is buy here; watch is the mirror image.
    expect(row("long_side").excess_pct).toBeCloseTo(3, 10);
    expect(row("watch").excess_pct).toBeCloseTo(-3, 10);
    // No short-side call: nothing to compare.
    expect(row("short_side")).toMatchObject({ count: 0, excess_pct: null, nw_t: null });
  });

  it("the score's rank correlation with the forward return is positive when high scores precede higher returns", () => {
    expect(robust.score_rank!.count).toBe(200);
    expect(robust.score_rank!.rho).toBeGreaterThan(0.8);
    expect(robust.score_rank!.nw_t!).toBeGreaterThan(3);
  });

  it("the summary CSV carries the plain and the robust figures per horizon and group", () => {
    const lines = summaryCsv(summary).trim().split("\n");
    expect(lines[0]).toBe(
      "horizon,group,count,hit,miss,neutral,hit_rate_pct,mean_return_pct,median_return_pct,independent,excess_pct,nw_low_pct,nw_high_pct,nw_t,nonoverlap_low_pct,nonoverlap_high_pct",
    );
    const buy = lines.find((l) => l.startsWith("10,buy,"))!.split(",");
    expect(Number(buy[2])).toBe(100);
    expect(Number(buy[9])).toBe(10);
    expect(Number(buy[10])).toBeCloseTo(3, 10);
    expect(lines.some((l) => l.startsWith("10,all,200,"))).toBe(true);
    expect(lines.some((l) => l.startsWith("10,score_rank_rho,200,"))).toBe(true);
  });
});
