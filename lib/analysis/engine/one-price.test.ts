import { describe, expect, it } from "vitest";
import { fixtureText } from "@/tests/kits/market-replay";
import { parseTencentQuote } from "@/lib/market/providers/tencent";
import { parseYahooChartBars } from "@/lib/market/providers/yahoo";
import { mergeQuoteBars } from "./indicators";
import { buildRuleReport } from "./rule-report";

// One price on recorded provider bodies: the daily bars (Yahoo chart, ending 2020-11-06) lag the quote
// (Tencent, 2026-07-24 close): the headline price, the indicators and the chart's last candle are one figure.

const BARS = parseYahooChartBars(fixtureText("yahoo/chart-v8-AAPL-1d-2020-08-31_2020-11-07.json"), "us");
const QUOTE = parseTencentQuote(fixtureText("tencent/qt-sz159995-hk00700-usAAPL.utf8.txt"), "usAAPL", "us")!;
const TARGET = { kind: "stock" as const, market: "us" as const, code: "AAPL", name: "苹果" };

describe("one price everywhere", () => {
  it("bars that lag the quote: today's candle is built from the quote and the price is the quote's", () => {
    const series = mergeQuoteBars(BARS, QUOTE, "us");
    expect(series.merge).toBe("appended");
    const today = series.bars.at(-1)!;
    expect(today).toMatchObject({
      date: "2026-07-24",
      open: 321.79,
      high: 334.37,
      low: 321.62,
      close: 333.02,
      volume: 47_489_415,
      source: "tencent",
    });
    expect(series.bars.slice(0, -1)).toEqual(BARS);

    const report = buildRuleReport({
      target: TARGET,
      bars: BARS,
      quote: QUOTE,
      dataSource: "yahoo",
      language: "en",
      phase: "postmarket",
    });
    expect(report.indicators.price).toBe(today.close);
    expect(report.indicators.price).toBe(QUOTE.price);
    expect(report.indicators.change_pct).toBe(QUOTE.change_pct);
    // The phase names the quote: after the close it is not an intraday price.
    expect(report.summary.analysis_summary).toContain("at 333.02 (after-close quote; today's candle is built from it)");
    const live = buildRuleReport({
      target: TARGET,
      bars: BARS,
      quote: QUOTE,
      dataSource: "yahoo",
      language: "zh",
      phase: "intraday",
    });
    expect(live.summary.analysis_summary).toContain("现价333.02（盘中实时价，今日K线由行情快照合成）");
    const early = buildRuleReport({
      target: TARGET,
      bars: BARS,
      quote: QUOTE,
      dataSource: "yahoo",
      language: "zh",
      phase: "premarket",
    });
    expect(early.summary.analysis_summary).not.toContain("盘中");
  });

  it("a quote older than the last bar is ignored: the last close is the price, as of that close", () => {
    const stale = { ...QUOTE, time: "2020-11-05T16:00:00-05:00" };
    const series = mergeQuoteBars(BARS, stale, "us");
    expect(series).toEqual({ bars: BARS, merge: "ignored_stale" });
    const report = buildRuleReport({
      target: TARGET,
      bars: BARS,
      quote: stale,
      dataSource: "yahoo",
      language: "zh",
      phase: "postmarket",
    });
    expect(report.indicators.price).toBe(BARS.at(-1)!.close);
    expect(report.summary.analysis_summary).toContain(`现价${BARS.at(-1)!.close.toFixed(2)}（截至2020-11-06收盘）`);
  });

  it("a quote of the last bar's own session replaces that close (no second candle)", () => {
    const sameDay = { ...QUOTE, time: "2020-11-06T15:59:00-05:00", price: 119.5 };
    const series = mergeQuoteBars(BARS, sameDay, "us");
    expect(series.merge).toBe("replaced");
    expect(series.bars).toHaveLength(BARS.length);
    expect(series.bars.at(-1)).toMatchObject({ date: "2020-11-06", close: 119.5 });
  });
});
