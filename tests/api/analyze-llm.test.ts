import http from "node:http";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { levelText, structurePlan, type TDecisionAction, type TIndicators } from "@/lib/analysis/engine";
import { MIN_GAP_ATR, MIN_REWARD_RISK, STOP_MAX_ATR, STOP_MIN_ATR } from "@/lib/analysis/engine/plan";
import { loadSkills } from "@/lib/agent/skills";
import { ZAnalysisResultResponse } from "@/lib/analysis/schemas";
import { ZAnalysisReport } from "@/lib/history/schemas";
import type { TLlmReport } from "@/lib/analysis/llm/report-schema";
import { validReport } from "@/tests/kits/llm-fixtures";
import { ZRunFlowSnapshot, type TRunDiagnosticSummary } from "@/lib/analysis/run-schemas";
import { ZTaskAccepted, ZTaskStatus } from "@/lib/tasks/schemas";
import { startTestServer, type TestServer } from "../setup/api-server";
import { openServerDatabase, writeLiveConfig } from "../setup/server-database";
import { settledServerLog } from "../setup/server-log";

const API_KEY = "sk-fake-llm-key-0123456789abcdef";
let server: TestServer;
let fake: http.Server;
let fakeUrl: string;
let price = 0;
const seen: { model: string; auth: string | undefined }[] = [];
/** Every prompt the fake model received (system and user messages joined), in order. */
const prompts: string[] = [];
/** When set, the fake model refuses the key with this status and message, as OpenAI's 401 does. */
let refusal: { status: number; message: string } | null = null;

/** What the service handed the model: the price its levels are checked against and the ATR. */
interface PromptData {
  current_price: number;
  indicators: { atr14: number };
}

/** The model's answer, built from the prompt's data; a test swaps it for an invented one. */
let answer: (data: PromptData) => TLlmReport = () => {
  const report = validReport({
    action: "hold",
    score: 55,
    levels: { ideal_buy: null, secondary_buy: null, stop_loss: price * 0.95, take_profit: price * 1.1 },
  });
  report.core_conclusion.one_sentence = "Fake model: hold and wait for the pullback.";
  return report;
};

function promptText(body: { messages?: { content?: unknown }[] }): string {
  return (body.messages ?? [])
    .map((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content)))
    .join("\n");
}

function promptData(body: { messages?: { content?: unknown }[] }): PromptData {
  const text = promptText(body);
  const json = /<data>\n([\s\S]*?)\n<\/data>/.exec(text)?.[1];
  return JSON.parse(json ?? "{}") as PromptData;
}

// A local OpenAI-compatible endpoint: answers chat completions with a decision dashboard built by `answer` from
// the data in the prompt.
function startFakeLlm(): Promise<void> {
  fake = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (c: Buffer) => (raw += c.toString("utf8")));
    req.on("end", () => {
      const body = JSON.parse(raw || "{}") as { model?: string; messages?: { content?: unknown }[] };
      seen.push({ model: body.model ?? "", auth: req.headers.authorization });
      prompts.push(promptText(body));
      if (refusal) {
        res.writeHead(refusal.status, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { message: refusal.message, type: "invalid_request_error", code: null } }));
        return;
      }
      const report = answer(promptData(body));
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          id: "chatcmpl-fake",
          object: "chat.completion",
          created: 1_790_000_000,
          model: body.model,
          choices: [
            { index: 0, message: { role: "assistant", content: JSON.stringify(report) }, finish_reason: "stop" },
          ],
          usage: { prompt_tokens: 1200, completion_tokens: 300, total_tokens: 1500 },
        }),
      );
    });
  });
  return new Promise((resolve) =>
    fake.listen(0, "127.0.0.1", () => {
      fakeUrl = `http://127.0.0.1:${(fake.address() as net.AddressInfo).port}/v1`;
      resolve();
    }),
  );
}

beforeAll(async () => {
  await startFakeLlm();
  // The fake LLM listens on 127.0.0.1, which the outbound policy refuses by default.
  server = await startTestServer({ MARKET_DATA_SOURCES: "sample", OUTBOUND_ALLOW_PRIVATE: "true" });
});
afterAll(async () => {
  await server?.stop();
  fake?.close();
});

const analyze = (code: string) =>
  fetch(`${server.baseUrl}/api/v1/analysis/analyze`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ stock_code: code }),
  });

