import { describe, expect, it } from "vitest";
import type { TDailyBar } from "@/lib/market";
import { classifyReturn, evaluateOutcome } from "./outcome-engine";

function bar(date: string, low: number, high: number, close: number): TDailyBar {
  return { date, open: close, high, low, close, volume: 1000, amount: null, turnover_rate: null, source: "sample" };
}

// Anchor Friday 2026-11-20 (close 100), then five sessions.
const BARS = [
  bar("2026-11-19", 97, 101, 99),
  bar("2026-11-20", 98, 101, 100),
  bar("2026-11-23", 99, 103, 102),
  bar("2026-11-24", 96, 102.5, 97),
  bar("2026-11-25", 95, 104, 103.5),
  bar("2026-11-26", 101, 108, 107),
  bar("2026-11-27", 104, 109, 105),
];
const BUY = { action: "buy" as const, entryLow: 95.5, entryHigh: 96.5, stopLoss: 95.2, targetPrice: 106 };

describe("3.3: outcome engine decision-signal-v1", () => {
  it("3d buy: return, excursions, entry reach and first touch from the bars after the anchor close", () => {
    const r = evaluateOutcome(BUY, BARS, "2026-11-20", 3);
    expect(r.evalStatus).toBe("completed");
    expect(r.anchorDate).toBe("2026-11-20");
    expect(r.startPrice).toBe(100);
    expect(r.endDate).toBe("2026-11-25");
    expect(r.endClose).toBe(103.5);
    expect(r.maxHigh).toBe(104);
    expect(r.minLow).toBe(95);
    expect(r.stockReturnPct).toBeCloseTo(3.5, 10);
    expect(r.outcome).toBe("hit");
    expect(r.directionExpected).toBe("up");
    expect(r.directionCorrect).toBe(true);
    expect(r.maxFavorableExcursionPct).toBeCloseTo(4, 10);
    expect(r.maxAdverseExcursionPct).toBeCloseTo(-5, 10);
    expect(r.entryReachable).toBe(true); // 2026-11-24 traded 96..102.5
    expect(r.firstHit).toBe("stop"); // 2026-11-25 low 95 ≤ 95.2 before any high ≥ 106
    expect(r.firstHitDate).toBe("2026-11-25");
  });

  it("5d: the target is touched first when the stop is lower; a sell reads the same bars as a miss", () => {
    const r = evaluateOutcome({ ...BUY, stopLoss: 90 }, BARS, "2026-11-20", 5);
    expect(r.stockReturnPct).toBeCloseTo(5, 10);
    expect(r.firstHit).toBe("target");
    expect(r.firstHitDate).toBe("2026-11-26");
    const sell = evaluateOutcome(
      { action: "sell", entryLow: null, entryHigh: null, stopLoss: 108.5, targetPrice: 96 },
      BARS,
      "2026-11-20",
      5,
    );
    expect(sell.directionExpected).toBe("not_up");
    expect(sell.outcome).toBe("miss");
    expect(sell.directionCorrect).toBe(false);
    expect(sell.maxFavorableExcursionPct).toBeCloseTo(5, 10); // low 95 vs 100
    expect(sell.maxAdverseExcursionPct).toBeCloseTo(-9, 10); // high 109 vs 100
    expect(sell.firstHit).toBe("target"); // 2026-11-24 low 96 ≤ 96
    expect(sell.entryReachable).toBeNull();
  });

  it("neutral band ±2 %: up, not_down, not_up", () => {
    expect([2, 1.99, -1.99, -2].map((r) => classifyReturn("up", r))).toEqual(["hit", "neutral", "neutral", "miss"]);
    expect([0, -0.01, -1.99, -2].map((r) => classifyReturn("not_down", r))).toEqual([
      "hit",
      "neutral",
      "neutral",
      "miss",
    ]);
    expect([2, 2.01, -5].map((r) => classifyReturn("not_up", r))).toEqual(["hit", "miss", "hit"]);
  });

  it("a holiday anchor falls back to the newest bar before it", () => {
    const r = evaluateOutcome(
      BUY,
      BARS.filter((b) => b.date !== "2026-11-20"),
      "2026-11-20",
      1,
    );
    expect(r.anchorDate).toBe("2026-11-19");
    expect(r.startPrice).toBe(99);
    expect(r.stockReturnPct).toBeCloseTo((102 / 99 - 1) * 100, 10);
  });

  it("recoverable unable: no anchor bar, not enough forward bars", () => {
    const missing = evaluateOutcome(BUY, [], "2026-11-20", 1);
    expect(missing).toMatchObject({ evalStatus: "unable", unableReason: "missing_anchor_price", retryable: true });
    const short = evaluateOutcome(BUY, BARS, "2026-11-25", 3);
    expect(short).toMatchObject({
      evalStatus: "unable",
      unableReason: "insufficient_forward_bars",
      retryable: true,
      anchorDate: "2026-11-25",
      startPrice: 103.5,
    });
  });

  it("a call made from one source is graded only on that source's bars: exchange feeds stand in for each other", () => {
    const fromCsv = evaluateOutcome({ ...BUY, source: "csv" }, BARS, "2026-11-20", 3);
    expect(fromCsv).toMatchObject({
      evalStatus: "unable",
      unableReason: "bars_from_other_source",
      retryable: true,
      startPrice: null,
      stockReturnPct: null,
    });
    const csvBars = BARS.map((b) => ({ ...b, source: "csv" as const }));
    expect(evaluateOutcome({ ...BUY, source: "csv" }, csvBars, "2026-11-20", 3)).toMatchObject({
      evalStatus: "completed",
      endClose: 103.5,
    });
    // One sample bar inside the window is enough to refuse; a bar before the anchor is not read.
    const mixed = csvBars.map((b) =>
      b.date === "2026-11-24" || b.date === "2026-11-19" ? { ...b, source: "sample" as const } : b,
    );
    expect(evaluateOutcome({ ...BUY, source: "csv" }, mixed, "2026-11-20", 3).unableReason).toBe(
      "bars_from_other_source",
    );
    expect(evaluateOutcome({ ...BUY, source: "csv" }, mixed, "2026-11-20", 1).evalStatus).toBe("completed");
    const exchange = BARS.map((b, i) => ({
      ...b,
      source: i % 2 === 0 ? ("tencent" as const) : ("eastmoney" as const),
    }));
    expect(evaluateOutcome({ ...BUY, source: "yahoo" }, exchange, "2026-11-20", 3).evalStatus).toBe("completed");
    // Without a known source (a signal created through the API), any bars grade it.
    expect(evaluateOutcome({ ...BUY, source: null }, BARS, "2026-11-20", 3).evalStatus).toBe("completed");
  });

  it("terminal unable: watch and alert have no direction", () => {
    for (const action of ["watch", "alert"] as const) {
      expect(evaluateOutcome({ ...BUY, action }, BARS, "2026-11-20", 1)).toMatchObject({
        evalStatus: "unable",
        unableReason: "non_directional_action",
        retryable: false,
        outcome: null,
      });
    }
  });
});
