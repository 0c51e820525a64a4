import { describe, expect, it } from "vitest";
import type { TQuote } from "@/lib/market";
import { computeIndicators, MACD_MIN_BARS } from "./indicators";
import { barsFromCloses } from "@/tests/kits/test-bars";

const linear = (n: number, start = 1, step = 1) => Array.from({ length: n }, (_, i) => start + i * step);

// An independent computation for the cross-check: textbook EMA seeded with the first close, Wilder RSI.
function emaSeries(values: readonly number[], period: number): number[] {
  const k = 2 / (period + 1);
  const out: number[] = [];
  values.forEach((v, i) => out.push(i === 0 ? v : v * k + out[i - 1]! * (1 - k)));
  return out;
}

function wilderRsi(closes: readonly number[], period: number): number {
  let gain = 0;
  let loss = 0;
  for (let i = 1; i <= period; i += 1) {
    const d = closes[i]! - closes[i - 1]!;
    gain += Math.max(d, 0);
    loss += Math.max(-d, 0);
  }
  gain /= period;
  loss /= period;
  for (let i = period + 1; i < closes.length; i += 1) {
    const d = closes[i]! - closes[i - 1]!;
    gain = (gain * (period - 1) + Math.max(d, 0)) / period;
    loss = (loss * (period - 1) + Math.max(-d, 0)) / period;
  }
  return loss === 0 ? 100 : 100 - 100 / (1 + gain / loss);
}

// Deterministic zig-zag walk, so RSI/MACD are not degenerate.
function walk(n: number): number[] {
  let x = 100;
  let seed = 7;
  return Array.from({ length: n }, () => {
    seed = (seed * 16807) % 2147483647;
    x *= 1 + (seed / 2147483647 - 0.5) * 0.06;
    return Math.round(x * 100) / 100;
  });
}

