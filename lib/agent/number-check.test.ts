import { describe, expect, it } from "vitest";
import { checkAnswer, extractFigures, matches, numbersIn, turnCodes, turnSources } from "./number-check";

// Every price, percentage and level of an answer must be a value the turn's tools returned.

const quote = {
  tool: "get_realtime_quote",
  output: { code: "600519", price: 1712.5, change_pct: -1.234, high: 1730, low: 1698.88, date: "2026-11-26" },
};
const trend = {
  tool: "analyze_trend",
  output: {
    plan: { stop_loss: 1650.2, take_profit: 1820 },
    rsi: { rsi6: 41.37 },
    conclusion: "MA20 support near 1,690.00",
  },
};

function check(answer: string, user = "is 600519 still a buy?") {
  return checkAnswer(
    answer,
    turnSources([quote, trend], user, null),
    turnCodes([{ input: { code: "600519" }, output: quote.output }], user),
  );
}

describe("figures of an answer", () => {
  it("reads decimals, percentages and integers of 100 and more; skips dates, times, codes, MA periods and small counts", () => {
    const figures = extractFigures(
      "贵州茅台（600519）2026-11-26 14:30 现价 1712.50，跌 1.23%，MA20 上方，3 天内，RSI6 41.4，目标 1820",
      new Set(["600519"]),
    );
    expect(figures.map((f) => f.text)).toEqual(["1712.50", "1.23%", "41.4", "1820"]);
    expect(figures.find((f) => f.text === "1712.50")!.key).toBe(true);
    expect(figures.find((f) => f.text === "1.23%")!.key).toBe(false);
    expect(figures.find((f) => f.text === "1820")!.key).toBe(true);
  });

  it("reads thousands separators and negative signs", () => {
    expect(extractFigures("stop at 1,650.20 and a −2.5% day").map((f) => f.value)).toEqual([1650.2, -2.5]);
  });

  it("matches at the precision written: 1712.5 is 1712.50 and 1713, not 1712.6", () => {
    expect(matches({ value: 1712.5, decimals: 2, percent: false }, 1712.5)).toBe(true);
    expect(matches({ value: 1713, decimals: 0, percent: false }, 1712.5)).toBe(true);
    expect(matches({ value: 1712.6, decimals: 1, percent: false }, 1712.5)).toBe(false);
    expect(matches({ value: 1.23, decimals: 2, percent: true }, -1.234)).toBe(true);
    expect(matches({ value: 12.3, decimals: 1, percent: true }, 0.123)).toBe(true);
  });

  it("collects numbers from nested outputs and from numbers written in texts", () => {
    expect(numbersIn({ a: [1, { b: 2.5 }], c: "near 1,690.00 and 3%" })).toEqual([1, 2.5, 1690, 3]);
  });
});

describe("checkAnswer", () => {
  it("verifies figures the tools returned, rounded as written", () => {
    const checks = check("现价 1712.50 元，跌 1.23%。止损 1650.2，目标 1820，RSI6 为 41.4；MA20 支撑 1690。");
    expect(checks.status).toBe("ok");
    expect(checks.unverified).toEqual([]);
    expect(checks.figures.every((f) => f.verified)).toBe(true);
    expect(checks.figures.find((f) => f.text === "1650.2")!.source).toBe("analyze_trend");
  });

  it("lists an invented price as an unverified key figure", () => {
    const checks = check("现价 1712.50，目标价 2000.00，上涨空间 16.8%。");
    expect(checks.status).toBe("warning");
    expect(checks.unverified).toEqual(["2000.00", "16.8%"]);
    expect(checks.key_unverified).toBe(true);
  });

  it("a derived percentage alone is unverified but not a key figure", () => {
    const checks = check("The price 1712.50 sits 3.7% above the stop.");
    expect(checks.unverified).toEqual(["3.7%"]);
    expect(checks.key_unverified).toBe(false);
  });

  it("numbers the user wrote are not invented", () => {
    const checks = check("You bought at 1500.00; the price is 1712.50 now.", "I bought 600519 at 1500.00, sell?");
    expect(checks.unverified).toEqual([]);
  });

  it("an answer without figures is skipped", () => {
    expect(check("The trend is intact; wait for a pullback.").status).toBe("skipped");
  });
});
