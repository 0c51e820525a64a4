import { afterEach, describe, expect, it } from "vitest";
import { setClock } from "@/lib/clock";
import { isWeekday } from "@/lib/market/market-time";
import { symbolKey } from "@/lib/market/symbol-key";
import { createSampleProvider, sampleCatalogueKeys } from "./sample";
import type { TMarketSymbol } from "./types";

afterEach(() => setClock(null));

const ctx = () => ({ signal: new AbortController().signal });
const provider = createSampleProvider({ latencyMs: () => 0 });
const at = (iso: string) => setClock(() => new Date(iso));

const moutai: TMarketSymbol = { kind: "stock", market: "cn", code: "600519" };

describe("sample provider", () => {
  it("deterministic: same symbol and day give identical bars; another symbol differs", async () => {
    at("2026-11-20T12:00:00Z");
    const a = await provider.dailyBars(moutai, 300, ctx());
    const b = await createSampleProvider({ latencyMs: () => 0 }).dailyBars(moutai, 300, ctx());
    expect(a).toEqual(b);
    const other = await provider.dailyBars({ kind: "stock", market: "cn", code: "000001" }, 300, ctx());
    expect(other.map((x) => x.close)).not.toEqual(a.map((x) => x.close));
  });

  it("several hundred weekday bars up to today; a day's bar does not change as the clock moves on", async () => {
    at("2026-11-20T12:00:00Z"); // Friday
    const bars = await provider.dailyBars(moutai, 500, ctx());
    expect(bars).toHaveLength(500);
    expect(bars.at(-1)!.date).toBe("2026-11-20");
    expect(bars.every((b) => isWeekday(b.date) && b.source === "sample")).toBe(true);
    expect(
      bars.every(
        (b) => b.low <= Math.min(b.open, b.close) && b.high >= Math.max(b.open, b.close) && b.volume % 100 === 0,
      ),
    ).toBe(true);
    at("2026-11-24T12:00:00Z"); // the next Tuesday
    const later = await provider.dailyBars(moutai, 502, ctx());
    expect(later.at(-1)!.date).toBe("2026-11-24");
    expect(later.slice(0, 500)).toEqual(bars);
  });

  it("quote is consistent with the last bar", async () => {
    at("2026-11-20T12:00:00Z"); // after the A-share close
    const bars = await provider.dailyBars(moutai, 10, ctx());
    const q = (await provider.quote(moutai, ctx()))!;
    const last = bars.at(-1)!;
    const prev = bars.at(-2)!;
    expect(q).toMatchObject({
      price: last.close,
      open: last.open,
      high: last.high,
      low: last.low,
      volume: last.volume,
      prev_close: prev.close,
      source: "sample",
      name: "贵州茅台",
    });
    expect(q.change).toBeCloseTo(last.close - prev.close, 6);
    expect(q.time).toBe("2026-11-20T15:00:00+08:00");
  });

  it("the catalogue: the named stocks and every registered index have data", async () => {
    at("2026-11-20T12:00:00Z");
    const keys = sampleCatalogueKeys();
    for (const k of [
      "cn:600519",
      "cn:000001",
      "cn:300750",
      "cn:601318",
      "cn:000858",
      "hk:00700",
      "hk:09988",
      "us:AAPL",
      "us:TSLA",
      "us:NVDA",
      "us:MSFT",
      "index:000001.SH",
      "index:399001.SZ",
      "index:000300.SH",
      "index:399006.SZ",
      "index:SPX",
      "index:HSI",
    ]) {
      expect(keys).toContain(k);
    }
    for (const key of keys) {
      const [kind, rest] = key.startsWith("index:") ? ["index", key.slice(6)] : ["stock", key];
      const symbol: TMarketSymbol =
        kind === "index"
          ? { kind: "index", market: "cn", code: rest!, canonicalId: rest }
          : { kind: "stock", market: key.split(":")[0] as TMarketSymbol["market"], code: key.split(":")[1]! };
      expect(symbolKey(symbol)).toBe(key);
      expect(await provider.dailyBars(symbol, 250, ctx())).toHaveLength(250);
      expect(await provider.quote(symbol, ctx())).not.toBeNull();
    }
  });

  it("an index and the stock with the same digits are different series (sh000001 vs 000001)", async () => {
    at("2026-11-20T12:00:00Z");
    const index = await provider.dailyBars(
      { kind: "index", market: "cn", code: "000001.SH", canonicalId: "000001.SH" },
      5,
      ctx(),
    );
    const bank = await provider.dailyBars({ kind: "stock", market: "cn", code: "000001" }, 5, ctx());
    expect(index[0]!.close).toBeGreaterThan(1000);
    expect(bank[0]!.close).toBeLessThan(100);
    expect(index[0]!.turnover_rate).toBeNull();
  });

  it("a well-formed code outside the catalogue has no data", async () => {
    at("2026-11-20T12:00:00Z");
    const unknown: TMarketSymbol = { kind: "stock", market: "cn", code: "600000" };
    expect(await provider.dailyBars(unknown, 100, ctx())).toEqual([]);
    expect(await provider.quote(unknown, ctx())).toBeNull();
  });

  it("SAMPLE_LATENCY_MS delays each call, and the delay is abortable", async () => {
    at("2026-11-20T12:00:00Z");
    const slow = createSampleProvider({ latencyMs: () => 60 });
    const t0 = performance.now();
    await slow.quote(moutai, ctx());
    expect(performance.now() - t0).toBeGreaterThanOrEqual(55);
    const controller = new AbortController();
    const pending = slow.dailyBars(moutai, 5, { signal: controller.signal });
    controller.abort(new Error("stop"));
    await expect(pending).rejects.toThrow("stop");
  });
});