describe("indicators", () => {
  it("MAs and bias on a hand-computable series 1..60", () => {
    const ind = computeIndicators({ bars: barsFromCloses(linear(60)), market: "cn" });
    expect(ind.ma).toEqual({ ma5: 58, ma10: 55.5, ma20: 50.5, ma60: 30.5 });
    expect(ind.bias.ma5).toBeCloseTo(((60 - 58) / 58) * 100, 10);
    expect(ind.bias.ma20).toBeCloseTo(((60 - 50.5) / 50.5) * 100, 10);
    // Only gains: RSI is 100 by definition.
    expect(ind.rsi).toEqual({ rsi6: 100, rsi12: 100, rsi24: 100 });
    // MA5 > MA10 > MA20, spread 14.9 % but narrowing (it was 16.5 % five bars ago): bullish, not strong.
    expect(ind.trend?.state).toBe("bullish");
    expect(ind.trend?.spread_widening).toBe(false);
    expect(ind.price).toBe(60);
    expect(ind.change_pct).toBeCloseTo((1 / 59) * 100, 10);
    expect(ind.missing).toEqual([]);
  });

  it("a falling series is a bearish alignment, RSI 0", () => {
    const ind = computeIndicators({ bars: barsFromCloses(linear(40, 200, -1)), market: "cn" });
    expect(ind.trend?.state).toBe("bearish");
    expect(ind.rsi.rsi12).toBe(0);
  });

  it("MACD and RSI cross-checked against an independent computation", () => {
    const closes = walk(120);
    const ind = computeIndicators({ bars: barsFromCloses(closes), market: "us" });
    const dif = emaSeries(closes, 12).map((v, i) => v - emaSeries(closes, 26)[i]!);
    // trading-signals starts DEA at the 26th close (the first DIF it emits).
    const dea = emaSeries(dif.slice(25), 9);
    expect(ind.macd!.dif).toBeCloseTo(dif.at(-1)!, 8);
    expect(ind.macd!.dea).toBeCloseTo(dea.at(-1)!, 8);
    expect(ind.macd!.histogram).toBeCloseTo(2 * (dif.at(-1)! - dea.at(-1)!), 8);
    expect(ind.rsi.rsi6).toBeCloseTo(wilderRsi(closes, 6), 8);
    expect(ind.rsi.rsi12).toBeCloseTo(wilderRsi(closes, 12), 8);
    expect(ind.rsi.rsi24).toBeCloseTo(wilderRsi(closes, 24), 8);
  });

  it("a golden cross is reported with its age", () => {
    // Down for 40 bars, then a sharp rise: DIF crosses above DEA within the last bars.
    const closes = [...linear(40, 100, -1), 63, 66, 70];
    const ind = computeIndicators({ bars: barsFromCloses(closes), market: "cn" });
    expect(ind.macd?.cross).toBe("golden");
    expect(ind.macd?.cross_bars_ago).toBeGreaterThanOrEqual(0);
    expect(ind.macd?.cross_bars_ago).toBeLessThan(3);
  });

  it("short history gives null for what it cannot compute, never a default", () => {
    const ind = computeIndicators({ bars: barsFromCloses(linear(10, 10)), market: "cn" });
    expect(ind.ma.ma5).toBe(17);
    expect(ind.ma.ma10).toBe(14.5);
    expect(ind.ma.ma20).toBeNull();
    expect(ind.ma.ma60).toBeNull();
    expect(ind.bias.ma20).toBeNull();
    expect(ind.macd).toBeNull();
    expect(ind.trend).toBeNull();
    expect(ind.rsi.rsi6).toBe(100);
    expect(ind.rsi.rsi12).toBeNull();
    expect(ind.rsi.rsi24).toBeNull();
    expect(ind.high_20).toBeNull();
    expect(ind.missing).toEqual(
      expect.arrayContaining([
        "ma20 (needs 20 bars)",
        "ma60 (needs 60 bars)",
        `macd (needs ${MACD_MIN_BARS} bars)`,
        "trend (needs 20 bars)",
      ]),
    );
    const none = computeIndicators({ bars: [], market: "cn" });
    expect(none.price).toBeNull();
    expect(none.change_pct).toBeNull();
    expect(none.support).toEqual([]);
  });

  it("volume ratio is today over the previous 5 days; the quote's ratio wins when present", () => {
    const bars = barsFromCloses(linear(30, 10), { volumes: [...Array(29).fill(100), 250] });
    expect(computeIndicators({ bars, market: "cn" }).volume).toMatchObject({
      ratio: 2.5,
      ratio_source: "bars",
      avg5: 100,
      today: 250,
    });
    const quote: TQuote = {
      price: 39,
      change: 0,
      change_pct: 0,
      volume: 250,
      amount: null,
      volume_ratio: 1.8,
      turnover_rate: 0,
      high: null,
      low: null,
      open: null,
      prev_close: 38,
      time: `${bars.at(-1)!.date}T15:00:00+08:00`,
      source: "tencent",
    };
    const ind = computeIndicators({ bars, quote, market: "cn" });
    expect(ind.volume).toMatchObject({ ratio: 1.8, ratio_source: "quote" });
    // spec 2.6 rule 2: 0 stays 0.
    expect(ind.change_pct).toBe(0);
    expect(ind.turnover_rate).toBe(0);
    expect(ind.quote_merge).toBe("replaced");
    expect(ind.price).toBe(39);
  });

  it("an intraday quote newer than the bars becomes today's provisional bar; a stale quote is ignored", () => {
    const bars = barsFromCloses(linear(30, 10)); // last bar 2026-02-13 (Friday)
    const base: TQuote = {
      price: 45,
      change: 6,
      change_pct: 15.38,
      volume: null,
      amount: null,
      volume_ratio: null,
      turnover_rate: null,
      high: 46,
      low: 40,
      open: 40,
      prev_close: 39,
      time: "2026-02-16T10:00:00+08:00",
      source: "tencent",
    };
    const fresh = computeIndicators({ bars, quote: base, market: "cn" });
    expect(fresh.quote_merge).toBe("appended");
    expect(fresh.bars_used).toBe(31);
    expect(fresh.ma.ma5).toBe((36 + 37 + 38 + 39 + 45) / 5);
    const stale = computeIndicators({ bars, quote: { ...base, time: "2026-02-10T10:00:00+08:00" }, market: "cn" });
    expect(stale.quote_merge).toBe("ignored_stale");
    expect(stale.price).toBe(39);
  });

  it("support below and resistance above the price, nearest first", () => {
    const closes = walk(120);
    const ind = computeIndicators({ bars: barsFromCloses(closes), market: "cn" });
    const p = ind.price!;
    expect(ind.support.length).toBeGreaterThan(0);
    expect(ind.support.every((s) => s.price < p)).toBe(true);
    expect(ind.resistance.every((r) => r.price > p)).toBe(true);
    for (let i = 1; i < ind.support.length; i += 1)
      expect(ind.support[i]!.price).toBeLessThan(ind.support[i - 1]!.price);
    for (let i = 1; i < ind.resistance.length; i += 1)
      expect(ind.resistance[i]!.price).toBeGreaterThan(ind.resistance[i - 1]!.price);
  });
});
