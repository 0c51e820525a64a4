import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { setClock } from "@/lib/clock";
import { sampleCatalogueKeys } from "@/lib/market";
import { createSampleProvider } from "@/lib/market/providers/sample";
import { parseBarsCsv } from "@/lib/market/providers/csv-bars";
import type { TDailyBar, TMarketSymbol } from "@/lib/market";
import type { TMarket } from "@/lib/market/symbols";
import { computeIndicators } from "./indicators";
import { MIN_GAP_ATR, MIN_REWARD_RISK, planProblem, STOP_MAX_ATR, STOP_MIN_ATR, type Plan } from "./plan";
import { decideByRules, FACTOR_WEIGHTS } from "./rules";
import type { TDecisionAction, TIndicators } from "./schemas";
import { dailyLimitPct, decideStructure } from "./structure-decision";
import { barsFromCloses } from "@/tests/kits/test-bars";

// The rules-v6 structure table, synthetic markets, and plans that fit the verdict.

afterEach(() => setClock(null));

const LONG: readonly TDecisionAction[] = ["buy", "add"];
const SHORT: readonly TDecisionAction[] = ["reduce", "sell", "avoid"];
const REAL = path.resolve(import.meta.dirname, "../../../tests/fixtures/real-bars");

/** Deterministic noise (a linear congruential generator), so a synthetic market is the same on every run. */
function noise(seed: number): () => number {
  let x = seed;
  return () => {
    x = (x * 1_103_515_245 + 12_345) % 2_147_483_648;
    return x / 2_147_483_648 - 0.5;
  };
}

/** Closes compounding `drift(i)` per day plus ±0.4 % noise. */
function walk(n: number, drift: (i: number) => number, seed = 7, start = 100): number[] {
  const rand = noise(seed);
  const out: number[] = [];
  let price = start;
  for (let i = 0; i < n; i += 1) {
    price *= 1 + drift(i) + 0.008 * rand();
    out.push(Math.round(price * 100) / 100);
  }
  return out;
}

function decide(bars: readonly TDailyBar[], market: TMarket = "us") {
  const indicators = computeIndicators({ bars, market });
  return {
    indicators,
    decision: decideByRules({
      indicators,
      market,
      phase: "postmarket",
      language: "en",
      isSample: false,
    }),
  };
}

/** The call on every day from `from`, each from the bars up to that day (the backtest's walk-forward). */
function calls(bars: readonly TDailyBar[], from: number, market: TMarket = "us") {
  const out: { index: number; action: TDecisionAction; indicators: TIndicators; plan: Plan }[] = [];
  for (let i = from; i < bars.length; i += 1) {
    const { indicators, decision } = decide(bars.slice(Math.max(0, i - 249), i + 1), market);
    out.push({ index: i, action: decision.action, indicators, plan: decision.plan });
  }
  return out;
}

const share = (list: readonly { action: TDecisionAction }[], actions: readonly TDecisionAction[]) =>
  list.filter((c) => actions.includes(c.action)).length / list.length;

