import { describe, expect, it } from "vitest";
import type { TQuote } from "@/lib/market";
import { checkQuoteCondition, describeRule } from "./conditions";

const quote: TQuote = {
  price: 100, change: -6, change_pct: -5.66, volume: 1, amount: 1, volume_ratio: 2.5, turnover_rate: 1, high: 101, low: 99, open: 100, prev_close: 106,
  time: "2026-11-19T10:00:00+08:00", source: "sample",
};

describe("alert conditions (issue 9 item 2)", () => {
  it("price above/below are strict; the change rule reads the absolute daily change; volume ratio is at least", () => {
    expect(checkQuoteCondition("price_above", { price: 100 }, quote).met).toBe(false);
    expect(checkQuoteCondition("price_above", { price: 99.99 }, quote).met).toBe(true);
    expect(checkQuoteCondition("price_below", { price: 100 }, quote).met).toBe(false);
    expect(checkQuoteCondition("change_pct_beyond", { change_pct: 5 }, quote)).toMatchObject({ met: true, observed: -5.66, threshold: 5 });
    expect(checkQuoteCondition("change_pct_beyond", { change_pct: 6 }, quote).met).toBe(false);
    expect(checkQuoteCondition("volume_ratio_above", { ratio: 2.5 }, quote).met).toBe(true);
    expect(checkQuoteCondition("volume_ratio_above", { ratio: 2 }, { ...quote, volume_ratio: null })).toMatchObject({ met: false, observed: null });
  });

  it("default rule names follow the report language", () => {
    expect(describeRule("price_above", "600519", { price: 1500 }, "zh")).toBe("600519 价格高于 1500");
    expect(describeRule("price_above", "600519", { price: 1500 }, "en")).toBe("600519 price above 1500");
    expect(describeRule("signal_action", "AAPL", { action: "sell" }, "zh")).toBe("AAPL 新卖出信号");
  });
});