describe("the LLM path end to end against a local OpenAI-compatible server", () => {
  it("with a channel configured, the report comes from the model, and the call's tokens are recorded", async () => {
    const first = ZAnalysisResultResponse.parse(await (await analyze("600519")).json());
    expect(first.report.meta.model_used).toBeNull();
    price = first.report.meta.current_price!;

    // The live configuration: the env file on SQLite, the config document on PostgreSQL.
    await writeLiveConfig(
      server,
      `MARKET_DATA_SOURCES=sample\nOPENAI_API_KEY=${API_KEY}\nOPENAI_BASE_URL=${fakeUrl}\nOPENAI_MODEL=fake-model\n`,
    );
    // Seen on the next env-file check (SQLite) or revision poll (PostgreSQL, once a second): wait until the server
    // lists the model, rather than a fixed time a loaded machine can outlast.
    await expect
      .poll(
        async () =>
          (
            (await (await fetch(`${server.baseUrl}/api/v1/agent/models`)).json()) as { models: { model: string }[] }
          ).models.map((m) => m.model),
        { timeout: 15_000, interval: 250 },
      )
      .toContain("fake-model");

    const res = await analyze("600519");
    expect(res.status).toBe(200);
    const text = await res.text();
    const body = ZAnalysisResultResponse.parse(JSON.parse(text));
    expect(body.report.meta.model_used).toBe("fake-model");
    expect(body.report.summary.analysis_summary).toContain("Fake model: hold and wait for the pullback.");
    expect(body.report.summary.analysis_summary).toContain("样本数据");
    expect(body.report.summary.sentiment_score).toBe(55);
    expect(["hold", "watch"]).toContain(body.report.summary.action);
    expect(Number(body.report.strategy.stop_loss)).toBeCloseTo(price * 0.95, 1);
    expect(body.diagnostic_summary).toMatchObject({ components: { llm: { status: "ok" } } });
    expect(seen.at(-1)).toEqual({ model: "fake-model", auth: `Bearer ${API_KEY}` });
    expect(text).not.toContain(API_KEY);

    const database = await openServerDatabase(server);
    try {
      const usage = await database.all(
        "SELECT call_type, model, stock_code, query_id, prompt_tokens, completion_tokens, total_tokens, success FROM llm_usage",
      );
      expect(usage).toEqual([
        {
          call_type: "analysis",
          model: "fake-model",
          stock_code: "600519",
          query_id: body.query_id,
          prompt_tokens: 1200,
          completion_tokens: 300,
          total_tokens: 1500,
          success: 1,
        },
      ]);
      const stored = await database.get<Record<string, string>>(
        "SELECT diagnostics, flow, raw_result FROM analysis_history WHERE query_id = ?",
        body.query_id,
      );
      expect(JSON.stringify(stored)).not.toContain(API_KEY);
    } finally {
      await database.close();
    }
    const log = await settledServerLog(server);
    expect(log).not.toContain(API_KEY);
  });
});

describe("a provider's error text is redacted before it is stored, answered or logged", () => {
  it("a 401 quoting the key half-masked (first 8 and last 4 characters) leaves neither end anywhere", async () => {
    // The key is configured by the first test of this file; OpenAI's 401 quotes it so.
    const quoted = `${API_KEY.slice(0, 8)}${"*".repeat(API_KEY.length - 12)}${API_KEY.slice(-4)}`;
    refusal = {
      status: 401,
      message: `Incorrect API key provided: ${quoted}. You can find your API key at https://platform.example/keys.`,
    };
    try {
      const res = await analyze("000001");
      const text = await res.text();
      expect(res.status, text).toBe(200);
      expect(text).toContain("Incorrect API key provided");
      const database = await openServerDatabase(server);
      try {
        const stored = JSON.stringify(
          await database.all(
            "SELECT diagnostics, flow, raw_result FROM analysis_history WHERE stock_code = ?",
            "000001",
          ),
        );
        for (const leak of [text, stored]) {
          expect(leak).not.toContain(API_KEY.slice(0, 8));
          expect(leak).not.toContain(`*${API_KEY.slice(-4)}`);
        }
      } finally {
        await database.close();
      }
      const log = await settledServerLog(server);
      expect(log).not.toContain(quoted);
      expect(log).not.toContain(`*${API_KEY.slice(-4)}`);
    } finally {
      refusal = null;
    }
  });
});

// ---- The LLM path keeps the plan invariants and its action agrees with its own score band ----

const round2 = (v: number) => Math.round(v * 100) / 100;
const level = (text: string | null) => (text === null ? null : Number.parseFloat(text));

async function analyzed(code: string) {
  const res = await analyze(code);
  expect(res.status, await res.clone().text()).toBe(200);
  return ZAnalysisResultResponse.parse(await res.json());
}

/** A stage of the run's diagnostics (llm, llm_plan, llm_action). */
function component(result: { diagnostic_summary?: unknown }, key: string) {
  return (result.diagnostic_summary as TRunDiagnosticSummary).components[key];
}