describe("rules-v6 structure table", () => {
  const base = computeIndicators({ bars: barsFromCloses(walk(120, () => 0.002)), market: "us" });
  const at = (patch: Partial<TIndicators>, market: TMarket = "us") => decideStructure({ ...base, ...patch }, market);
  const cell = (regime: "up" | "flat" | "down", extension_atr: number, market: TMarket = "us") => {
    const d = at({ regime, extension_atr }, market);
    return { action: d.action, score: d.score, reason: d.reason };
  };

  it("the decision names its cell: the table, the stretch band and the regime (stored with the report)", () => {
    expect(at({ regime: "up", extension_atr: -0.8 }).cell).toEqual({
      table: "default",
      band: "below",
      regime: "up",
      extension_atr: -0.8,
    });
    expect(at({ regime: "down", extension_atr: 2.4 }, "cn").cell).toMatchObject({
      table: "a_share",
      band: "stretched",
    });
    expect(at({ regime: null }).cell).toBeNull();
  });

  it("under the 2-week mean: buy in an uptrend or a range, hold (no buy against the fall) in a downtrend", () => {
    expect(cell("up", -0.8)).toEqual({ action: "buy", score: 70, reason: "pullback_in_uptrend" });
    expect(cell("flat", -3)).toEqual({ action: "buy", score: 64, reason: "dip_in_range" });
    expect(cell("down", -0.51)).toEqual({ action: "hold", score: 55, reason: "dip_in_downtrend" });
  });

  it("at the mean (within half a day's range): watch in every regime", () => {
    for (const e of [-0.5, 0, 0.5]) {
      expect(cell("up", e)).toEqual({ action: "watch", score: 54, reason: "uptrend_intact" });
      expect(cell("flat", e)).toEqual({ action: "watch", score: 48, reason: "range" });
      expect(cell("down", e)).toEqual({ action: "watch", score: 45, reason: "downtrend_at_mean" });
    }
  });

  it("over the mean: reduce in a range or a downtrend, but no sale against an uptrend until the price is stretched", () => {
    expect(cell("up", 1.9)).toEqual({ action: "watch", score: 54, reason: "uptrend_intact" });
    expect(cell("flat", 0.6)).toEqual({ action: "reduce", score: 36, reason: "rally_in_range" });
    expect(cell("down", 1)).toEqual({ action: "reduce", score: 30, reason: "rally_in_downtrend" });
    expect(cell("up", 2)).toEqual({ action: "reduce", score: 28, reason: "extended" });
    expect(cell("flat", 4)).toEqual({ action: "reduce", score: 28, reason: "extended" });
    expect(cell("down", 2.5)).toEqual({ action: "sell", score: 15, reason: "extended_rally_in_downtrend" });
  });

  it("A-shares (rules-v6): a 1–3-month fall is bought under its mean, a 1–3-month rise trimmed over it", () => {
    expect(cell("down", -1, "cn")).toEqual({ action: "buy", score: 68, reason: "a_share_dip_in_downtrend" });
    expect(cell("down", 0, "cn")).toEqual({ action: "hold", score: 56, reason: "a_share_downtrend_at_mean" });
    expect(cell("down", 1, "cn")).toEqual({ action: "watch", score: 52, reason: "a_share_rally_in_downtrend" });
    expect(cell("up", -1, "cn")).toEqual({ action: "watch", score: 50, reason: "a_share_dip_in_uptrend" });
    expect(cell("up", 0, "cn")).toEqual({ action: "watch", score: 46, reason: "a_share_uptrend_at_mean" });
    expect(cell("up", 1, "cn")).toEqual({ action: "reduce", score: 34, reason: "a_share_rally_in_uptrend" });
    for (const regime of ["up", "flat", "down"] as const)
      expect(cell(regime, 2, "cn")).toEqual({ action: "reduce", score: 28, reason: "extended" });
    // The flat row, and every row in Hong Kong, is the rules-v5 table.
    expect(cell("flat", -1, "cn")).toEqual(cell("flat", -1, "us"));
    expect(cell("flat", 1, "cn")).toEqual(cell("flat", 1, "us"));
    expect(cell("down", -1, "hk")).toEqual(cell("down", -1, "us"));
  });

  it("without a regime (under 70 bars) or an extension there is no structure: watch", () => {
    expect(at({ regime: null })).toEqual({ action: "watch", score: 48, reason: "no_structure", cell: null });
    expect(at({ regime: "up", extension_atr: null })).toMatchObject({ reason: "no_structure" });
  });

  it("A-share daily limits by board", () => {
    expect(dailyLimitPct("cn", "600519")).toBe(10);
    expect(dailyLimitPct("cn", "300750")).toBe(20);
    expect(dailyLimitPct("cn", "688981")).toBe(20);
    expect(dailyLimitPct("cn", "830799")).toBe(30);
    expect(dailyLimitPct("us", "AAPL")).toBeNull();
    expect(dailyLimitPct("cn", "000300.SH", "index")).toBeNull();
  });

  it("every action agrees with its score band (docs/api.md §7), so the classifier never has to override it", () => {
    const band = (s: number) => (s >= 60 ? 1 : s >= 40 ? 0 : -1);
    const direction: Record<string, number> = { buy: 1, add: 1, hold: 0, watch: 0, reduce: -1, sell: -1 };
    const scores: number[] = [];
    for (const market of ["us", "cn"] as const) {
      for (const regime of ["up", "flat", "down"] as const) {
        for (const e of [-3, -1, 0, 1, 3]) {
          const d = cell(regime, e, market);
          expect(direction[d.action], `${market} ${regime} ${e}`).toBe(band(d.score));
          scores.push(d.score);
        }
      }
    }
    // The score falls as the price stands higher against its mean, whatever the regime.
    for (let k = 0; k < scores.length; k += 5)
      for (let j = k + 1; j < k + 5; j += 1) expect(scores[j]!).toBeLessThanOrEqual(scores[j - 1]!);
  });
});

