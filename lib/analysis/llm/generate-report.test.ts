import { APICallError } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import type { LlmChannel } from "./channels";
import {
  checkReportAgainstData,
  generateLlmReport,
  scrub,
  type LlmModelFactory,
  type LlmOutputMode,
} from "./generate-report";
import { buildReportPrompt } from "./prompt";
import { ZLlmReport } from "./report-schema";
import { channel, sampleContext, validReport } from "@/tests/kits/llm-fixtures";

type Behaviour = string | Error | ((options: { abortSignal?: AbortSignal }) => Promise<string>);

function answer(text: string) {
  return {
    content: [{ type: "text" as const, text }],
    finishReason: { unified: "stop" as const, raw: "stop" },
    usage: {
      inputTokens: { total: 120, noCache: 120, cacheRead: 0, cacheWrite: 0 },
      outputTokens: { total: 80, text: 80, reasoning: 0 },
    },
    warnings: [],
  };
}

/** Mock models by name; records which (channel, model, mode, key) was built and each model's calls. */
function mockFactory(behaviours: Record<string, Behaviour>) {
  const built: { channel: string; model: string; mode: LlmOutputMode; apiKey: string }[] = [];
  const models: Record<string, MockLanguageModelV3> = {};
  const factory: LlmModelFactory = (ch: LlmChannel, model, mode, apiKey) => {
    built.push({ channel: ch.name, model, mode, apiKey });
    const behaviour = behaviours[`${ch.name}/${model}`] ?? behaviours[model];
    const mock = new MockLanguageModelV3({
      provider: ch.name,
      modelId: model,
      doGenerate: async (options) => {
        if (behaviour === undefined) throw new Error(`no behaviour for ${model}`);
        if (behaviour instanceof Error) throw behaviour;
        if (typeof behaviour === "function") return answer(await behaviour(options));
        return answer(behaviour);
      },
    });
    models[`${ch.name}/${model}`] = mock;
    return mock;
  };
  return { factory, built, models };
}

const good = JSON.stringify(validReport());
const http500 = (key: string) =>
  new APICallError({
    message: `upstream exploded (key ${key})`,
    url: "http://127.0.0.1:9/v1/chat/completions",
    requestBodyValues: {},
    statusCode: 500,
    responseBody: "{}",
    isRetryable: true,
  });

