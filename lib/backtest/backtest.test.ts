import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { decideAtClose } from "@/lib/analysis/engine";
import { barsFromCloses } from "@/tests/kits/test-bars";
import { parseBarsCsv } from "@/lib/market/providers/csv-bars";
import { backtestBars } from "./backtest-bars";
import { judgeCall, type JudgedCall } from "./judge";
import { callIndices, decideOn, MIN_BARS_FOR_SCORE, replayCalls } from "./replay";
import { equityCurve, equitySummary, summarize } from "./summary";

// docs/api.md §11 on pure series: walk-forward calls, outcomes per horizon, the summary and the equity lines.

/** A deterministic wavy series: trend plus two cycles, so the engine makes every kind of call. */
function wave(n: number, seed = 1): number[] {
  const out: number[] = [];
  let x = 100;
  for (let i = 0; i < n; i += 1) {
    x *= 1 + 0.004 * Math.sin((i + seed) / 9) + 0.006 * Math.sin((i * seed) / 23) + 0.0005;
    out.push(Math.round(x * 100) / 100);
  }
  return out;
}

const REAL = path.resolve(import.meta.dirname, "../../tests/fixtures/real-bars");

describe("replay (docs/api.md §11 calls)", () => {
  it("calls start at the first day with a score and repeat every step-th bar inside the dates", () => {
    const bars = barsFromCloses(wave(80));
    expect(callIndices(bars, null, null, 1)[0]).toBe(MIN_BARS_FOR_SCORE - 1);
    expect(callIndices(bars, null, null, 5).slice(0, 3)).toEqual([19, 24, 29]);
    const from = bars[40]!.date;
    const to = bars[50]!.date;
    expect(callIndices(bars, from, to, 2)).toEqual([40, 42, 44, 46, 48, 50]);
    expect(callIndices(bars, bars[79]!.date, null, 1)).toEqual([79]);
  });

  it("no look-ahead: two series that differ only after day d give identical calls up to d", async () => {
    const closes = wave(300, 3);
    const d = 200;
    const altered = closes.map((c, i) => (i > d ? c * (i % 2 === 0 ? 1.3 : 0.6) : c));
    const a = await replayCalls(barsFromCloses(closes), { market: "cn", isSample: false, step: 1 });
    const b = await replayCalls(barsFromCloses(altered), { market: "cn", isSample: false, step: 1 });
    const upTo = (calls: typeof a) => calls.filter((c) => c.index <= d);
    expect(upTo(a).length).toBe(d - MIN_BARS_FOR_SCORE + 2);
    expect(upTo(b)).toEqual(upTo(a));
    // And the series really differ afterwards, so the test could fail.
    expect(a.filter((c) => c.index > d)).not.toEqual(b.filter((c) => c.index > d));
  });

  it("a call is the engine's own decision on the window an analysis of that evening reads", () => {
    const bars = barsFromCloses(wave(400, 2));
    const call = decideOn(bars, 330, "us", false);
    const { decision } = decideAtClose(bars.slice(330 + 1 - 250, 331), "us", false);
    expect(call).toMatchObject({
      index: 330,
      date: bars[330]!.date,
      close: bars[330]!.close,
      action: decision.action,
      score: decision.score,
    });
    expect(call.stop_loss).toBe(decision.plan.stop_loss?.price ?? null);
  });
});

describe("judging (decision-signal-v1 with the request's band)", () => {
  const bars = barsFromCloses([100, 101, 103, 99, 97.5, 104]);
  const base = {
    index: 0,
    date: bars[0]!.date,
    close: 100,
    score: 70,
    ideal_buy: null,
    stop_loss: null,
    take_profit: null,
  };

  it("buy: hit at ≥ +band, neutral inside, miss at ≤ −band; the return is close to close", () => {
    const judged = judgeCall({ ...base, action: "buy" }, bars, [1, 2, 3, 4], 2);
    expect(judged.outcomes.map((o) => o.outcome)).toEqual(["neutral", "hit", "neutral", "miss"]);
    expect(judged.outcomes[1]!.return_pct).toBeCloseTo(3, 10);
    expect(judged.outcomes[3]!.return_pct).toBeCloseTo(-2.5, 10);
  });

  it("a wider band turns hits into neutrals; short side hits at ≤ +band; hold hits at ≥ 0", () => {
    expect(judgeCall({ ...base, action: "buy" }, bars, [2], 5).outcomes[0]!.outcome).toBe("neutral");
    expect(judgeCall({ ...base, action: "sell" }, bars, [2, 5], 2).outcomes.map((o) => o.outcome)).toEqual([
      "miss",
      "miss",
    ]);
    expect(judgeCall({ ...base, action: "reduce" }, bars, [3], 2).outcomes[0]!.outcome).toBe("hit");
    expect(judgeCall({ ...base, action: "hold" }, bars, [1, 3, 4], 2).outcomes.map((o) => o.outcome)).toEqual([
      "hit",
      "neutral",
      "miss",
    ]);
  });

  it("watch keeps its return but no outcome; too few later bars give nulls", () => {
    const watch = judgeCall({ ...base, action: "watch" }, bars, [2, 5, 6], 2);
    expect(watch.outcomes).toEqual([
      { horizon: 2, return_pct: expect.closeTo(3, 10), outcome: null },
      { horizon: 5, return_pct: expect.closeTo(4, 10), outcome: null },
      { horizon: 6, return_pct: null, outcome: null },
    ]);
  });
});

