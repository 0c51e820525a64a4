import { describe, expect, it } from "vitest";
import {
  actionLabel,
  classifyAdviceText,
  classifyDecisionAction,
  normalizeActionValue,
  scoreBand,
  sentimentLabel,
} from "./action";
import { normalizeReportLanguage } from "./language";
import { DECISION_ACTIONS } from "./schemas";

describe("decision-action classification (spec 2.6 rule 1, docs/api.md §7)", () => {
  it("docs/api.md §7: the full taxonomy with zh/en labels", () => {
    expect(DECISION_ACTIONS).toEqual(["buy", "add", "hold", "reduce", "sell", "watch", "avoid", "alert"]);
    expect(DECISION_ACTIONS.map((a) => actionLabel(a, "zh"))).toEqual([
      "买入",
      "加仓",
      "持有",
      "减仓",
      "卖出",
      "观望",
      "回避",
      "预警",
    ]);
    expect(DECISION_ACTIONS.map((a) => actionLabel(a, "en"))).toEqual([
      "Buy",
      "Add",
      "Hold",
      "Reduce",
      "Sell",
      "Watch",
      "Avoid",
      "Alert",
    ]);
    expect(actionLabel(null, "zh")).toBeNull();
  });

  it("docs/api.md §7: aliases strong buy→buy, accumulate→add, trim→reduce, strong sell→sell, wait→watch", () => {
    expect(normalizeActionValue("strong buy")).toBe("buy");
    expect(normalizeActionValue("Strong_Buy")).toBe("buy");
    expect(normalizeActionValue("accumulate")).toBe("add");
    expect(normalizeActionValue("trim")).toBe("reduce");
    expect(normalizeActionValue("STRONG SELL")).toBe("sell");
    expect(normalizeActionValue("wait")).toBe("watch");
    expect(normalizeActionValue("观望")).toBe("watch");
    expect(normalizeActionValue("maybe")).toBeNull();
    expect(classifyAdviceText("Strong buy on the pullback")).toBe("buy");
    expect(classifyAdviceText("Accumulate slowly")).toBe("add");
    expect(classifyAdviceText("Trim the position into strength")).toBe("reduce");
    expect(classifyAdviceText("strong sell")).toBe("sell");
    expect(classifyAdviceText("Wait and see")).toBe("watch");
  });

  it("docs/api.md §7: every action from a unique keyword, zh and en", () => {
    const cases: [string, string][] = [
      ["逢低买入", "buy"],
      ["可适当加仓", "add"],
      ["继续持有", "hold"],
      ["逢高减仓", "reduce"],
      ["清仓卖出", "sell"],
      ["持币观望", "watch"],
      ["回避该股", "avoid"],
      ["风险预警", "alert"],
      ["Buy near support", "buy"],
      ["Add to position on dips", "add"],
      ["Hold", "hold"],
      ["Reduce exposure", "reduce"],
      ["Sell into strength", "sell"],
      ["Watch from the sidelines", "watch"],
      ["Avoid this name", "avoid"],
      ["Alert: earnings risk", "alert"],
    ];
    for (const [text, action] of cases) expect([text, classifyAdviceText(text)]).toEqual([text, action]);
  });

  it("docs/api.md §7: negated advice maps to hold/avoid (不建议加仓, do not sell)", () => {
    expect(classifyAdviceText("不建议加仓")).toBe("hold");
    expect(classifyAdviceText("do not sell")).toBe("hold");
    expect(classifyAdviceText("Don't sell here")).toBe("hold");
    expect(classifyAdviceText("不宜减仓")).toBe("hold");
    expect(classifyAdviceText("not recommended to reduce")).toBe("hold");
    expect(classifyAdviceText("不建议买入")).toBe("avoid");
    expect(classifyAdviceText("暂不买入")).toBe("avoid");
    expect(classifyAdviceText("don't buy")).toBe("avoid");
    expect(classifyAdviceText("avoid buying for now")).toBe("avoid");
    expect(classifyAdviceText("不要卖出，继续持有")).toBe("hold");
  });

  it("docs/api.md §7: deferred entries ('wait to buy', 等回调再买入) read as watch", () => {
    expect(classifyAdviceText("Wait for a pullback to buy")).toBe("watch");
    expect(classifyAdviceText("等回调企稳后再买入")).toBe("watch");
  });

  it("docs/api.md §7: ambiguous or empty text → null", () => {
    expect(classifyAdviceText("买入或卖出均可")).toBeNull();
    expect(classifyAdviceText("buy or sell")).toBeNull();
    expect(classifyAdviceText("持有者继续持有，空仓者观望")).toBeNull();
    expect(classifyAdviceText("走势复杂")).toBeNull();
    expect(classifyAdviceText("")).toBeNull();
    expect(classifyDecisionAction({ advice: "buy or sell", score: 85 })).toMatchObject({
      action: null,
      source: "none",
    });
  });

  it("docs/api.md §7: score bands 80/60/40/20", () => {
    expect([100, 80, 79, 60, 59, 40, 39, 20, 19, 0].map(scoreBand)).toEqual([
      "strong_buy",
      "strong_buy",
      "buy",
      "buy",
      "watch",
      "watch",
      "reduce",
      "reduce",
      "sell",
      "sell",
    ]);
    expect(scoreBand(null)).toBeNull();
  });

  it("spec 2.6 rule 1 / docs/api.md §7: the score band wins a conflict when no guardrail reason is recorded", () => {
    expect(classifyDecisionAction({ advice: "买入", score: 15 })).toMatchObject({
      action: "sell",
      source: "score_band",
      overridden: true,
      text_action: "buy",
    });
    expect(classifyDecisionAction({ advice: "Sell now", score: 85 })).toMatchObject({
      action: "buy",
      overridden: true,
    });
    expect(classifyDecisionAction({ advice: "hold", score: 30 })).toMatchObject({ action: "reduce", overridden: true });
    // Same direction is no conflict: add in the buy band, hold in the watch band.
    expect(classifyDecisionAction({ advice: "加仓", score: 70 })).toMatchObject({
      action: "add",
      overridden: false,
      source: "text",
    });
    expect(classifyDecisionAction({ advice: "持有", score: 50 })).toMatchObject({ action: "hold", overridden: false });
    // An explicit value goes through the same check.
    expect(classifyDecisionAction({ value: "strong buy", score: 70 })).toMatchObject({
      action: "buy",
      source: "value",
    });
  });

  it("spec 2.6 rule 1: a recorded guardrail reason keeps the text's action against the band", () => {
    const guard = [{ code: "chasing", message: "do not chase" }];
    expect(classifyDecisionAction({ advice: "观望：不追高", score: 75, guardrailReasons: guard })).toMatchObject({
      action: "watch",
      overridden: false,
    });
    expect(classifyDecisionAction({ advice: "观望：不追高", score: 75 })).toMatchObject({
      action: "buy",
      overridden: true,
    });
  });

  it("a guardrail explains only a more cautious action, never a direction the band lacks", () => {
    const guard = [{ code: "chasing", message: "do not chase" }];
    expect(classifyDecisionAction({ value: "buy", score: 50, guardrailReasons: guard })).toMatchObject({
      action: "watch",
      overridden: true,
      text_action: "buy",
    });
    expect(classifyDecisionAction({ value: "sell", score: 70, guardrailReasons: guard })).toMatchObject({
      action: "buy",
      overridden: true,
    });
    expect(classifyDecisionAction({ value: "hold", score: 15, guardrailReasons: guard })).toMatchObject({
      action: "hold",
      overridden: false,
    });
  });

  it("docs/api.md §7: market reviews have no action; no score means the text alone decides", () => {
    expect(classifyDecisionAction({ advice: "买入", score: 90, reportType: "market_review" }).action).toBeNull();
    expect(classifyDecisionAction({ advice: "买入", score: null })).toMatchObject({ action: "buy", overridden: false });
  });

  it("docs/api.md §7: sentiment labels at 80/60/40/20", () => {
    expect([80, 60, 40, 20, 19].map((s) => sentimentLabel(s, "zh"))).toEqual([
      "极度乐观",
      "乐观",
      "中性",
      "悲观",
      "极度悲观",
    ]);
    expect([100, 79, 59, 39, 0].map((s) => sentimentLabel(s, "en"))).toEqual([
      "Very bullish",
      "Bullish",
      "Neutral",
      "Bearish",
      "Very bearish",
    ]);
    expect(sentimentLabel(null, "zh")).toBeNull();
  });
});

describe("report_language (docs/api.md §7)", () => {
  it("docs/api.md §7: zh default and aliases; anything else → the default", () => {
    for (const v of ["zh", "zh-cn", "zh_cn", "ZH-Hans", "zh-tw", "cn", "Chinese"])
      expect(normalizeReportLanguage(v)).toBe("zh");
    for (const v of ["en", "english", "en-US", "en_gb"]) expect(normalizeReportLanguage(v)).toBe("en");
    expect(normalizeReportLanguage("ko")).toBe("zh");
    expect(normalizeReportLanguage(undefined)).toBe("zh");
    expect(normalizeReportLanguage("fr", "en")).toBe("en");
    expect(normalizeReportLanguage("fr", "bogus")).toBe("zh");
  });
});
