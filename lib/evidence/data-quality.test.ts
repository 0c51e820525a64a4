import { describe, expect, it } from "vitest";
import type { TDailyBar } from "@/lib/market";
import { barsFromCloses } from "@/tests/kits/test-bars";
import {
  assessDataQuality,
  STALE_SESSIONS_INSUFFICIENT,
  STRUCTURE_MIN_BARS,
  type DataQualityInput,
} from "./data-quality";

// docs/api.md §13 `details.data_quality`, one reason at a time on synthetic series. The clock is a Wednesday evening
// in Shanghai after the close (2026-03-04 16:00 +08:00): the last closed A-share session is that day.

const AT = new Date("2026-03-04T08:00:00Z");
/** 200 weekday bars ending on 2026-03-04 (2025-05-28 … 2026-03-04; the weekday calendar, holidays aside). */
function freshBars(n = 200, closes?: (i: number) => number): TDailyBar[] {
  const all = barsFromCloses(
    Array.from({ length: n }, (_, i) => closes?.(i) ?? 100 + Math.sin(i / 7) * 5),
    { start: "2025-05-28" },
  );
  return all;
}

function assess(bars: TDailyBar[], extra: Partial<DataQualityInput> = {}) {
  return assessDataQuality({
    bars,
    source: "eastmoney",
    market: "us",
    code: "AAPL",
    kind: "stock",
    at: new Date("2026-12-31T23:00:00Z"),
    language: "en",
    ...extra,
  });
}

/** Bars ending exactly on the last closed US session before `at`. */
function usBarsEnding(last: string, n = 200): TDailyBar[] {
  const bars = barsFromCloses(
    Array.from({ length: n }, (_, i) => 100 + Math.sin(i / 7) * 5),
    { start: "2020-01-01" },
  );
  // Re-date from the end so the last bar falls on `last` (weekdays only).
  const dates: string[] = [];
  let d = new Date(`${last}T00:00:00Z`);
  while (dates.length < n) {
    const day = d.getUTCDay();
    if (day !== 0 && day !== 6) dates.unshift(d.toISOString().slice(0, 10));
    d = new Date(d.getTime() - 86_400_000);
  }
  return bars.map((b, i) => ({ ...b, date: dates[i]! }));
}

describe("data quality reasons", () => {
  const at = new Date("2026-03-05T22:00:00Z"); // Thursday 17:00 in New York: 2026-03-05 is closed
  const fresh = usBarsEnding("2026-03-05");

  it("clean, current bars from the first provider are good", () => {
    const q = assess(fresh, { at });
    expect(q).toEqual({ level: "good", reasons: [], bars: 200, last_bar_date: "2026-03-05", source: "eastmoney" });
  });

  it("too_few_bars: fewer than the trend structure needs is insufficient", () => {
    const q = assess(fresh.slice(-(STRUCTURE_MIN_BARS - 1)), { at });
    expect(q.level).toBe("insufficient");
    expect(q.reasons.map((r) => r.code)).toEqual(["too_few_bars"]);
    expect(q.reasons[0]!.message).toContain(`${STRUCTURE_MIN_BARS}`);
    expect(assess(fresh.slice(-STRUCTURE_MIN_BARS), { at }).level).toBe("good");
  });

  it("stale_bars: a file that ends months ago is insufficient and says how old; a day behind is only degraded", () => {
    const old = usBarsEnding("2025-05-16");
    const q = assess(old, { at });
    expect(q.level).toBe("insufficient");
    expect(q.reasons.map((r) => r.code)).toEqual(["stale_bars"]);
    expect(q.reasons[0]!.message).toMatch(
      /The last bar is 2025-05-16, \d{3} sessions before the last closed session 2026-03-05/,
    );
    const dayBehind = assess(usBarsEnding("2026-03-04"), { at });
    expect(dayBehind.level).toBe("degraded");
    expect(dayBehind.reasons[0]!.message).toContain("1 session before");
    const limit = assess(usBarsEnding("2026-02-26"), { at }); // 5 sessions behind
    expect(limit.reasons[0]!.message).toContain(`${STALE_SESSIONS_INSUFFICIENT} sessions`);
    expect(limit.level).toBe("degraded");
    expect(assess(usBarsEnding("2026-02-25"), { at }).level).toBe("insufficient");
  });

  it("missing_volume: no volume on the latest bars is degraded", () => {
    const q = assess(
      fresh.map((b) => ({ ...b, volume: 0 })),
      { at },
    );
    expect(q.level).toBe("degraded");
    expect(q.reasons.map((r) => r.code)).toEqual(["missing_volume"]);
  });

  it("sample_data: sample bars or a sample quote are at most degraded, in the report's language", () => {
    const q = assess(
      fresh.map((b) => ({ ...b, source: "sample" as const })),
      { at, source: "sample", language: "zh" },
    );
    expect(q.level).toBe("degraded");
    expect(q.reasons).toEqual([{ code: "sample_data", message: "示例数据：不是真实行情" }]);
    expect(assess(fresh, { at, quoteSource: "sample" }).reasons.map((r) => r.code)).toEqual(["sample_data"]);
  });

  it("provider_fallback: a later provider answered after an earlier one failed", () => {
    const q = assess(fresh, {
      at,
      source: "yahoo",
      attempts: [
        { provider: "eastmoney", ok: false },
        { provider: "yahoo", ok: true },
      ],
    });
    expect(q.level).toBe("degraded");
    expect(q.reasons).toEqual([{ code: "provider_fallback", message: "eastmoney failed; yahoo served the bars" }]);
  });

  it("price_gap: a 60 % unadjusted drop inside the structure window is insufficient; an old one only degrades", () => {
    const split = (at: number) =>
      fresh.map((b, i) =>
        i >= at ? { ...b, close: b.close * 0.4, open: b.open * 0.4, high: b.high * 0.4, low: b.low * 0.4 } : b,
      );
    const recent = assess(split(180), { at });
    expect(recent.level).toBe("insufficient");
    expect(recent.reasons.map((r) => r.code)).toEqual(["price_gap"]);
    expect(recent.reasons[0]!.message).toMatch(new RegExp(`The close of ${fresh[180]!.date} moved -(59|60)\\.\\d%`));
    expect(assess(split(20), { at }).level).toBe("degraded");
  });

  it("A-shares: a limit move is no gap; beyond the board's limit (plus an ex-dividend margin) it is", () => {
    const cn = (drop: number) =>
      assessDataQuality({
        bars: freshBars(200, (i) => (i < 190 ? 100 : 100 * (1 - drop))),
        source: "eastmoney",
        market: "cn",
        code: "600519",
        kind: "stock",
        at: AT,
        language: "en",
      });
    expect(cn(0.1).reasons.map((r) => r.code)).not.toContain("price_gap");
    expect(cn(0.2).reasons.map((r) => r.code)).toContain("price_gap");
  });
});
