import { beforeEach, describe, expect, it, vi } from "vitest";
import { setClock } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { withTempDatabase } from "@/tests/kits/db/temp-database";
import { currentPrice } from "@/lib/market";
import { clearQuoteCache } from "@/lib/market/quote-cache";
import { evaluateOneRule } from "./evaluator";
import { createAlertRule, resolveAlertTarget } from "./rules";
import { readRuleDistances } from "./rule-readings";
import type { TAlertRule, TAlertRuleCreate } from "./schemas";

// The Alerts page's current value and distance to the trigger, read on sample data.

const reads = vi.hoisted(() => ({ count: 0 }));
vi.mock("@/lib/market", async (importOriginal) => {
  const actual = await importOriginal<typeof import("@/lib/market")>();
  return {
    ...actual,
    getPriceSeries: (...args: Parameters<typeof actual.getPriceSeries>) => {
      reads.count += 1;
      return actual.getPriceSeries(...args);
    },
  };
});

const database = withTempDatabase("alert-readings", {
  MARKET_DATA_SOURCES: "sample",
  STOCK_LIST: "600519,000001,510300",
});
// Thursday 2026-11-19 10:00 in Shanghai: the A-share session is open, the quote is today's.
const OPEN = new Date("2026-11-19T02:00:00Z");
const deliver = async () => ({ status: "sent" as const, detail: {} });

function rule(
  fields: Partial<TAlertRuleCreate> & Pick<TAlertRuleCreate, "alert_type" | "target" | "parameters">,
): Promise<TAlertRule> {
  return createAlertRule({ target_scope: "single_symbol", severity: "info", enabled: true, ...fields });
}

const r2 = (v: number) => Math.round(v * 100) / 100;

beforeEach(async () => {
  await db().alertRule.deleteMany();
  clearQuoteCache();
  setClock(() => OPEN);
  database.useSettings({ MARKET_DATA_SOURCES: "sample", STOCK_LIST: "600519,000001,510300" });
});

