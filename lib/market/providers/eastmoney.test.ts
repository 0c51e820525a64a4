import { afterEach, describe, expect, it, vi } from "vitest";
import { bodyResponse, fixtureBytes, fixtureText, replay, signal } from "@/tests/kits/market-replay";
import { createEastmoneyProvider, eastmoneySecids, parseEastmoneyKline, parseEastmoneyQuote } from "./eastmoney";
import { ProviderResponseError } from "./types";

afterEach(() => vi.unstubAllGlobals());

const moutai = { kind: "stock", market: "cn", code: "600519", exchange: "SH" } as const;
const cmShipping = { kind: "stock", market: "cn", code: "601872" } as const;

describe("eastmoney parsers against recorded bodies", () => {
  it("daily kline 1.601872 (qfq) parses every column; A-share lots become shares", () => {
    const bars = parseEastmoneyKline(fixtureText("eastmoney/kline-daily-1.601872-qfq.json"), "cn");
    expect(bars).toHaveLength(10);
    // "2024-12-18,6.11,6.18,6.28,6.10,842743,542829495.00,2.96,1.64,0.10,1.03": open, close, high, low order
    expect(bars[0]).toEqual({
      date: "2024-12-18",
      open: 6.11,
      close: 6.18,
      high: 6.28,
      low: 6.1,
      volume: 84_274_300,
      amount: 542_829_495,
      turnover_rate: 1.03,
      source: "eastmoney",
    });
    expect(bars[9]).toEqual({
      date: "2024-12-31",
      open: 6.29,
      close: 6.18,
      high: 6.32,
      low: 6.17,
      volume: 48_379_400,
      amount: 313_479_921,
      turnover_rate: 0.59,
      source: "eastmoney",
    });
    expect(bars.map((b) => b.date)).toEqual([...bars.map((b) => b.date)].sort());
  });

  it("rc 100 / data null is 'no data' (empty), not an error", () => {
    expect(parseEastmoneyKline(fixtureText("eastmoney/kline-no-data-rc100.json"), "cn")).toEqual([]);
  });

  it("JSONP US kline (105.APP) keeps shares and 3-decimal prices; a 0.00 change row stays", () => {
    const bars = parseEastmoneyKline(fixtureText("eastmoney/kline-weekly-105.APP.jsonp.txt"), "us");
    expect(bars).toHaveLength(6);
    expect(bars[0]).toMatchObject({
      date: "2021-04-16",
      open: 70,
      close: 61,
      high: 71.51,
      low: 58.65,
      volume: 15_643_711,
      amount: 1_034_038_718,
      turnover_rate: 4.37,
    });
    expect(bars[5]).toMatchObject({ date: "2021-05-21", high: 70.17, low: 55.825, close: 68.35 });
  });

  it("stock/get full reply → quote with every field scaled (÷100 prices and ratios)", () => {
    const q = parseEastmoneyQuote(fixtureText("eastmoney/stock-get-1.600519-full.json"), "cn");
    expect(q).toEqual({
      price: 1272.75,
      change: -5.21,
      change_pct: -0.41,
      volume: 1_376_200,
      amount: 1_756_915_149,
      volume_ratio: 0.57,
      turnover_rate: 0.11,
      high: 1284.5,
      low: 1271.28,
      open: 1281,
      prev_close: 1277.96,
      time: "2026-09-15T16:11:58+08:00",
      name: "贵州茅台",
      source: "eastmoney",
    });
  });

  it("stock/get minimal reply → quote with the fields it has, the rest null", () => {
    const q = parseEastmoneyQuote(fixtureText("eastmoney/stock-get-1.600519-minimal.json"), "cn");
    expect(q).toMatchObject({
      price: 1277.96,
      prev_close: 1275.16,
      change: 2.8,
      change_pct: 0.22,
      volume: null,
      amount: null,
      high: null,
      volume_ratio: null,
    });
  });

  it("a body that is not the envelope is rejected as garbage", () => {
    expect(() => parseEastmoneyKline("<html>blocked</html>", "cn")).toThrow(ProviderResponseError);
    expect(() => parseEastmoneyKline('{"rc":0,"data":{"klines":["2024-12-18,x,y"]}}', "cn")).toThrow();
  });
});

describe("eastmoney provider over fetch", () => {
  it("secids per market (SH 1., SZ/BJ 0., HK 116., US 105→106→107, index from the registry)", () => {
    expect(eastmoneySecids(moutai)).toEqual(["1.600519"]);
    expect(eastmoneySecids({ kind: "stock", market: "cn", code: "000001" })).toEqual(["0.000001"]);
    expect(eastmoneySecids({ kind: "stock", market: "hk", code: "00700" })).toEqual(["116.00700"]);
    expect(eastmoneySecids({ kind: "stock", market: "us", code: "AAPL" })).toEqual([
      "105.AAPL",
      "106.AAPL",
      "107.AAPL",
    ]);
    expect(eastmoneySecids({ kind: "index", market: "cn", code: "000300.SH", canonicalId: "000300.SH" })).toEqual([
      "1.000300",
    ]);
  });

  it("dailyBars requests the recorded kline URL and replays its body", async () => {
    const { calls } = replay([
      [
        (u) => u.pathname === "/api/qt/stock/kline/get",
        bodyResponse(fixtureBytes("eastmoney/kline-daily-1.601872-qfq.json")),
      ],
    ]);
    const bars = await createEastmoneyProvider().dailyBars(cmShipping, 10, { signal: signal() });
    expect(bars).toHaveLength(10);
    const url = calls[0]!;
    expect(url.host).toBe("push2his.eastmoney.com");
    expect(Object.fromEntries(url.searchParams)).toMatchObject({ secid: "1.601872", klt: "101", fqt: "1", lmt: "10" });
  });

  it("a US ticker tries 105 then 106 when the first answers no data", async () => {
    const { calls } = replay([
      [
        (u) => u.searchParams.get("secid") === "105.APP",
        bodyResponse(fixtureBytes("eastmoney/kline-no-data-rc100.json")),
      ],
      [
        (u) => u.searchParams.get("secid") === "106.APP",
        bodyResponse(fixtureBytes("eastmoney/kline-weekly-105.APP.jsonp.txt")),
      ],
    ]);
    const bars = await createEastmoneyProvider().dailyBars({ kind: "stock", market: "us", code: "APP" }, 6, {
      signal: signal(),
    });
    expect(bars).toHaveLength(6);
    expect(calls.map((u) => u.searchParams.get("secid"))).toEqual(["105.APP", "106.APP"]);
  });

  it("quote requests stock/get for the secid", async () => {
    const { calls } = replay([
      [(u) => u.pathname === "/api/qt/stock/get", bodyResponse(fixtureBytes("eastmoney/stock-get-1.600519-full.json"))],
    ]);
    const q = await createEastmoneyProvider().quote(moutai, { signal: signal() });
    expect(q?.price).toBe(1272.75);
    expect(calls[0]!.searchParams.get("secid")).toBe("1.600519");
  });
});
