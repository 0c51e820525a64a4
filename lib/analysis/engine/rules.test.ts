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

// rules-v2: the structure table, synthetic markets, and plans that fit the verdict.

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

function decide(bars: readonly TDailyBar[], market: TMarket = "us", code = "TEST") {
  const indicators = computeIndicators({ bars, market });
  return {
    indicators,
    decision: decideByRules({
      indicators,
      market,
      limitPct: dailyLimitPct(market, code),
      phase: "postmarket",
      language: "en",
      isSample: false,
    }),
  };
}

/** The call on every day from `from`, each from the bars up to that day (the backtest's walk-forward). */
function calls(bars: readonly TDailyBar[], from: number, market: TMarket = "us", code = "TEST") {
  const out: { index: number; action: TDecisionAction; indicators: TIndicators; plan: Plan }[] = [];
  for (let i = from; i < bars.length; i += 1) {
    const { indicators, decision } = decide(bars.slice(Math.max(0, i - 249), i + 1), market, code);
    out.push({ index: i, action: decision.action, indicators, plan: decision.plan });
  }
  return out;
}

const share = (list: readonly { action: TDecisionAction }[], actions: readonly TDecisionAction[]) =>
  list.filter((c) => actions.includes(c.action)).length / list.length;

describe("rules-v2/v3 structure table", () => {
  const base = computeIndicators({ bars: barsFromCloses(walk(120, () => 0.002)), market: "us" });
  const at = (patch: Partial<TIndicators>, market: TMarket = "us", limit: number | null = null) =>
    decideStructure({ ...base, ...patch }, market, limit);

  it("uptrend: pullback → buy 70, trend intact → add 64, stretched → hold 55; limit up → hold", () => {
    expect(at({ regime: "up", extension_atr: 0.2 })).toEqual({
      action: "buy",
      score: 70,
      reason: "pullback_in_uptrend",
    });
    expect(at({ regime: "up", extension_atr: 1.2 })).toEqual({ action: "add", score: 64, reason: "uptrend_intact" });
    expect(at({ regime: "up", extension_atr: 2.5 })).toEqual({ action: "hold", score: 55, reason: "extended_uptrend" });
    expect(at({ regime: "up", extension_atr: 0.2, change_pct: 9.8 }, "cn", 10)).toMatchObject({
      action: "hold",
      reason: "limit_up",
    });
    expect(at({ regime: "up", extension_atr: 0.2, change_pct: 9.8 }, "cn", 20)).toMatchObject({ action: "buy" });
  });

  it("downtrend: a fading rally → sell, a rally → reduce, a stretched fall → watch (no sale into the low)", () => {
    const macd = { dif: -1, dea: -0.5, histogram: -1, cross: null, cross_bars_ago: null };
    expect(at({ regime: "down", adx14: 30, extension_atr: 0, macd: { ...macd, histogram_prev: -0.8 } })).toMatchObject({
      action: "sell",
      score: 15,
    });
    expect(at({ regime: "down", adx14: 30, extension_atr: 0, macd: { ...macd, histogram_prev: -1.2 } })).toMatchObject({
      action: "reduce",
      score: 30,
    });
    expect(at({ regime: "down", adx14: 30, extension_atr: -1.5 })).toMatchObject({
      action: "watch",
      score: 42,
      reason: "stretched_downtrend",
    });
  });

  it("rules-v3: a downtrend without strength (ADX < 20) is watched, not sold; a breakdown on volume still reduces", () => {
    const macd = { dif: -1, dea: -0.5, histogram: -1, cross: null, cross_bars_ago: null, histogram_prev: -0.8 };
    const weak = { regime: "down" as const, adx14: 15, extension_atr: 0, macd, price: 100, high_20: 110, low_20: 95 };
    expect(at(weak)).toEqual({ action: "watch", score: 45, reason: "weak_downtrend" });
    expect(at({ ...weak, extension_atr: -1.5 })).toMatchObject({ action: "watch", reason: "weak_downtrend" });
    expect(at({ ...weak, price: 94, volume: { ...base.volume, ratio: 2 } })).toMatchObject({
      action: "reduce",
      reason: "breakdown",
    });
    // A breakout out of a weak downtrend is still no buy: the structure has not repaired.
    expect(at({ ...weak, price: 111, volume: { ...base.volume, ratio: 2 } }, "us")).toMatchObject({
      action: "watch",
      reason: "weak_downtrend",
    });
    // Strength is tested on the short side only: the long side keeps the equity drift with it.
    expect(at({ regime: "up", adx14: 12, extension_atr: 0.2 })).toMatchObject({
      action: "buy",
      reason: "pullback_in_uptrend",
    });
    // Without an ADX (a short history) the v2 table applies.
    expect(at({ ...weak, adx14: null })).toMatchObject({ action: "sell", reason: "fading_rally_in_downtrend" });
  });

  it("rules-v4: a weak downtrend whose price is back above MA20 has stalled: hold (no buy levels), not watch", () => {
    const macd = { dif: -1, dea: -0.5, histogram: -1, cross: null, cross_bars_ago: null, histogram_prev: -0.8 };
    const ma = { ma5: 101, ma10: 100, ma20: 99, ma60: 104 };
    const stalled = {
      regime: "down" as const,
      adx14: 15,
      extension_atr: 0.5,
      macd,
      ma,
      price: 100,
      high_20: 103,
      low_20: 95,
    };
    expect(at(stalled)).toEqual({ action: "hold", score: 50, reason: "stalled_downtrend" });
    expect(at({ ...stalled, price: 98.5 })).toMatchObject({ action: "watch", reason: "weak_downtrend" });
    // With strength the v2 table still applies: a rally into a strong downtrend is sold.
    expect(at({ ...stalled, adx14: 30 })).toMatchObject({ action: "sell", reason: "fading_rally_in_downtrend" });
  });

  it("rules-v4: a flat regime with MA20 over MA60 and the price over both has turned up: hold (no buy until MA60 rises)", () => {
    const turned = {
      regime: "flat" as const,
      extension_atr: 0.2,
      ma: { ma5: 104, ma10: 104, ma20: 103, ma60: 101 },
      price: 104,
      high_20: 108,
      low_20: 98,
    };
    expect(at(turned)).toEqual({ action: "hold", score: 53, reason: "turning_up" });
    expect(at({ ...turned, extension_atr: 2.5 })).toMatchObject({ action: "hold", reason: "turning_up" });
    // The mirror is no call: MA20 under MA60 (or the price under MA60) without a falling MA60 is still a range.
    expect(at({ ...turned, ma: { ...turned.ma, ma20: 99 }, price: 100 })).toMatchObject({
      action: "watch",
      reason: "range",
    });
    expect(at({ ...turned, price: 100 })).toMatchObject({ action: "watch", reason: "range" });
    // A breakout or breakdown on volume is judged first, as in any range.
    const volume = { ...base.volume, ratio: 2 };
    expect(at({ ...turned, price: 110, volume })).toMatchObject({ action: "buy", reason: "breakout" });
  });

  it("flat: a breakout on volume buys in the US and HK but waits in A-shares; a breakdown on volume reduces", () => {
    const volume = { ...base.volume, ratio: 2 };
    const breakout = { regime: "flat" as const, extension_atr: 1, price: 110, high_20: 105, low_20: 95, volume };
    expect(at(breakout, "us")).toMatchObject({ action: "buy", reason: "breakout" });
    expect(at(breakout, "hk")).toMatchObject({ action: "buy", reason: "breakout" });
    expect(at(breakout, "cn", 10)).toMatchObject({ action: "watch", reason: "breakout_a_share" });
    expect(at({ ...breakout, volume: { ...volume, ratio: 1.2 } }, "us")).toMatchObject({
      action: "watch",
      reason: "range",
    });
    expect(at({ ...breakout, price: 90 }, "us")).toMatchObject({ action: "reduce", reason: "breakdown" });
    expect(at({ regime: null })).toMatchObject({ action: "watch", reason: "no_structure" });
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
    for (const patch of [
      { regime: "up" as const, extension_atr: 0 },
      { regime: "up" as const, extension_atr: 1 },
      { regime: "up" as const, extension_atr: 3 },
      { regime: "down" as const, extension_atr: 0 },
      { regime: "down" as const, extension_atr: -3 },
      { regime: "flat" as const, extension_atr: 0 },
      { regime: "down" as const, adx14: 30, extension_atr: 0 },
      { regime: "down" as const, adx14: 10, extension_atr: 0 },
      {
        regime: "down" as const,
        adx14: 10,
        extension_atr: 0,
        price: 100,
        ma: { ma5: 101, ma10: 100, ma20: 99, ma60: 104 },
      },
      { regime: "flat" as const, extension_atr: 0, price: 104, ma: { ma5: 104, ma10: 104, ma20: 103, ma60: 101 } },
    ]) {
      const d = at(patch);
      expect(direction[d.action], JSON.stringify(patch)).toBe(band(d.score));
    }
  });
});

