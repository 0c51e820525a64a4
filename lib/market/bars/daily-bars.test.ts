import { beforeEach, describe, expect, it } from "vitest";
import { setClock } from "@/lib/clock";
import { db } from "@/lib/db/client";
import type { ChainOptions } from "@/lib/market/providers/chain";
import { createSampleProvider } from "@/lib/market/providers/sample";
import type { MarketDataProvider, TDailyBar, TMarketSymbol } from "@/lib/market/providers/types";
import { clearDailyBarMemo, getDailyBars } from "./daily-bars";
import { withTempDatabase } from "@/tests/kits/db/temp-database";

withTempDatabase("bars");

beforeEach(async () => {
  await db().dailyBar.deleteMany();
  clearDailyBarMemo();
});

const moutai: TMarketSymbol = { kind: "stock", market: "cn", code: "600519" };
const at = (iso: string) => setClock(() => new Date(iso));

/** The sample provider behind a recorder of the `days` each call asked for, with an optional price tweak. */
function recording(name: MarketDataProvider["name"] = "eastmoney", tweak: (b: TDailyBar) => TDailyBar = (b) => b) {
  const inner = createSampleProvider({ latencyMs: () => 0 });
  const asked: number[] = [];
  const provider: MarketDataProvider = {
    name,
    serves: () => true,
    async dailyBars(symbol, days, ctx) {
      asked.push(days);
      return (await inner.dailyBars(symbol, days, ctx)).map((b) => tweak({ ...b, source: name }));
    },
    quote: (symbol, ctx) => inner.quote(symbol, ctx),
  };
  const chain: ChainOptions = { providers: [provider], timeoutMs: 1000 };
  return { asked, chain };
}

