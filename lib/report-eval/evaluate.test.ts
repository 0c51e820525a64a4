import { describe, expect, it } from "vitest";
import type { TDailyBar } from "@/lib/market";
import { evaluateReport, gradeDirection, reportDirection } from "./evaluate";

// docs/api.md §12.4 on crafted bars: the window after the anchor close, the implied position, the simulated
// trade with the report's own stop and target, and win/loss from the outcome engine's ±2 % band.

function bars(rows: [string, number, number, number, number][]): TDailyBar[] {
  return rows.map(([date, open, high, low, close]) => ({
    date,
    open,
    high,
    low,
    close,
    volume: 1000,
    amount: null,
    turnover_rate: null,
    source: "sample" as const,
  }));
}

const SERIES = bars([
  ["2026-03-02", 100, 101, 99, 100],
  ["2026-03-03", 100, 103, 99.5, 102],
  ["2026-03-04", 102, 105, 101, 104],
  ["2026-03-05", 104, 111, 103, 110],
  ["2026-03-06", 110, 112, 108, 109],
]);

describe("evaluateReport", () => {
  it("a buy that reaches its target exits there; the stock's own move decides win/loss", () => {
    const e = evaluateReport({ action: "buy", anchorDate: "2026-03-02", stopLoss: 97, takeProfit: 108 }, SERIES, 3);
    expect(e).toMatchObject({
      evalStatus: "completed",
      position: "long",
      directionExpected: "up",
      startPrice: 100,
      endClose: 110,
      maxHigh: 111,
      // The window is the bars after the anchor: the anchor day's own low (99) is not in it.
      minLow: 99.5,
      actualMovement: "up",
      directionCorrect: true,
      outcome: "win",
      hitTakeProfit: true,
      hitStopLoss: false,
      firstHit: "target",
      firstHitDate: "2026-03-05",
      firstHitTradingDays: 3,
      simulatedEntryPrice: 100,
      simulatedExitPrice: 108,
      simulatedExitReason: "take_profit",
    });
    expect(e.stockReturnPct).toBeCloseTo(10, 10);
    expect(e.simulatedReturnPct).toBeCloseTo(8, 10);
  });

  it("a stop gapped through exits at the open, not at the stop", () => {
    const gap = bars([
      ["2026-03-02", 100, 101, 99, 100],
      ["2026-03-03", 95, 96, 94, 95],
      ["2026-03-04", 95, 96, 94, 96],
    ]);
    const e = evaluateReport({ action: "add", anchorDate: "2026-03-02", stopLoss: 97, takeProfit: 110 }, gap, 2);
    expect(e).toMatchObject({
      outcome: "loss",
      hitStopLoss: true,
      firstHit: "stop",
      simulatedExitPrice: 95,
      simulatedExitReason: "stop_loss",
      firstHitTradingDays: 1,
    });
    expect(e.simulatedReturnPct).toBeCloseTo(-5, 10);
  });

  it("a hold without touches rides to the window end; stop and target both on one day count as the stop", () => {
    const end = evaluateReport({ action: "hold", anchorDate: "2026-03-02", stopLoss: 90, takeProfit: 130 }, SERIES, 2);
    expect(end).toMatchObject({
      directionExpected: "not_down",
      outcome: "win",
      firstHit: "none",
      simulatedExitReason: "window_end",
      simulatedExitPrice: 104,
    });
    const both = evaluateReport(
      { action: "hold", anchorDate: "2026-03-04", stopLoss: 103.5, takeProfit: 110.5 },
      SERIES,
      1,
    );
    expect(both).toMatchObject({
      firstHit: "both_same_day",
      hitStopLoss: true,
      hitTakeProfit: true,
      simulatedExitPrice: 103.5,
      simulatedExitReason: "stop_loss_same_day_as_target",
    });
  });

  it("sell and watch are cash: the simulated return is 0 whatever the stock did; a sell into a rally is a loss, a watch through a 10 % move too", () => {
    const sell = evaluateReport({ action: "sell", anchorDate: "2026-03-02", stopLoss: 105, takeProfit: 95 }, SERIES, 3);
    expect(sell).toMatchObject({
      position: "cash",
      directionExpected: "down",
      outcome: "loss",
      directionCorrect: false,
      simulatedReturnPct: 0,
      simulatedExitReason: "cash",
      hitStopLoss: null,
      firstHit: null,
    });
    const watch = evaluateReport(
      { action: "watch", anchorDate: "2026-03-02", stopLoss: null, takeProfit: null },
      SERIES,
      3,
    );
    expect(watch).toMatchObject({
      position: "cash",
      directionExpected: "flat",
      directionCorrect: false,
      outcome: "loss",
      evalStatus: "completed",
      simulatedReturnPct: 0,
    });
    expect(watch.stockReturnPct).toBeCloseTo(10, 10);
  });

  it("too few bars after the anchor is insufficient (retried later); no bar on or before the anchor is unable", () => {
    expect(
      evaluateReport({ action: "buy", anchorDate: "2026-03-05", stopLoss: null, takeProfit: null }, SERIES, 3),
    ).toMatchObject({ evalStatus: "insufficient", retryable: true, startPrice: 110 });
    expect(
      evaluateReport({ action: "buy", anchorDate: "2026-02-01", stopLoss: null, takeProfit: null }, SERIES, 3),
    ).toMatchObject({ evalStatus: "unable", unableReason: "missing_anchor_price" });
  });

  it("refuses bars of another source: a CSV report is never graded on sample bars; exchange feeds grade each other", () => {
    const facts = { action: "buy" as const, anchorDate: "2026-03-02", stopLoss: 97, takeProfit: 108 };
    const refused = evaluateReport({ ...facts, source: "csv" }, SERIES, 3);
    expect(refused).toMatchObject({
      evalStatus: "unable",
      retryable: true,
      unableReason: "bars_from_other_source",
      startPrice: null,
      stockReturnPct: null,
    });
    // The same file's own bars are graded.
    const csvBars = SERIES.map((b) => ({ ...b, source: "csv" as const }));
    expect(evaluateReport({ ...facts, source: "csv" }, csvBars, 3).evalStatus).toBe("completed");
    const mixedFeeds = SERIES.map((b, i) => ({ ...b, source: i < 2 ? ("eastmoney" as const) : ("tencent" as const) }));
    expect(evaluateReport({ ...facts, source: "eastmoney" }, mixedFeeds, 3).evalStatus).toBe("completed");
    // Records stored before the source was kept are graded as before.
    expect(evaluateReport(facts, SERIES, 3).evalStatus).toBe("completed");
  });
});

describe("the reference's four expected directions", () => {
  it("buy/add up, hold not_down, reduce/sell/avoid down, watch and no action flat", () => {
    expect(
      ["buy", "add", "hold", "reduce", "sell", "avoid", "watch", null].map((a) => reportDirection(a as never)),
    ).toEqual(["up", "up", "not_down", "down", "down", "down", "flat", "flat"]);
  });

  it("each is graded with the ±2 % neutral band", () => {
    const outcome = (d: Parameters<typeof gradeDirection>[0], r: number) => gradeDirection(d, r).outcome;
    expect([outcome("up", 2), outcome("up", 1.9), outcome("up", -2)]).toEqual(["win", "neutral", "loss"]);
    expect([outcome("down", -2), outcome("down", 0), outcome("down", 2)]).toEqual(["win", "neutral", "loss"]);
    expect([outcome("not_down", 0), outcome("not_down", -1), outcome("not_down", -2)]).toEqual([
      "win",
      "neutral",
      "loss",
    ]);
    expect([outcome("flat", 2), outcome("flat", -2), outcome("flat", 2.01)]).toEqual(["win", "win", "loss"]);
    expect(gradeDirection("down", 0).correct).toBeNull();
  });
});