describe("summary and equity (docs/api.md §11)", () => {
  const bars = barsFromCloses([100, 110, 99, 99, 108.9, 120, 90]);
  const call = (index: number, action: JudgedCall["action"]): JudgedCall =>
    judgeCall(
      {
        index,
        date: bars[index]!.date,
        close: bars[index]!.close,
        action,
        score: 50,
        ideal_buy: null,
        stop_loss: null,
        take_profit: null,
      },
      bars,
      [1],
      2,
    );

  it("long from a long-side call's close to the next non-long call's close; flat otherwise; buy-and-hold over the same span", () => {
    // buy at 100 → sell at 99 (−1 %); watch; add at 99 → held through 108.9 and 120 → the span ends at 120.
    const calls = [call(0, "buy"), call(2, "sell"), call(3, "add"), call(5, "add")];
    const curve = equityCurve(calls, bars);
    expect(curve.map((p) => p.index)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(curve.at(-1)!.strategy).toBeCloseTo(0.99 * (120 / 99), 12);
    expect(curve.at(-1)!.buyHold).toBeCloseTo(1.2, 12);
    const equity = equitySummary(calls, curve)!;
    expect(equity.strategy_return_pct).toBeCloseTo((0.99 * (120 / 99) - 1) * 100, 10);
    expect(equity.buy_hold_return_pct).toBeCloseTo(20, 10);
    // Strategy: 1 → 1.1 → 0.99 is its worst fall from a peak (−10 %); buy-and-hold the same.
    expect(equity.strategy_max_drawdown_pct).toBeCloseTo(-10, 10);
    expect(equity.buy_hold_max_drawdown_pct).toBeCloseTo(-10, 10);
    expect(equity.exposure_pct).toBe(75);
  });

  it("per action, per side and all: counts over known returns, hit rate over hit + miss", () => {
    const calls = [call(0, "buy"), call(1, "buy"), call(2, "watch"), call(3, "reduce"), call(6, "buy")];
    const { summary } = summarize(calls, bars, [1]);
    const h = summary.horizons[0]!;
    // The call on the last bar has no later close: it counts nowhere.
    expect(h.all.count).toBe(4);
    expect(h.all.mean_return_pct).toBeCloseTo((10 + -10 + 0 + 10) / 4, 10);
    expect(h.long_side).toMatchObject({ count: 2, hit: 1, miss: 1, neutral: 0, hit_rate_pct: 50 });
    expect(h.long_side.mean_return_pct).toBeCloseTo(0, 10);
    expect(h.by_action.find((a) => a.action === "watch")).toMatchObject({
      count: 1,
      hit: 0,
      miss: 0,
      neutral: 0,
      hit_rate_pct: null,
    });
    expect(h.short_side).toMatchObject({ count: 1, hit: 0, miss: 1, hit_rate_pct: 0 });
  });
});

describe("a whole run on real bars (tests/fixtures/real-bars)", () => {
  it("us-AAPL-2012-2014: every trading day from the 20th is a call; figures agree with the file", async () => {
    const bars = parseBarsCsv(
      fs.readFileSync(path.join(REAL, "us-AAPL-2012-2014.csv"), "utf8"),
      "us-AAPL-2012-2014.csv",
    );
    const { calls, summary } = await backtestBars(bars, {
      market: "us",
      isSample: false,
      step: 1,
      horizons: [1, 5, 10],
      neutralBandPct: 2,
    });
    expect(calls.length).toBe(bars.length - MIN_BARS_FOR_SCORE + 1);
    expect(calls[0]!.date).toBe(bars[19]!.date);
    const ten = summary.horizons.find((h) => h.horizon === 10)!;
    expect(ten.all.count).toBe(calls.length - 10);
    const sum = (key: "count" | "hit" | "miss") => ten.by_action.reduce((s, a) => s + a[key], 0);
    expect(sum("count")).toBe(ten.all.count);
    const longCount = ten.by_action
      .filter((a) => a.action === "buy" || a.action === "add")
      .reduce((s, a) => s + a.count, 0);
    expect(ten.long_side.count).toBe(longCount);
    // Buy-and-hold over the span of the calls, from the file's own closes.
    const first = bars[19]!.close;
    const last = bars.at(-1)!.close;
    expect(summary.equity!.buy_hold_return_pct).toBeCloseTo((last / first - 1) * 100, 9);
    // The unconditional 10-day mean, recomputed from the file.
    let total = 0;
    for (let i = 19; i + 10 < bars.length; i += 1) total += (bars[i + 10]!.close / bars[i]!.close - 1) * 100;
    expect(ten.all.mean_return_pct).toBeCloseTo(total / (bars.length - 19 - 10), 9);
  });
});