async function flowNode(id: number, key: string) {
  const flow = ZRunFlowSnapshot.parse(await (await fetch(`${server.baseUrl}/api/v1/history/${id}/flow`)).json());
  return flow.nodes.find((n) => n.id === key);
}

/** The engine's plan for an action, as the report writes it. */
function enginePlan(ind: TIndicators, action: TDecisionAction, language: "zh" | "en") {
  const plan = structurePlan(ind, action, "llm");
  return {
    ideal_buy: levelText(plan.ideal_buy, language),
    secondary_buy: levelText(plan.secondary_buy, language),
    stop_loss: levelText(plan.stop_loss, language),
    take_profit: levelText(plan.take_profit, language),
  };
}

describe("an LLM's plan and action are held to the engine's invariants", () => {
  it("an invented buy plan (a stop 0.1 ATR under the price) is replaced by the engine's buy plan; the flow's llm_plan node says why", async () => {
    answer = ({ current_price: p, indicators: { atr14: atr } }) => {
      // Passes the model-output check (stop < price < target, entry between) but not the plan invariants.
      const report = validReport({
        action: "buy",
        score: 70,
        levels: {
          ideal_buy: p,
          secondary_buy: null,
          stop_loss: round2(p - 0.1 * atr),
          take_profit: round2(p + 0.11 * atr + 0.3 * atr),
        },
      });
      report.core_conclusion.one_sentence = "Fake model: buy now with a tight stop.";
      return report;
    };
    const result = await analyzed("600519");
    const { report } = result;
    expect(report.meta.model_used).toBe("fake-model");
    expect(report.summary.analysis_summary).toContain("Fake model: buy now with a tight stop.");
    expect(report.summary.action).toBe("buy");
    const ind = (report.details.context_snapshot as { indicators: TIndicators }).indicators;
    const price = ind.price!;
    const atr = ind.atr14!;
    // The stored plan is the engine's plan for a buy, and it keeps every long-side invariant.
    expect(report.strategy).toEqual(enginePlan(ind, "buy", report.meta.report_language));
    const ideal = level(report.strategy.ideal_buy)!;
    const stop = level(report.strategy.stop_loss)!;
    const target = level(report.strategy.take_profit)!;
    expect(ideal).toBeLessThanOrEqual(price + 0.005);
    expect((ideal - stop) / atr).toBeGreaterThanOrEqual(STOP_MIN_ATR - 0.01);
    expect((ideal - stop) / atr).toBeLessThanOrEqual(STOP_MAX_ATR + 0.01);
    expect(target - ideal).toBeGreaterThanOrEqual(MIN_REWARD_RISK * (ideal - stop) - 0.01);
    for (const l of [stop, target, level(report.strategy.secondary_buy)].filter((v) => v !== null)) {
      expect(Math.abs(l - price)).toBeGreaterThanOrEqual(MIN_GAP_ATR * atr - 0.01);
    }
    const planCheck = component(result, "llm_plan");
    expect(planCheck).toMatchObject({ status: "degraded" });
    expect(planCheck!.message).toMatch(
      /replaced by the rule plan for buy: stop_loss .* is within 0\.3 ATR of the price/,
    );
    expect(await flowNode(report.meta.id!, "llm_plan")).toMatchObject({
      status: expect.not.stringMatching(/^success$/),
      message: planCheck!.message,
    });
  });

  it("a buy whose stop sits above the price is refused as a contradiction: the rule report stands, with the reason", async () => {
    answer = ({ current_price: p }) =>
      validReport({
        action: "buy",
        score: 70,
        levels: {
          ideal_buy: round2(p * 0.99),
          secondary_buy: null,
          stop_loss: round2(p * 1.02),
          take_profit: round2(p * 1.1),
        },
      });
    const result = await analyzed("600519");
    expect(result.report.meta.model_used).toBeNull();
    expect(component(result, "llm")).toMatchObject({ status: "degraded" });
    expect(component(result, "llm")!.message).toMatch(
      /fell back to the rule-based report: .*stop_loss .* is not below the price/,
    );
  });

  it("an action against the model's own score band, with no guardrail reason, is aligned to the band; the flow's llm_action node says why", async () => {
    // Buy at 50 is a watch-band score: the model's own numbers do not support a buy.
    answer = ({ current_price: p, indicators: { atr14: atr } }) =>
      validReport({
        action: "buy",
        score: 50,
        levels: {
          ideal_buy: round2(p - 0.5 * atr),
          secondary_buy: null,
          stop_loss: round2(p - 2 * atr),
          take_profit: round2(p + 4 * atr),
        },
      });
    const result = await analyzed("AAPL");
    const { report } = result;
    expect(report.meta.model_used).toBe("fake-model");
    expect(report.summary).toMatchObject({ action: "watch", sentiment_score: 50 });
    const action = component(result, "llm_action");
    expect(action).toMatchObject({ status: "degraded" });
    expect(action!.message).toBe(
      "the model's action buy disagrees with its own score 50 (watch band) and no guardrail reason explains it: aligned to watch",
    );
    expect(await flowNode(report.meta.id!, "llm_action")).toMatchObject({ message: action!.message });
    // A buy plan does not fit a watch call: the engine's watch levels (breakout above, breakdown below) replace it.
    const ind = (report.details.context_snapshot as { indicators: TIndicators }).indicators;
    expect(report.strategy).toEqual(enginePlan(ind, "watch", report.meta.report_language));
    expect(component(result, "llm_plan")!.message).toMatch(
      /replaced by the rule plan for watch: a watch call's buy level is a breakout above the price/,
    );
  });
});

