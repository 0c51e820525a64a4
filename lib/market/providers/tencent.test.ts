import { afterEach, describe, expect, it, vi } from "vitest";
import { bodyResponse, fixtureBytes, fixtureText, replay, signal } from "@/tests/kits/market-replay";
import {
  createTencentProvider,
  parseTencentKline,
  parseTencentQuote,
  splitTencentQt,
  tencentFieldsToQuote,
  tencentSymbol,
} from "./tencent";

afterEach(() => vi.unstubAllGlobals());

describe("tencent parsers against recorded bodies", () => {
  it("qt sh600519 (GBK on the wire) → quote, every field", async () => {
    replay([[(u) => u.host === "qt.gtimg.cn", bodyResponse(fixtureBytes("tencent/qt-sh600519.gbk.txt"))]]);
    const q = await createTencentProvider().quote(
      { kind: "stock", market: "cn", code: "600519" },
      { signal: signal() },
    );
    expect(q).toEqual({
      price: 1277.96,
      change: 2.8,
      change_pct: 0.22,
      volume: 1_657_100,
      amount: 2_116_621_850,
      volume_ratio: 0.64,
      turnover_rate: 0.13,
      high: 1285.53,
      low: 1270.36,
      open: 1277.27,
      prev_close: 1275.16,
      time: "2026-09-14T16:14:50+08:00",
      name: "贵州茅台",
      source: "tencent",
    });
  });

  it("one reply for A/HK/US: HK shares and HKD amount, US time in New York (EDT), no volume ratio", () => {
    const text = fixtureText("tencent/qt-sz159995-hk00700-usAAPL.utf8.txt");
    expect([...splitTencentQt(text).keys()]).toEqual(["sz159995", "hk00700", "usAAPL"]);
    expect(parseTencentQuote(text, "hk00700", "hk")).toEqual({
      price: 443.4,
      change: 8.8,
      change_pct: 2.02,
      volume: 9_685_023,
      amount: 4_271_916_890.572,
      volume_ratio: null,
      turnover_rate: 0,
      high: 446.4,
      low: 435.4,
      open: 438.8,
      prev_close: 434.6,
      time: "2026-07-27T14:36:32+08:00",
      name: "腾讯控股",
      source: "tencent",
    });
    expect(parseTencentQuote(text, "usAAPL", "us")).toEqual({
      price: 333.02,
      change: 11.36,
      change_pct: 3.53,
      volume: 47_489_415,
      amount: 15_737_693_988,
      volume_ratio: null,
      turnover_rate: 0.32,
      high: 334.37,
      low: 321.62,
      open: 321.79,
      prev_close: 321.66,
      time: "2026-07-24T16:00:01-04:00",
      name: "苹果",
      source: "tencent",
    });
  });

  it("HK turnover 0 is kept as 0, not treated as missing", () => {
    const q = parseTencentQuote(fixtureText("tencent/qt-sz159995-hk00700-usAAPL.utf8.txt"), "hk00700", "hk");
    expect(q?.turnover_rate).toBe(0);
  });

  it("batch reply: the delisted sz002070 keeps its zeros (volume, change, turnover 0, not null); names with spaces survive", () => {
    const text = new TextDecoder("gbk").decode(fixtureBytes("tencent/qt-batch-sz002039-sz002098-2022-11-22.gbk.txt"));
    const entries = splitTencentQt(text);
    expect(entries.size).toBe(60);
    expect(tencentFieldsToQuote(entries.get("sz002070")!, "cn")).toMatchObject({
      price: 0.71,
      prev_close: 0.71,
      change: 0,
      change_pct: 0,
      volume: 0,
      amount: 0,
      turnover_rate: 0,
      volume_ratio: 0,
      open: null,
    });
    const quotes = [...entries.values()].map((f) => tencentFieldsToQuote(f, "cn")).filter((q) => q !== null);
    expect(quotes.length).toBeGreaterThan(50);
    expect(quotes.map((q) => q.name)).toContain("南 京 港");
  });

  it("fqkline day rows [date, open, close, high, low, volume] (index sh000001, lots → shares)", async () => {
    const { calls } = replay([
      [(u) => u.host === "web.ifzq.gtimg.cn", bodyResponse(fixtureBytes("tencent/fqkline-day-sh000001.json"))],
    ]);
    const index = { kind: "index", market: "cn", code: "000001.SH", canonicalId: "000001.SH" } as const;
    const bars = await createTencentProvider().dailyBars(index, 60, { signal: signal() });
    expect(calls[0]!.searchParams.get("param")).toBe("sh000001,day,,,60,qfq");
    expect(bars).toHaveLength(60);
    // ["1990-12-20","113.100","113.500","113.500","112.850","1990.000"]
    expect(bars[1]).toEqual({
      date: "1990-12-20",
      open: 113.1,
      close: 113.5,
      high: 113.5,
      low: 112.85,
      volume: 199_000,
      amount: null,
      turnover_rate: null,
      source: "tencent",
    });
    expect(bars.at(-1)).toMatchObject({
      date: "1991-03-15",
      open: 123.2,
      close: 123.3,
      high: 123.3,
      low: 123.2,
      volume: 318_000,
    });
  });

  it("fqkline error code is garbage, an empty day list is no data", () => {
    expect(() => parseTencentKline('{"code":1,"msg":"bad params"}', "sh600519", "cn")).toThrow(/bad params/);
    expect(parseTencentKline('{"code":0,"msg":"","data":{"sh600519":{"day":[],"qt":{}}}}', "sh600519", "cn")).toEqual(
      [],
    );
  });

  it("Tencent symbols per market, indices from the registry", () => {
    expect(tencentSymbol({ kind: "stock", market: "cn", code: "000001" })).toBe("sz000001");
    expect(tencentSymbol({ kind: "stock", market: "cn", code: "920748" })).toBe("bj920748");
    expect(tencentSymbol({ kind: "stock", market: "hk", code: "00700" })).toBe("hk00700");
    expect(tencentSymbol({ kind: "stock", market: "us", code: "AAPL" })).toBe("usAAPL");
    expect(tencentSymbol({ kind: "index", market: "us", code: "SPX", canonicalId: "SPX" })).toBe("us.INX");
  });
});