describe("generateLlmReport with mock models", () => {
  it("no channel → not ok, no attempts (rule-based only)", async () => {
    const r = await generateLlmReport(sampleContext(), { channels: [], recordUsage: false });
    expect(r).toEqual({ ok: false, reason: "no LLM channel configured", attempts: [] });
  });

  it("a valid answer is returned with its channel, model and token usage", async () => {
    const { factory } = mockFactory({ "m-1": good });
    const r = await generateLlmReport(sampleContext(), {
      channels: [channel("a", ["m-1"])],
      modelFactory: factory,
      recordUsage: false,
    });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.channel).toBe("a");
    expect(r.model).toBe("m-1");
    expect(r.report).toEqual(validReport());
    expect(r.attempts).toEqual([
      expect.objectContaining({
        channel: "a",
        model: "m-1",
        ok: true,
        code: "ok",
        reason: "ok",
        mode: "json_object",
        promptTokens: 120,
        completionTokens: 80,
        totalTokens: 200,
      }),
    ]);
  });

  it("channels in order, models in order; HTTP 500, invalid JSON, schema mismatch and a stop loss above price fall through", async () => {
    const a = channel("a", ["m-500", "m-badjson"]);
    const b = channel("b", ["m-schema", "m-stop", "m-good"]);
    const badStop = JSON.stringify(validReport({ levels: { stop_loss: 104 } }));
    const badSchema = JSON.stringify({
      ...validReport(),
      core_conclusion: { ...validReport().core_conclusion, score: 150 },
    });
    const { factory, built } = mockFactory({
      "m-500": http500(a.apiKey),
      "m-badjson": "this is not json {",
      "m-schema": badSchema,
      "m-stop": badStop,
      "m-good": good,
    });
    const r = await generateLlmReport(sampleContext(), { channels: [a, b], modelFactory: factory, recordUsage: false });
    expect(r.ok).toBe(true);
    expect(built.map((x) => `${x.channel}/${x.model}`)).toEqual([
      "a/m-500",
      "a/m-badjson",
      "b/m-schema",
      "b/m-stop",
      "b/m-good",
    ]);
    expect(r.attempts.map((x) => x.code)).toEqual([
      "http_error",
      "invalid_json",
      "schema_mismatch",
      "data_check",
      "ok",
    ]);
    expect(r.attempts[0]).toMatchObject({ status: 500 });
    expect(r.attempts[2]!.reason).toMatch(/core_conclusion\.score/);
    expect(r.attempts[3]!.reason).toMatch(/stop_loss 104 is not below the price 100/);
    // The key the provider echoed in its error is not in the attempt.
    expect(JSON.stringify(r)).not.toContain(a.apiKey);
    expect(r.attempts[0]!.reason).toContain("[redacted]");
  });

  it("a call past its time limit is a timeout and the next model is tried", async () => {
    const slow: Behaviour = ({ abortSignal }) =>
      new Promise((_, reject) => {
        abortSignal?.addEventListener("abort", () => reject(abortSignal.reason), { once: true });
      });
    const { factory } = mockFactory({ "m-slow": slow, "m-good": good });
    const started = Date.now();
    const r = await generateLlmReport(sampleContext(), {
      channels: [channel("a", ["m-slow", "m-good"])],
      modelFactory: factory,
      recordUsage: false,
      timeoutMs: 100,
    });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(r.ok).toBe(true);
    expect(r.attempts.map((x) => x.code)).toEqual(["timeout", "ok"]);
    expect(r.attempts[0]!.reason).toMatch(/no answer within 0\.1s/);
  });

  it("the caller's abort stops all further attempts", async () => {
    const controller = new AbortController();
    const slow: Behaviour = ({ abortSignal }) =>
      new Promise((_, reject) => {
        abortSignal?.addEventListener("abort", () => reject(abortSignal.reason), { once: true });
        setTimeout(() => controller.abort(), 20);
      });
    const { factory, built } = mockFactory({ "m-slow": slow, "m-good": good });
    const r = await generateLlmReport(sampleContext(), {
      channels: [channel("a", ["m-slow", "m-good"])],
      modelFactory: factory,
      recordUsage: false,
      signal: controller.signal,
    });
    expect(r).toMatchObject({ ok: false, reason: "aborted by the caller" });
    expect(r.attempts.map((x) => x.code)).toEqual(["aborted"]);
    expect(built).toHaveLength(1);
  });

  it("all attempts failing gives the last reason (the caller falls back to the rule-based report)", async () => {
    const { factory } = mockFactory({
      "m-1": "nope",
      "m-2": JSON.stringify(validReport({ levels: { take_profit: 99 } })),
    });
    const r = await generateLlmReport(sampleContext(), {
      channels: [channel("a", ["m-1", "m-2"])],
      modelFactory: factory,
      recordUsage: false,
    });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.reason).toMatch(
      /^all 2 LLM attempt\(s\) failed; last \(a\/m-2\): numbers contradict the data: take_profit 99/,
    );
  });

  it("an openai-protocol endpoint that rejects json_schema is retried once in JSON mode", async () => {
    const rejecting = new APICallError({
      message: "This response_format type is unavailable now",
      url: "http://x/v1/chat/completions",
      requestBodyValues: {},
      statusCode: 400,
      responseBody: "{}",
    });
    const calls: LlmOutputMode[] = [];
    const base = mockFactory({ "m-1": good });
    const factory: LlmModelFactory = (ch, model, mode, key) => {
      calls.push(mode);
      if (mode === "json_schema")
        return new MockLanguageModelV3({
          doGenerate: async () => {
            throw rejecting;
          },
        });
      return base.factory(ch, model, mode, key);
    };
    const r = await generateLlmReport(sampleContext(), {
      channels: [channel("o", ["m-1"], "openai")],
      modelFactory: factory,
      recordUsage: false,
    });
    expect(r.ok).toBe(true);
    expect(calls).toEqual(["json_schema", "json_object"]);
    expect(r.attempts.map((x) => [x.mode, x.code])).toEqual([
      ["json_schema", "http_error"],
      ["json_object", "ok"],
    ]);
  });

  it("JSON mode describes the schema in the prompt; structured mode sends it as response format; no key in either", async () => {
    const { factory, models } = mockFactory({ "m-1": good });
    const ctx = sampleContext({
      indicators: { ma5: 98, apiKey: "sk-leak-0000000000", nested: { token: "t0k3n-leak" } },
    });
    await generateLlmReport(ctx, {
      channels: [channel("a", ["m-1"]), channel("o", ["m-1"], "openai")],
      modelFactory: factory,
      recordUsage: false,
    });
    const call = models["a/m-1"]!.doGenerateCalls[0]!;
    const promptText = JSON.stringify(call.prompt);
    expect(promptText).toContain("JSON Schema");
    expect(promptText).toContain("sniper_points");
    expect(promptText).toContain("600519");
    expect(promptText).not.toContain("sk-leak");
    expect(promptText).not.toContain("t0k3n-leak");
    expect(promptText).not.toContain("sk-a-secret");
    expect(call.responseFormat).toMatchObject({ type: "json" });
  });
});