// ---- The analyze request's skills on the LLM path ----

describe("skills (alias strategies) join the LLM prompt and the report records them", () => {
  const holdAnswer = ({ current_price: p, indicators: { atr14: atr } }: PromptData) =>
    validReport({
      action: "hold",
      score: 55,
      levels: {
        ideal_buy: null,
        secondary_buy: null,
        stop_loss: round2(p - 2 * atr),
        take_profit: round2(p + 4 * atr),
      },
    });

  async function breakoutInstructions(): Promise<string> {
    const { skills } = await loadSkills({ userDir: "" });
    return skills.find((s) => s.id === "volume_breakout")!.instructions;
  }

  it("sync: skills [volume_breakout, an unknown id] → the model's prompt holds the strategy's instructions, the report lists it, the unknown id is recorded as ignored", async () => {
    answer = holdAnswer;
    const instructions = await breakoutInstructions();
    const before = prompts.length;
    const res = await fetch(`${server.baseUrl}/api/v1/analysis/analyze`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ stock_code: "600519", skills: ["volume_breakout", "no_such_strategy"] }),
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const result = ZAnalysisResultResponse.parse(await res.json());
    expect(result.report.meta.model_used).toBe("fake-model");
    expect(prompts.length).toBe(before + 1);
    expect(prompts.at(-1)).toContain(instructions);
    expect(prompts.at(-1)).toContain("volume_breakout");
    expect(result.report.details.skills_used).toEqual(["volume_breakout"]);
    const skills = component(result, "skills");
    expect(skills).toMatchObject({
      status: "degraded",
      details: { applied: ["volume_breakout"], unknown: ["no_such_strategy"] },
    });
    expect(skills!.message).toBe("applied: volume_breakout; unknown ids ignored: no_such_strategy");

    // The stored record says the same when read back.
    const stored = ZAnalysisReport.parse(
      await (await fetch(`${server.baseUrl}/api/v1/history/${result.report.meta.id}`)).json(),
    );
    expect(stored.details.skills_used).toEqual(["volume_breakout"]);
  });

  it("without skills the prompt has no strategy section and the report lists none", async () => {
    answer = holdAnswer;
    const result = await analyzed("600519");
    expect(prompts.at(-1)).not.toContain("交易策略");
    expect(result.report.details.skills_used).toEqual([]);
    expect(component(result, "skills")).toBeUndefined();
  });

  it("async: the task path passes the same skills (alias strategies) through to the prompt and the stored report", async () => {
    answer = holdAnswer;
    const instructions = await breakoutInstructions();
    const res = await fetch(`${server.baseUrl}/api/v1/analysis/analyze`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ stock_code: "AAPL", async_mode: true, strategies: ["volume_breakout"] }),
    });
    expect(res.status, await res.clone().text()).toBe(202);
    const accepted = ZTaskAccepted.parse(await res.json());
    const deadline = Date.now() + 20_000;
    let status = ZTaskStatus.parse(
      await (await fetch(`${server.baseUrl}/api/v1/analysis/status/${accepted.task_id}`)).json(),
    );
    while (!["completed", "failed"].includes(status.status) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      status = ZTaskStatus.parse(
        await (await fetch(`${server.baseUrl}/api/v1/analysis/status/${accepted.task_id}`)).json(),
      );
    }
    expect(status.status, status.error).toBe("completed");
    expect(status.skills).toEqual(["volume_breakout"]);
    expect(status.result?.report.meta.model_used).toBe("fake-model");
    expect(status.result?.report.details.skills_used).toEqual(["volume_breakout"]);
    expect(prompts.at(-1)).toContain(instructions);
  });
});