describe("daily bar cache", () => {
  it("first call fetches and upserts; a second call is served from the database", async () => {
    at("2026-11-20T12:00:00Z"); // Friday 20:00 in Beijing, after the close
    const { asked, chain } = recording();
    const first = await getDailyBars(moutai, 30, chain);
    expect(first.cache).toBe("miss");
    expect(first.bars).toHaveLength(30);
    expect(first.bars.at(-1)!.date).toBe("2026-11-20");
    expect(first.source).toBe("eastmoney");
    expect(await db().dailyBar.count({ where: { symbolKey: "cn:600519" } })).toBe(31);

    const second = await getDailyBars(moutai, 30, chain);
    expect(second.cache).toBe("hit");
    expect(second.bars).toEqual(first.bars);
    expect(asked).toEqual([31]);
  });

  it("stored bars of a source the chain no longer lists are never served: a switch from sample to a real provider fetches again", async () => {
    at("2026-11-20T12:00:00Z");
    const sample = recording("sample");
    expect((await getDailyBars(moutai, 30, sample.chain)).source).toBe("sample");
    const real = recording("eastmoney");
    const after = await getDailyBars(moutai, 30, real.chain);
    expect(after.cache).toBe("miss");
    expect(new Set(after.bars.map((b) => b.source))).toEqual(new Set(["eastmoney"]));
    expect(real.asked).toEqual([31]);
    // The real bars replaced the sample ones in the store.
    expect(await db().dailyBar.count({ where: { symbolKey: "cn:600519", source: "sample" } })).toBe(0);
  });

  it("the day after a holiday, before the close, still gives the full window (the provider's holiday and partial bars are not counted)", async () => {
    at("2026-11-27T05:00:00Z"); // Friday 00:00 in New York, the day after Thanksgiving: the last closed session is Wednesday
    const { asked, chain } = recording();
    const apple: TMarketSymbol = { kind: "stock", market: "us", code: "AAPL" };
    const result = await getDailyBars(apple, 30, chain);
    expect(result.bars).toHaveLength(30);
    expect(result.bars.at(-1)!.date).toBe("2026-11-25");
    expect(asked).toEqual([33]);
  });

  it("force_refresh (spec 2.2): a refresh call skips a current cache and fetches the whole window again", async () => {
    at("2026-11-20T12:00:00Z");
    const { asked, chain } = recording();
    await getDailyBars(moutai, 30, chain);
    const refreshed = await getDailyBars(moutai, 30, chain, { refresh: true });
    expect(refreshed.cache).toBe("miss");
    expect(refreshed.bars).toHaveLength(30);
    expect(asked).toEqual([31, 31]);
    expect((await getDailyBars(moutai, 30, chain)).cache).toBe("hit");
  });

  it("when the cache is behind, only the missing tail (plus one overlap bar) is fetched", async () => {
    at("2026-11-20T12:00:00Z");
    const { asked, chain } = recording();
    const before = await getDailyBars(moutai, 30, chain);
    at("2026-11-24T12:00:00Z"); // Tuesday after the close: Mon and Tue are missing
    const after = await getDailyBars(moutai, 30, chain);
    expect(after.cache).toBe("tail");
    expect(asked).toEqual([31, 3]);
    expect(after.bars.slice(-2).map((b) => b.date)).toEqual(["2026-11-23", "2026-11-24"]);
    expect(after.bars.slice(0, 28)).toEqual(before.bars.slice(2));
    expect(await db().dailyBar.count()).toBe(33);
  });

  it("today's bar is not stored or returned before the close; the cache is current through yesterday", async () => {
    at("2026-11-20T12:00:00Z");
    const { asked, chain } = recording();
    await getDailyBars(moutai, 30, chain);
    at("2026-11-23T03:00:00Z"); // Monday 11:00 in Beijing, session open
    const during = await getDailyBars(moutai, 30, chain);
    expect(during.cache).toBe("hit");
    expect(during.bars.at(-1)!.date).toBe("2026-11-20");
    expect(asked).toEqual([31]);
  });

  it("a re-adjusted overlap bar (upsert) replaces the whole window with the new provider's bars", async () => {
    at("2026-11-20T12:00:00Z");
    await getDailyBars(moutai, 30, recording("eastmoney").chain);
    at("2026-11-24T12:00:00Z");
    const adjusted = recording("tencent", (b) => ({
      ...b,
      open: b.open * 0.9,
      high: b.high * 0.9,
      low: b.low * 0.9,
      close: b.close * 0.9,
    }));
    // Both providers listed (tencent first), so the stored eastmoney bars still count as the cache.
    const both = {
      ...adjusted.chain,
      providers: [...adjusted.chain.providers, ...recording("eastmoney").chain.providers],
    };
    const r = await getDailyBars(moutai, 30, both);
    expect(adjusted.asked).toEqual([3, 31]);
    expect(r.cache).toBe("miss");
    const rows = await db().dailyBar.findMany({ where: { symbolKey: "cn:600519", tradeDate: { gte: "2026-10-14" } } });
    expect(rows.every((row) => row.source === "tencent")).toBe(true);
    expect(await db().dailyBar.count()).toBe(33); // upserted in place, no duplicates per (symbol, date)
  });

  it("zeros are stored and read back as 0, not null", async () => {
    at("2026-11-20T12:00:00Z");
    const { chain } = recording("eastmoney", (b) => ({ ...b, volume: 0, amount: 0, turnover_rate: 0 }));
    await getDailyBars(moutai, 5, chain);
    const cached = await getDailyBars(moutai, 5, chain);
    expect(cached.cache).toBe("hit");
    expect(cached.bars.every((b) => b.volume === 0 && b.amount === 0 && b.turnover_rate === 0)).toBe(true);
  });

  it("an index and a stock with the same digits are cached under different keys", async () => {
    at("2026-11-20T12:00:00Z");
    const { chain } = recording();
    await getDailyBars({ kind: "index", market: "cn", code: "000001.SH", canonicalId: "000001.SH" }, 5, chain);
    await getDailyBars({ kind: "stock", market: "cn", code: "000001" }, 5, chain);
    const keys = await db().dailyBar.groupBy({ by: ["symbolKey"] });
    expect(keys.map((k) => k.symbolKey).sort()).toEqual(["cn:000001", "index:000001.SH"]);
  });
});
