import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it, vi } from "vitest";
import type { LlmChannel } from "@/lib/analysis/llm/channels";
import type { LlmModelFactory } from "@/lib/analysis/llm/generate-report";
import { channel } from "@/tests/kits/llm-fixtures";
import { checkRankAnswer, rankWithModel } from "./llm-rank";
import type { TCandidate } from "./schemas";
import { BUILT_IN_STRATEGIES } from "./strategies";

vi.mock("@/lib/usage/record-usage", () => ({ recordLlmUsage: vi.fn(async () => true) }));

// The re-rank uses an answer only when its order names every candidate once and every figure its texts write is one
// of the candidates'; otherwise the next model is asked, and with none left the rule order stays.

const strategy = BUILT_IN_STRATEGIES.find((s) => s.id === "volume_surge")!;

function candidate(code: string, rank: number, ratio: number, price: number): TCandidate {
  return {
    code,
    name: `Stock ${code}`,
    market: "cn",
    rank,
    score: ratio,
    score_metric: "volume_ratio",
    reasons: [`volume ratio ${ratio} ≥ 3`],
    reason: `volume ratio ${ratio} ≥ 3`,
    price,
    change_pct: 2.15,
    amount: null,
    metrics: { volume_ratio: ratio, rsi14: 61.2 },
    last_bar_date: "2025-03-04",
    stale: false,
    closes: [price],
    bars_source: "csv",
    is_sample_data: false,
  };
}

const candidates = [candidate("600036", 1, 4.12, 35.6), candidate("300750", 2, 3.5, 210.3)];

function reply(text: string) {
  return {
    content: [{ type: "text" as const, text }],
    finishReason: { unified: "stop" as const, raw: "stop" },
    usage: {
      inputTokens: { total: 500, noCache: 500, cacheRead: 0, cacheWrite: 0 },
      outputTokens: { total: 80, text: 80, reasoning: 0 },
    },
    warnings: [],
  };
}

function factoryOf(answers: Record<string, string>): LlmModelFactory {
  return (ch: LlmChannel, model) =>
    new MockLanguageModelV3({ provider: ch.name, modelId: model, doGenerate: async () => reply(answers[model]!) });
}

const good = {
  order: ["300750", "600036"],
  market_view: "Both names trade on unusual volume; 300750 closed at 210.3.",
  selection_logic: "300750 first: a volume ratio of 3.5 with RSI 61.2 leaves room before overbought.",
  portfolio_risk: "Two stocks on one day's volume: a single session can reverse.",
};

describe("the screening re-rank by the model", () => {
  it("re-orders the candidates, keeps their rule rank and takes the texts when every figure is the data's", async () => {
    const patch = await rankWithModel(strategy, candidates, "en", false, {
      channels: [channel("main", ["m1"])],
      modelFactory: factoryOf({ m1: "```json\n" + JSON.stringify(good) + "\n```" }),
      recordUsage: false,
    });
    expect(patch).toMatchObject({
      ranking_mode: "llm",
      llm_ranked: true,
      llm_model_used: "main/m1",
      llm_failure_reason: null,
      llm_selection_logic: good.selection_logic,
    });
    expect(patch.candidates.map((c) => [c.code, c.rank, c.rule_rank])).toEqual([
      ["300750", 1, 2],
      ["600036", 2, 1],
    ]);
  });

  it("refuses an answer with a figure not in the data and asks the next model", async () => {
    const invented = { ...good, market_view: "300750 targets 245.00 next week." };
    const patch = await rankWithModel(strategy, candidates, "en", false, {
      channels: [channel("main", ["m1", "m2"])],
      modelFactory: factoryOf({ m1: JSON.stringify(invented), m2: JSON.stringify(good) }),
      recordUsage: false,
    });
    expect(patch).toMatchObject({ llm_ranked: true, llm_model_used: "main/m2" });
  });

  it("keeps the rule order and says why when no answer passes or no channel is configured", async () => {
    const missing = { ...good, order: ["300750"] };
    const refused = await rankWithModel(strategy, candidates, "en", false, {
      channels: [channel("main", ["m1"])],
      modelFactory: factoryOf({ m1: JSON.stringify(missing) }),
      recordUsage: false,
    });
    expect(refused).toMatchObject({ ranking_mode: "factor", llm_ranked: false, llm_market_view: null });
    expect(refused.llm_failure_reason).toMatch(/every candidate exactly once/);
    expect(refused.candidates).toEqual(candidates);
    const none = await rankWithModel(strategy, candidates, "en", false, { channels: [] });
    expect(none.llm_failure_reason).toBe("no LLM channel configured");
  });

  it("checks the answer's shape: JSON, its fields, and codes compared case-blind", () => {
    const data = { candidates };
    expect(checkRankAnswer("no json here", candidates, data)).toMatchObject({ ok: false });
    expect(checkRankAnswer(JSON.stringify({ order: ["300750", "600036"] }), candidates, data)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/fields/),
    });
    const us = [candidate("AAPL", 1, 3.1, 190.5)];
    const answer = JSON.stringify({
      ...good,
      order: ["aapl"],
      market_view: "x",
      selection_logic: "y",
      portfolio_risk: "z",
    });
    expect(checkRankAnswer(answer, us, { candidates: us })).toMatchObject({ ok: true, value: { order: ["AAPL"] } });
  });
});