describe("rules-v6 on synthetic markets", () => {
  const longCalls = (list: ReturnType<typeof calls>) => list.filter((c) => LONG.includes(c.action));
  const shortCalls = (list: ReturnType<typeof calls>) => list.filter((c) => SHORT.includes(c.action));

  it("steady uptrend: no sale unless the price is stretched two ranges over its mean, and no call to sell at all", () => {
    const list = calls(barsFromCloses(walk(260, () => 0.003)), 60);
    for (const c of shortCalls(list).filter((c) => c.indicators.regime === "up"))
      expect(c.indicators.extension_atr!).toBeGreaterThanOrEqual(2);
    expect(list.filter((c) => c.action === "sell")).toEqual([]);
  });

  it("steady downtrend: never a buy or an add; a dip is held, not bought", () => {
    const list = calls(barsFromCloses(walk(260, () => -0.003)), 60);
    expect(longCalls(list)).toEqual([]);
  });

  it("range: the calls lean against the swing, buys under the mean and reductions over it, neither side dominating", () => {
    const list = calls(barsFromCloses(walk(260, (i) => 0.012 * Math.sin(i / 6))), 60);
    for (const c of longCalls(list)) expect(c.indicators.extension_atr!).toBeLessThan(-0.5);
    for (const c of shortCalls(list)) expect(c.indicators.extension_atr!).toBeGreaterThan(0.5);
    expect(share(list, LONG)).toBeGreaterThan(0.1);
    expect(share(list, SHORT)).toBeGreaterThan(0.1);
    expect(share(list, LONG)).toBeLessThan(0.5);
    expect(share(list, SHORT)).toBeLessThan(0.5);
  });

  it("crash: no buy into the fall; what is held is kept (no sale into the low)", () => {
    // A year up, a 30 % fall in five sessions, then a slow base.
    const closes = walk(300, (i) => (i < 180 ? 0.002 : i < 185 ? -0.07 : 0.0008), 11);
    const list = calls(barsFromCloses(closes), 180);
    const falling = list.filter((c) => c.indicators.regime === "down");
    expect(falling.length).toBeGreaterThan(20);
    expect(longCalls(falling)).toEqual([]);
    expect(falling.filter((c) => c.indicators.extension_atr! < -0.5 && c.action !== "hold")).toEqual([]);
  });

  it("V-bottom: no buy on the way down; in the new uptrend no sale until the price is stretched", () => {
    const closes = walk(320, (i) => (i < 150 ? -0.004 : 0.005), 5);
    const list = calls(barsFromCloses(closes), 60);
    expect(longCalls(list.filter((c) => c.index < 150))).toEqual([]);
    const rising = list.filter((c) => c.index >= 260);
    expect(rising.every((c) => c.indicators.regime === "up")).toBe(true);
    for (const c of shortCalls(rising)) expect(c.indicators.extension_atr!).toBeGreaterThanOrEqual(2);
  });

  it("gap up on volume out of a range: a stretched price is trimmed, not chased, in every market", () => {
    const closes = [...walk(120, (i) => 0.006 * Math.sin(i / 5), 3), 0];
    closes[120] = Math.round(Math.max(...closes.slice(100, 120)) * 1.08 * 100) / 100;
    const volumes = closes.map((_, i) => (i === 120 ? 4_000_000 : 1_000_000));
    const bars = barsFromCloses(closes, { volumes });
    expect(decide(bars, "us").decision).toMatchObject({ action: "reduce", structure: "extended" });
    expect(decide(bars, "cn").decision).toMatchObject({ action: "reduce", structure: "extended" });
  });
});

