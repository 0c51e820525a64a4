import { afterEach, describe, expect, it } from "vitest";
import { setClock } from "@/lib/clock";
import { sampleCatalogueKeys } from "@/lib/market";
import { createSampleProvider } from "@/lib/market/providers/sample";
import type { TMarketSymbol } from "@/lib/market";
import { computeIndicators } from "./indicators";
import { applyGuardrails, decideByRules, FACTOR_WEIGHTS, pricePlan } from "./rules";
import type { TGuardrailReason, TIndicators } from "./schemas";
import { barsFromCloses } from "./test-bars";

afterEach(() => setClock(null));

const linear = (n: number, start = 1, step = 1) => Array.from({ length: n }, (_, i) => start + i * step);

function withIndicators(patch: Partial<TIndicators>): TIndicators {
  const base = computeIndicators({ bars: barsFromCloses(linear(80, 50, 0.5)), market: "cn" });
  return { ...base, ...patch };
}

describe("rule-based decision (issue 4 item 4)", () => {
  it("issue 4 item 4: weights add up to 100 and every factor is documented in the breakdown", () => {
    expect(Object.values(FACTOR_WEIGHTS).reduce((a, b) => a + b, 0)).toBe(100);
    const d = decideByRules({ indicators: withIndicators({}), phase: "postmarket", language: "zh", isSample: false });
    expect(d.breakdown.map((f) => f.factor)).toEqual(["trend", "bias", "volume", "support", "macd", "rsi"]);
    expect(d.score).not.toBeNull();
  });

  it("reference §12: missing data is left out and lowers confidence; no score (not 50) without a trend", () => {
    const short = computeIndicators({ bars: barsFromCloses(linear(25, 10)), market: "cn" });
    const d = decideByRules({ indicators: short, phase: "postmarket", language: "en", isSample: false });
    expect(d.breakdown.find((f) => f.factor === "macd")!.points).toBeNull();
    expect(d.score).not.toBeNull();
    expect(d.confidence).not.toBe("high");
    expect(d.confidence_reasons.join(" ")).toMatch(/MACD|no MA60/);
    const tiny = computeIndicators({ bars: barsFromCloses(linear(12, 10)), market: "cn" });
    const none = decideByRules({ indicators: tiny, phase: "postmarket", language: "zh", isSample: false });
    expect(none.score).toBeNull();
    expect(none.action).toBe("watch");
    expect(none.confidence).toBe("low");
    expect(none.guardrail_reasons[0]!.code).toBe("insufficient_data");
  });

  it("reference §2 guardrail: no chasing more than 5% above MA5 (buy → watch, score into the watch band)", () => {
    const ind = withIndicators({ bias: { ma5: 6.2, ma20: 12 } });
    const reasons: TGuardrailReason[] = [];
    const out = applyGuardrails({ indicators: ind, phase: "intraday", language: "zh", isSample: false }, "buy", 72, reasons);
    expect(out).toEqual({ action: "watch", score: 59 });
    expect(reasons.map((r) => r.code)).toContain("chasing");
    expect(reasons[0]!.message).toContain("不追高");
    // A strong bullish trend allows 1.5 × (7.5 %).
    const strong = withIndicators({ bias: { ma5: 6.2, ma20: 12 }, trend: { state: "strong_bullish", ma5_ma20_spread_pct: 8, spread_widening: true }, resistance: [] });
    expect(applyGuardrails({ indicators: strong, phase: "intraday", language: "zh", isSample: false }, "buy", 72, []).action).toBe("buy");
  });

  it("issue 4 item 4: a bearish alignment blocks buy", () => {
    const ind = withIndicators({ trend: { state: "bearish", ma5_ma20_spread_pct: -4, spread_widening: false }, bias: { ma5: 0.5, ma20: -2 }, resistance: [] });
    const reasons: TGuardrailReason[] = [];
    expect(applyGuardrails({ indicators: ind, phase: "postmarket", language: "en", isSample: false }, "buy", 65, reasons)).toEqual({ action: "watch", score: 59 });
    expect(reasons.map((r) => r.code)).toEqual(["bearish_alignment"]);
  });

  it("reference §2 guardrail: sell right above structural support becomes reduce", () => {
    const ind = withIndicators({ price: 100, support: [{ price: 98, basis: "swing_low" }] });
    const reasons: TGuardrailReason[] = [];
    expect(applyGuardrails({ indicators: ind, phase: "postmarket", language: "zh", isSample: false }, "sell", 12, reasons)).toEqual({ action: "reduce", score: 20 });
    expect(reasons[0]!.code).toBe("near_support");
  });

  it("issue 4 item 4: price plan sanity on hand data: stop < secondary < ideal < take profit", () => {
    const { plan } = pricePlan(withIndicators({}), "zh");
    expect(plan.ideal_buy?.basis).toBe("ma5");
    expect(plan.stop_loss!.price).toBeLessThan((plan.secondary_buy ?? plan.ideal_buy)!.price);
    expect(plan.take_profit!.price).toBeGreaterThan(plan.ideal_buy!.price);
    const atLow = pricePlan(withIndicators({ support: [], trend: { state: "bearish", ma5_ma20_spread_pct: -3, spread_widening: false } }), "en");
    expect(atLow.plan).toEqual({ ideal_buy: null, secondary_buy: null, stop_loss: null, take_profit: null });
    expect(atLow.notes[0]).toMatch(/no support/);
  });

  it("issue 4 item 4: price plan sanity on every sample stock at several dates", async () => {
    const provider = createSampleProvider({ latencyMs: () => 0 });
    const ctx = { signal: new AbortController().signal };
    const stocks = sampleCatalogueKeys().filter((k) => !k.startsWith("index:"));
    let checked = 0;
    for (const day of ["2026-03-10", "2026-06-17", "2026-09-08", "2026-11-20"]) {
      setClock(() => new Date(`${day}T12:00:00Z`));
      for (const key of stocks) {
        const [market, code] = key.split(":") as ["cn" | "hk" | "us", string];
        const symbol: TMarketSymbol = { kind: "stock", market, code };
        const bars = await provider.dailyBars(symbol, 120, ctx);
        const ind = computeIndicators({ bars, market });
        const { plan } = pricePlan(ind, "zh");
        if (plan.ideal_buy === null) continue;
        const entries = [plan.secondary_buy?.price, plan.ideal_buy.price].filter((x): x is number => x !== undefined);
        if (plan.stop_loss) expect(plan.stop_loss.price).toBeLessThan(Math.min(...entries));
        if (plan.secondary_buy) expect(plan.secondary_buy.price).toBeLessThan(plan.ideal_buy.price);
        if (plan.take_profit) expect(plan.take_profit.price).toBeGreaterThan(Math.max(plan.ideal_buy.price, ind.price!));
        expect(plan.ideal_buy.price).toBeLessThanOrEqual(ind.price!);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(20);
  });

  it("issue 4 item 4: intraday, a bar-based volume ratio on a partial day is not scored", () => {
    const bars = barsFromCloses(linear(40, 10));
    const quote = {
      price: 50, change: 1, change_pct: 2, volume: 10, amount: null, volume_ratio: null, turnover_rate: null, high: null, low: null, open: null,
      prev_close: 49, time: "2026-03-02T10:00:00+08:00", source: "tencent" as const,
    };
    const ind = computeIndicators({ bars, quote, market: "cn" });
    const d = decideByRules({ indicators: ind, phase: "intraday", language: "en", isSample: false });
    expect(d.breakdown.find((f) => f.factor === "volume")).toMatchObject({ points: null });
    expect(d.risk_warnings.join(" ")).toMatch(/Intraday data is not final/);
  });
});
