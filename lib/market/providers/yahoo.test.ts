import { afterEach, describe, expect, it, vi } from "vitest";
import { bodyResponse, fixtureBytes, fixtureText, replay, signal } from "@/tests/kits/market-replay";
import { createYahooProvider, parseYahooChartBars, parseYahooChartQuote, yahooRange, yahooSymbol } from "./yahoo";

afterEach(() => vi.unstubAllGlobals());

const CHART = "yahoo/chart-v8-AAPL-1d-2020-08-31_2020-11-07.json";

describe("yahoo chart v8 against the recorded body", () => {
  it("49 daily bars, dated in New York, OHLCV per index", () => {
    const bars = parseYahooChartBars(fixtureText(CHART), "us");
    expect(bars).toHaveLength(49);
    const raw = JSON.parse(fixtureText(CHART)).chart.result[0];
    const q = raw.indicators.quote[0];
    expect(bars[0]).toEqual({
      date: "2020-08-31",
      open: Math.round(q.open[0] * 1e4) / 1e4,
      high: Math.round(q.high[0] * 1e4) / 1e4,
      low: Math.round(q.low[0] * 1e4) / 1e4,
      close: 129.04,
      volume: q.volume[0],
      amount: null,
      turnover_rate: null,
      source: "yahoo",
    });
    expect(bars.at(-1)!.date).toBe("2020-11-06");
  });

  it("a chart whose bars end years before meta's market time gives no quote (no daily change)", () => {
    expect(parseYahooChartQuote(fixtureText(CHART), "us")).toBeNull();
  });

  it("quote from meta + bars when the range reaches the session (recorded body, meta time moved to its last bar)", () => {
    const body = JSON.parse(fixtureText(CHART));
    const result = body.chart.result[0];
    const lastTs = result.timestamp.at(-1) as number;
    Object.assign(result.meta, { regularMarketTime: lastTs + 6.5 * 3600, regularMarketPrice: 118.69 });
    const q = parseYahooChartQuote(JSON.stringify(body), "us");
    const closes = result.indicators.quote[0].close as number[];
    const prev = Math.round(closes.at(-2)! * 1e4) / 1e4;
    expect(q).toMatchObject({
      price: 118.69,
      prev_close: prev,
      time: "2020-11-06T16:00:00-05:00",
      source: "yahoo",
      high: 246.01,
    });
    expect(q!.change).toBeCloseTo(118.69 - prev, 4);
  });

  it("Yahoo symbols for US/HK; A-shares are not served", () => {
    expect(yahooSymbol({ kind: "stock", market: "us", code: "BRK.B" })).toBe("BRK-B");
    expect(yahooSymbol({ kind: "stock", market: "hk", code: "00700" })).toBe("0700.HK");
    expect(yahooSymbol({ kind: "stock", market: "hk", code: "09988" })).toBe("9988.HK");
    expect(yahooSymbol({ kind: "index", market: "hk", code: "HSI", canonicalId: "HSI" })).toBe("^HSI");
    expect(yahooSymbol({ kind: "stock", market: "cn", code: "600519" })).toBeNull();
    expect(yahooRange(120)).toBe("6mo");
  });

  it("dailyBars fetches the chart endpoint and replays the body", async () => {
    const { calls } = replay([[(u) => u.pathname.startsWith("/v8/finance/chart/"), bodyResponse(fixtureBytes(CHART))]]);
    const bars = await createYahooProvider().dailyBars({ kind: "stock", market: "us", code: "AAPL" }, 20, {
      signal: signal(),
    });
    expect(bars).toHaveLength(20);
    expect(calls[0]!.pathname).toBe("/v8/finance/chart/AAPL");
    expect(calls[0]!.searchParams.get("range")).toBe("1mo");
  });

  it("an error reply for an unknown symbol is no data", () => {
    expect(
      parseYahooChartBars('{"chart":{"result":null,"error":{"code":"Not Found","description":"No data found"}}}', "us"),
    ).toEqual([]);
  });
});