describe("rules-v2 on synthetic markets", () => {
  it("steady uptrend: at least 70 % long-side calls after the first 60 bars", () => {
    const list = calls(barsFromCloses(walk(260, () => 0.003)), 60);
    expect(share(list, LONG)).toBeGreaterThanOrEqual(0.7);
  });

  it("steady downtrend: at least 70 % short-side or watch, and never a buy", () => {
    const list = calls(barsFromCloses(walk(260, () => -0.003)), 60);
    expect(share(list, [...SHORT, "watch"])).toBeGreaterThanOrEqual(0.7);
    expect(list.filter((c) => LONG.includes(c.action))).toEqual([]);
  });

  it("range: watch is the most common call and neither side dominates", () => {
    const list = calls(barsFromCloses(walk(260, (i) => 0.012 * Math.sin(i / 6))), 60);
    const counts = new Map<TDecisionAction, number>();
    for (const c of list) counts.set(c.action, (counts.get(c.action) ?? 0) + 1);
    const top = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]![0];
    expect(top).toBe("watch");
    expect(share(list, LONG)).toBeLessThan(0.5);
    expect(share(list, SHORT)).toBeLessThan(0.5);
  });

  it("crash: no long-side call from the crash until the structure is repaired", () => {
    // A year up, a 30 % fall in five sessions, then a slow base.
    const closes = walk(300, (i) => (i < 180 ? 0.002 : i < 185 ? -0.07 : 0.0008), 11);
    const list = calls(barsFromCloses(closes), 180);
    const repaired = list.find(
      (c) =>
        c.indicators.regime === "up" || (c.indicators.high_20 !== null && c.indicators.price! > c.indicators.high_20),
    );
    const before = list.filter((c) => repaired === undefined || c.index < repaired.index);
    expect(before.length).toBeGreaterThan(20);
    expect(before.filter((c) => LONG.includes(c.action))).toEqual([]);
  });

  it("V-bottom: no long-side call on the way down; long-side calls once the new uptrend is established", () => {
    const closes = walk(320, (i) => (i < 150 ? -0.004 : 0.005), 5);
    const list = calls(barsFromCloses(closes), 60);
    expect(list.filter((c) => c.index < 150 && LONG.includes(c.action))).toEqual([]);
    expect(
      share(
        list.filter((c) => c.index >= 260),
        LONG,
      ),
    ).toBeGreaterThanOrEqual(0.6);
  });

  it("gap up on volume out of a range: a breakout buy in the US, a wait in A-shares", () => {
    const closes = [...walk(120, (i) => 0.006 * Math.sin(i / 5), 3), 0];
    closes[120] = Math.round(Math.max(...closes.slice(100, 120)) * 1.08 * 100) / 100;
    const volumes = closes.map((_, i) => (i === 120 ? 4_000_000 : 1_000_000));
    const bars = barsFromCloses(closes, { volumes });
    expect(decide(bars, "us").decision).toMatchObject({ action: "buy", structure: "breakout" });
    const cn = decide(bars, "cn", "600519").decision;
    expect(cn).toMatchObject({ action: "watch", structure: "breakout_a_share" });
    expect(cn.guardrail_reasons.map((g) => g.code)).toEqual(["a_share_breakout"]);
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
        const { indicators, decision } = decide(bars.slice(Math.max(0, i - 249), i + 1), market, file.split("-")[1]);
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
        const { indicators, decision } = decide(bars, market, code);
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