/** The plan invariants for one call. */
function checkPlan(action: TDecisionAction, plan: Plan, ind: TIndicators, where: string): void {
  // The check an LLM's plan goes through passes every plan of ours.
  const numbers = {
    ideal_buy: plan.ideal_buy?.price ?? null,
    secondary_buy: plan.secondary_buy?.price ?? null,
    stop_loss: plan.stop_loss?.price ?? null,
    take_profit: plan.take_profit?.price ?? null,
  };
  expect(planProblem(action, numbers, ind), where).toBeNull();
  const price = ind.price!;
  const atr = ind.atr14!;
  const levels = [plan.ideal_buy, plan.secondary_buy, plan.stop_loss, plan.take_profit].filter((l) => l !== null);
  for (const l of levels) {
    if (l.basis === "current_price") expect(l.price, where).toBe(price);
    else
      expect(Math.abs(l.price - price), `${where}: ${l.basis} within 0.3 ATR`).toBeGreaterThanOrEqual(
        MIN_GAP_ATR * atr - 1e-9,
      );
  }
  if (LONG.includes(action)) {
    const ideal = plan.ideal_buy!;
    const stop = plan.stop_loss!;
    const target = plan.take_profit!;
    if (ideal.basis !== "breakout_above") expect(ideal.price, where).toBeLessThanOrEqual(price);
    const risk = ideal.price - stop.price;
    expect(risk / atr, `${where}: stop 1–3 ATR under the entry`).toBeGreaterThanOrEqual(STOP_MIN_ATR - 1e-9);
    expect(risk / atr, `${where}: stop 1–3 ATR under the entry`).toBeLessThanOrEqual(STOP_MAX_ATR + 1e-9);
    if (plan.secondary_buy) expect(plan.secondary_buy.price, where).toBeGreaterThan(stop.price);
    if (plan.secondary_buy) expect(plan.secondary_buy.price, where).toBeLessThan(ideal.price);
    expect(target.price - ideal.price, `${where}: reward ≥ 1.5 R`).toBeGreaterThanOrEqual(
      MIN_REWARD_RISK * risk - 1e-9,
    );
    expect(target.price, where).toBeGreaterThan(price);
  } else if (action === "hold") {
    expect(plan.ideal_buy, where).toBeNull();
    expect(plan.secondary_buy, where).toBeNull();
    expect(plan.stop_loss!.price, where).toBeLessThan(price);
  } else if (SHORT.includes(action)) {
    expect(plan.ideal_buy, where).toBeNull();
    expect(plan.secondary_buy, where).toBeNull();
    expect(plan.stop_loss!.price, `${where}: a short call is wrong above its stop`).toBeGreaterThan(price);
    if (plan.take_profit) expect(plan.take_profit.price, where).toBeLessThan(price);
  } else {
    if (plan.ideal_buy) expect(plan.ideal_buy).toMatchObject({ basis: "breakout_above" });
    if (plan.ideal_buy) expect(plan.ideal_buy.price, where).toBeGreaterThan(price);
    if (plan.stop_loss) expect(plan.stop_loss).toMatchObject({ basis: "breakdown_below" });
    if (plan.stop_loss) expect(plan.stop_loss.price, where).toBeLessThan(price);
  }
}