describe("readRuleDistances", () => {
  it("a price rule shows the one price and the move in percent to its threshold, above or below", async () => {
    const one = await currentPrice(resolveAlertTarget("600519"));
    const up = await rule({
      alert_type: "price_cross",
      target: "600519",
      parameters: { direction: "above", price: r2(one.price * 1.1) },
    });
    const down = await rule({
      alert_type: "price_cross",
      target: "sh600519",
      parameters: { direction: "below", price: r2(one.price * 0.95) },
    });
    const past = await rule({
      alert_type: "price_cross",
      target: "600519",
      parameters: { direction: "above", price: r2(one.price - 1) },
    });
    const readings = await readRuleDistances([up, down, past]);

    const a = readings[up.id]!;
    expect(a).toMatchObject({ measure: "price", hasDistance: true, empty: null });
    expect(a.targets).toHaveLength(1);
    expect(a.targets[0]).toMatchObject({
      target: "600519",
      current: one.price,
      threshold: r2(one.price * 1.1),
      reached: false,
      basis: one.basis,
      date: one.date,
      error: null,
    });
    expect(a.targets[0]!.distancePct).toBeCloseTo(((r2(one.price * 1.1) - one.price) / one.price) * 100, 10);
    expect(a.targets[0]!.distancePct).toBeGreaterThan(9.9);

    expect(readings[down.id]!.targets[0]!.distancePct).toBeCloseTo(
      ((r2(one.price * 0.95) - one.price) / one.price) * 100,
      10,
    );
    expect(readings[down.id]!.targets[0]!.reached).toBe(false);
    expect(readings[past.id]!.targets[0]).toMatchObject({ reached: true });
    expect(readings[past.id]!.targets[0]!.distancePct).toBeLessThan(0);
  });

  it("a daily-change rule shows today's change and the price move that reaches ±x %", async () => {
    const one = await currentPrice(resolveAlertTarget("600519"));
    const r = await rule({
      alert_type: "price_change_percent",
      target: "600519",
      parameters: { direction: "up", change_pct: 5 },
    });
    const t = (await readRuleDistances([r]))[r.id]!.targets[0]!;
    const change = Math.round(one.change_pct! * 10_000) / 10_000;
    expect(t).toMatchObject({ current: change, threshold: 5, reached: change >= 5 });
    expect(t.distancePct).toBeCloseTo(((5 - change) / (100 + change)) * 100, 10);
  });

  it("indicator rules show the value the evaluator compares; only the MA rule has a distance", async () => {
    const ma = await rule({
      alert_type: "ma_price_cross",
      target: "600519",
      parameters: { direction: "above", window: 20 },
    });
    const rsi = await rule({
      alert_type: "rsi_threshold",
      target: "600519",
      parameters: { direction: "above", period: 12, threshold: 70 },
    });
    const macd = await rule({
      alert_type: "macd_cross",
      target: "600519",
      parameters: { direction: "bullish_cross", fast_period: 12, slow_period: 26, signal_period: 9 },
    });
    const readings = await readRuleDistances([ma, rsi, macd]);
    for (const [r, measure, hasDistance] of [
      [ma, "close", true],
      [rsi, "rsi", false],
      [macd, "dif", false],
    ] as const) {
      const evaluated = (await evaluateOneRule(r.id, { deliver, dryRun: true, anyTime: true }))!.results[0]!;
      expect(evaluated.observed_value).not.toBeNull();
      const reading = readings[r.id]!;
      expect(reading).toMatchObject({ measure, hasDistance });
      expect(reading.targets[0]).toMatchObject({
        current: evaluated.observed_value,
        threshold: evaluated.threshold,
        error: null,
      });
      if (!hasDistance) expect(reading.targets[0]!.distancePct).toBeNull();
    }
    const m = readings[ma.id]!.targets[0]!;
    expect(m.distancePct).toBeCloseTo(((m.threshold! - m.current!) / m.current!) * 100, 10);
  });

  it("reads each stock once per render, lists a watchlist's targets closest first, and skips disabled and non-stock rules", async () => {
    const moutai = await currentPrice(resolveAlertTarget("600519"));
    const bank = await currentPrice(resolveAlertTarget("000001"));
    const watch = await rule({
      target_scope: "watchlist",
      alert_type: "price_cross",
      target: "default",
      parameters: { direction: "above", price: r2(moutai.price * 1.02) },
    });
    const single = await rule({
      alert_type: "rsi_threshold",
      target: "600519",
      parameters: { direction: "below", period: 6, threshold: 30 },
    });
    const off = await rule({
      alert_type: "price_cross",
      target: "600519",
      parameters: { direction: "above", price: 1 },
      enabled: false,
    });
    const market = await rule({
      target_scope: "market",
      alert_type: "market_light_status",
      target: "cn",
      parameters: { statuses: ["red"] },
    });
    reads.count = 0;
    const readings = await readRuleDistances([watch, single, off, market]);
    expect(reads.count).toBe(2);
    expect(Object.keys(readings).map(Number).sort()).toEqual([watch.id, single.id].sort());

    const targets = readings[watch.id]!.targets;
    expect(targets.map((t) => t.target)).toEqual(["600519", "000001", "510300"]);
    expect(targets[0]!.current).toBe(moutai.price);
    expect(targets[1]!.current).toBe(bank.price);
    expect(Math.abs(targets[0]!.distancePct!)).toBeLessThan(Math.abs(targets[1]!.distancePct!));
    expect(targets[2]).toMatchObject({ current: null, distancePct: null });
    expect(targets[2]!.error).toMatch(/fund|ETF/i);
  });

  it("a slow provider leaves the value empty within the budget instead of holding the page", async () => {
    database.useSettings({ MARKET_DATA_SOURCES: "sample", SAMPLE_LATENCY_MS: "4000" });
    const r = await rule({ alert_type: "price_cross", target: "AAPL", parameters: { direction: "above", price: 500 } });
    const started = Date.now();
    const readings = await readRuleDistances([r], { budgetMs: 100 });
    // Waiting for the provider would take its 4 s; the margin below that absorbs a loaded machine.
    expect(Date.now() - started).toBeLessThan(2500);
    expect(readings[r.id]!.targets[0]).toMatchObject({ target: "AAPL", current: null, distancePct: null });
    expect(readings[r.id]!.targets[0]!.error).toMatch(/no answer within 0.1 s/);
    // Let the abandoned read finish before the database goes away.
    await new Promise((resolve) => setTimeout(resolve, 4500));
  }, 15_000);
});