describe("checkReportAgainstData", () => {
  it("accepts a coherent buy plan", () => {
    expect(checkReportAgainstData(validReport(), 100)).toEqual([]);
  });

  it("rejects buy plans whose levels contradict the price", () => {
    expect(checkReportAgainstData(validReport({ levels: { stop_loss: 101 } }), 100)).toContainEqual(
      expect.stringMatching(/stop_loss 101 is not below the price 100/),
    );
    expect(checkReportAgainstData(validReport({ levels: { take_profit: 100 } }), 100)).toContainEqual(
      expect.stringMatching(/take_profit 100 is not above the price/),
    );
    expect(checkReportAgainstData(validReport({ levels: { stop_loss: null } }), 100)).toContainEqual(
      "a buy plan needs a stop_loss",
    );
    expect(checkReportAgainstData(validReport({ levels: { ideal_buy: 92 } }), 100)).toContainEqual(
      expect.stringMatching(/ideal_buy 92 is not above stop_loss 93/),
    );
  });

  it("rejects levels outside ±50% of the price and non-positive levels", () => {
    expect(checkReportAgainstData(validReport({ levels: { take_profit: 160 } }), 100)).toContainEqual(
      expect.stringMatching(/take_profit 160 is more than 50% away/),
    );
    expect(checkReportAgainstData(validReport({ levels: { secondary_buy: -1 } }), 100)).toContainEqual(
      expect.stringMatching(/not a positive price/),
    );
  });

  it("rejects an action that contradicts the score, and empty conclusions", () => {
    expect(checkReportAgainstData(validReport({ score: 30 }), 100)).toContainEqual("action buy contradicts score 30");
    expect(
      checkReportAgainstData(
        validReport({ action: "sell", score: 75, levels: { ideal_buy: null, secondary_buy: null } }),
        100,
      ),
    ).toContainEqual("action sell contradicts score 75");
    const empty = validReport();
    empty.core_conclusion.one_sentence = " ";
    expect(checkReportAgainstData(empty, 100)).toContain("core_conclusion.one_sentence is empty");
  });

  it("sell plans may leave levels null; without a price only the ordering is checked", () => {
    const sell = validReport({
      action: "sell",
      score: 15,
      levels: { ideal_buy: null, secondary_buy: null, stop_loss: null, take_profit: null },
    });
    expect(checkReportAgainstData(sell, 100)).toEqual([]);
    expect(checkReportAgainstData(validReport({ levels: { stop_loss: 120, take_profit: 110 } }), null)).toContainEqual(
      expect.stringMatching(/stop_loss 120 is not below take_profit 110/),
    );
  });

  it("the report schema rejects a score above 100 and accepts the fixture", () => {
    expect(ZLlmReport.safeParse(validReport()).success).toBe(true);
    expect(ZLlmReport.safeParse(validReport({ score: 101 })).success).toBe(false);
  });
});

describe("prompt and scrubbing", () => {
  it("builds zh and en prompts with the data block and no schema in structured mode", () => {
    const zh = buildReportPrompt(sampleContext({ language: "zh", news: [] }), { describeSchema: false });
    expect(zh.system).toContain("决策仪表盘");
    expect(zh.system).not.toContain("JSON Schema");
    expect(JSON.stringify(zh.messages)).toContain("没有可用的新闻");
    const en = buildReportPrompt(sampleContext(), { describeSchema: true });
    expect(en.system).toContain("JSON Schema");
    expect(JSON.stringify(en.messages)).toContain('\\"current_price\\": 100');
  });

  it("scrub removes configured keys, bearer tokens and sk- keys", () => {
    const out = scrub("bad key mysecretvalue; Authorization: Bearer abc.def; sk-ABCDEFGH1234", ["mysecretvalue"]);
    expect(out).not.toMatch(/mysecretvalue|abc\.def|sk-ABCDEFGH1234/);
  });
});