describe("rules-v2 plans fit the verdict", () => {
  it("every call on every real-bars file, every 7th day", () => {
    let checked = 0;
    for (const file of fs.readdirSync(REAL).filter((f) => f.endsWith(".csv"))) {
      const bars = parseBarsCsv(fs.readFileSync(path.join(REAL, file), "utf8"), file);
      const market = file.slice(0, 2) as TMarket;
      for (let i = 70; i < bars.length; i += 7) {
        const { indicators, decision } = decide(bars.slice(Math.max(0, i - 249), i + 1), market);
        checkPlan(decision.action, decision.plan, indicators, `${file} ${bars[i]!.date} ${decision.action}`);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(1500);
  }, 30_000);

  it("every sample stock at several dates", async () => {
    const provider = createSampleProvider({ latencyMs: () => 0 });
    let checked = 0;
    for (const day of ["2026-03-02T08:00:00Z", "2026-06-15T08:00:00Z", "2026-09-21T08:00:00Z"]) {
      setClock(() => new Date(day));
      for (const key of sampleCatalogueKeys()) {
        const [market, code] = key.split(":") as [TMarket, string];
        const symbol: TMarketSymbol = { kind: "stock", market, code };
        const bars = await provider.dailyBars(symbol, 250, { signal: new AbortController().signal });
        const { indicators, decision } = decide(bars, market);
        checkPlan(decision.action, decision.plan, indicators, `${key} ${day}`);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(20);
  });

  it("an outside plan (an LLM's) is checked against the same invariants: ours pass, broken ones name the problem", () => {
    const bars = barsFromCloses(walk(200, () => 0.003, 13));
    const { indicators, decision } = decide(bars);
    const numbers = (p: Plan) => ({
      ideal_buy: p.ideal_buy?.price ?? null,
      secondary_buy: p.secondary_buy?.price ?? null,
      stop_loss: p.stop_loss?.price ?? null,
      take_profit: p.take_profit?.price ?? null,
    });
    expect(planProblem(decision.action, numbers(decision.plan), indicators)).toBeNull();
    const price = indicators.price!;
    const atr = indicators.atr14!;
    const good = { ideal_buy: price, secondary_buy: null, stop_loss: price - 2 * atr, take_profit: price + 4 * atr };
    expect(planProblem("buy", good, indicators)).toBeNull();
    expect(planProblem("buy", { ...good, stop_loss: price - 5 * atr }, indicators)).toMatch(/1–3 required/);
    expect(planProblem("buy", { ...good, take_profit: price + 2 * atr }, indicators)).toMatch(/1\.5 required/);
    expect(
      planProblem(
        "buy",
        { ...good, ideal_buy: price + 0.5 * atr, stop_loss: price - 1.5 * atr },
        { ...indicators, high_20: price + 5 * atr },
      ),
    ).toMatch(/above the price/);
    expect(planProblem("buy", { ...good, take_profit: price + 0.1 * atr }, indicators)).toMatch(/within 0\.3 ATR/);
    expect(planProblem("sell", { ...good }, indicators)).toMatch(/no buy levels/);
    expect(
      planProblem(
        "reduce",
        { ideal_buy: null, secondary_buy: null, stop_loss: price - 2 * atr, take_profit: null },
        indicators,
      ),
    ).toMatch(/above the price/);
    // Hold: no buy levels; watch: a breakout above and a breakdown below (an aligned LLM action keeps no buy plan).
    expect(
      planProblem(
        "hold",
        { ideal_buy: null, secondary_buy: null, stop_loss: price - 2 * atr, take_profit: price + 2 * atr },
        indicators,
      ),
    ).toBeNull();
    expect(planProblem("hold", good, indicators)).toMatch(/no buy levels/);
    expect(
      planProblem(
        "watch",
        { ideal_buy: price + atr, secondary_buy: null, stop_loss: price - atr, take_profit: null },
        indicators,
      ),
    ).toBeNull();
    expect(planProblem("watch", good, indicators)).toMatch(/breakout above the price/);
    expect(planProblem("watch", { ...good, ideal_buy: price + atr }, indicators)).toBeNull();
    expect(
      planProblem(
        "watch",
        { ideal_buy: null, secondary_buy: null, stop_loss: price + atr, take_profit: null },
        indicators,
      ),
    ).toMatch(/below the price/);
  });

  it("swing levels carry the date of their bar into the plan", () => {
    const bars = barsFromCloses(walk(200, (i) => 0.002 + 0.01 * Math.sin(i / 4), 9));
    const { indicators } = decide(bars);
    const swing = indicators.support.find((s) => s.basis === "swing_low");
    expect(swing?.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(bars.find((b) => b.date === swing!.date)!.low).toBe(swing!.price);
  });
});

describe("evidence and confidence", () => {
  it("weights add up to 100 and every factor is documented in the breakdown", () => {
    expect(Object.values(FACTOR_WEIGHTS).reduce((a, b) => a + b, 0)).toBe(100);
    const d = decide(barsFromCloses(walk(80, () => 0.002))).decision;
    expect(d.breakdown.map((f) => f.factor)).toEqual(["trend", "bias", "volume", "support", "macd", "rsi"]);
  });

  it("reference §12: no score (not 50) under 20 bars; under 70 bars no structure: watch with low confidence", () => {
    const tiny = decide(barsFromCloses(walk(15, () => 0.002))).decision;
    expect(tiny).toMatchObject({ score: null, action: "watch", structure: null });
    expect(tiny.guardrail_reasons.map((g) => g.code)).toEqual(["insufficient_data"]);
    const short = decide(barsFromCloses(walk(50, () => 0.003))).decision;
    expect(short).toMatchObject({ action: "watch", structure: "no_structure", confidence: "low" });
  });

  it("intraday, a bar-based volume ratio on a partial day is not scored", () => {
    const bars = barsFromCloses(walk(40, () => 0.002));
    const quote = {
      price: 50,
      change: 1,
      change_pct: 2,
      volume: 10,
      amount: null,
      volume_ratio: null,
      turnover_rate: null,
      high: null,
      low: null,
      open: null,
      prev_close: 49,
      time: "2026-03-02T10:00:00+08:00",
      source: "tencent" as const,
    };
    const indicators = computeIndicators({ bars, quote, market: "cn" });
    const d = decideByRules({ indicators, market: "cn", phase: "intraday", language: "en", isSample: false });
    expect(d.breakdown.find((f) => f.factor === "volume")).toMatchObject({ points: null });
    expect(d.risk_warnings.join(" ")).toMatch(/Intraday data is not final/);
  });
});
