import { describe, expect, it } from "vitest";
import { ACTION_LABELS, sentimentLabel } from "@/lib/analysis/engine/action";
import { DECISION_ACTIONS } from "@/lib/analysis/engine/schemas";
import { en } from "./dictionaries/en";
import { zhCN } from "./dictionaries/zh-CN";
import { codeLabel, SENTIMENT_BANDS, sentimentBand } from "./labels";

// Labels come from the UI dictionary by code, in the UI language whatever the record's language.

describe("codeLabel", () => {
  it("maps a known code, shows an unknown code as stored and a missing one as the fallback", () => {
    expect(codeLabel({ watch: "观望" }, "watch")).toBe("观望");
    expect(codeLabel({ watch: "观望" }, "strong_buy")).toBe("strong_buy");
    expect(codeLabel({ watch: "观望" }, null)).toBe("—");
    expect(codeLabel({ watch: "观望" }, undefined, "")).toBe("");
    expect(codeLabel({ watch: "观望" }, "toString")).toBe("toString");
  });
});

describe("the dictionaries' action labels", () => {
  it.each(DECISION_ACTIONS)("history and portfolio label %s like the engine does in zh and en", (action) => {
    expect(zhCN.historyUi.actions[action]).toBe(ACTION_LABELS[action].zh);
    expect(en.historyUi.actions[action]).toBe(ACTION_LABELS[action].en);
    expect(zhCN.portfolioUi.decisionActions[action]).toBe(ACTION_LABELS[action].zh);
    expect(en.portfolioUi.decisionActions[action]).toBe(ACTION_LABELS[action].en);
  });
});

describe("sentimentBand", () => {
  it("bands at 80/60/40/20 and has no band without a score", () => {
    expect([100, 80, 79, 60, 59, 40, 39, 20, 19, 0].map(sentimentBand)).toEqual([
      "very_bullish",
      "very_bullish",
      "bullish",
      "bullish",
      "neutral",
      "neutral",
      "bearish",
      "bearish",
      "very_bearish",
      "very_bearish",
    ]);
    expect(sentimentBand(null)).toBeNull();
    expect(sentimentBand(Number.NaN)).toBeNull();
  });

  it("names each band as the engine's stored sentiment_label does, so zh and en readers see the same words as before", () => {
    for (const score of [95, 70, 50, 30, 5]) {
      const band = sentimentBand(score)!;
      expect(zhCN.historyUi.sentiments[band]).toBe(sentimentLabel(score, "zh"));
      expect(en.historyUi.sentiments[band]).toBe(sentimentLabel(score, "en"));
    }
    expect(Object.keys(zhCN.historyUi.sentiments).sort()).toEqual([...SENTIMENT_BANDS].sort());
  });
});
