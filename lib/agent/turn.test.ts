import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { withTempDatabase } from "@/tests/kits/db/temp-database";
import { db } from "@/lib/db/client";
import { currentPrice } from "@/lib/market";
import { resolveSingleTarget } from "@/lib/analysis/request";
import { quoteWhen } from "./commands";
import { cancelTurn } from "./active-turns";
import { ZAgentChatRequest, type AgentStreamEvent } from "./schemas";
import { getSessionDetail } from "./sessions";
import { startScriptedModel, type ScriptedModel } from "@/tests/kits/scripted-model";
import { prepareTurn } from "./turn";

// One chat turn end to end in-process, against a scripted OpenAI-compatible model over real HTTP:
// commands without an LLM, the tool loop, the figure check with one rewrite, cancel and model errors.

const temp = withTempDatabase("agent-turn", { MARKET_DATA_SOURCES: "sample", REPORT_LANGUAGE: "zh" });
let model: ScriptedModel;

beforeAll(async () => {
  model = await startScriptedModel();
});
afterAll(async () => {
  await model.close();
});
beforeEach(() => {
  model.reset();
  temp.useSettings({ MARKET_DATA_SOURCES: "sample", REPORT_LANGUAGE: "zh" });
});

function withModel(extra: Record<string, string> = {}) {
  temp.useSettings({
    MARKET_DATA_SOURCES: "sample",
    OUTBOUND_ALLOW_PRIVATE: "true",
    OPENAI_API_KEY: "sk-scripted-0123456789",
    OPENAI_BASE_URL: model.url,
    OPENAI_MODEL: "scripted-model",
    ...extra,
  });
}

async function turn(body: Record<string, unknown>) {
  const events: AgentStreamEvent[] = [];
  const prepared = prepareTurn(ZAgentChatRequest.parse(body), { emit: (e) => events.push(e) });
  const result = await prepared.run();
  return { result, events, requestId: prepared.requestId };
}

const completions = () => model.requests.filter((r) => r.path.endsWith("/chat/completions"));

describe("commands and the no-LLM path", () => {
  it("/quote answers from the one price with the tool step, and every figure verifies", async () => {
    const { result, events } = await turn({ message: "/quote 600519", session_id: "s-quote" });
    const price = await currentPrice(resolveSingleTarget("600519"));
    expect(result.success).toBe(true);
    expect(result.content).toContain(price.price.toFixed(2));
    expect(events.map((e) => e.type)).toEqual(["accepted", "thinking", "tool_start", "tool_done", "done"]);
    expect(result.checks?.status).toBe("ok");
    expect(result.checks?.unverified).toEqual([]);
    expect(completions()).toHaveLength(0);
  });

  it("/quote's time is the market's own date and clock, named; never the market's date beside a UTC clock", () => {
    // 21:03 UTC on 12-01 is 05:03 on 12-02 in Shanghai and 16:03 on 12-01 in New York.
    const time = "2026-12-01T21:03:00.000Z";
    expect(quoteWhen({ market: "cn", date: "2026-12-02", time }, "zh")).toBe("2026-12-02 05:03 北京时间");
    expect(quoteWhen({ market: "us", date: "2026-12-01", time }, "en")).toBe("2026-12-01 16:03 New York time");
    expect(quoteWhen({ market: "hk", date: "2026-12-02", time: null }, "en")).toBe("2026-12-02");
  });

  it("/market, /history, /signals, /backtest and /help answer in the language asked for, with verified figures", async () => {
    for (const message of ["/market us", "/history 600519", "/signals", "/backtest 600519", "/help", "/nonsense"]) {
      const { result } = await turn({ message, session_id: "s-cmds", language: "en" });
      expect(result.success, message).toBe(true);
      expect(result.content.length, message).toBeGreaterThan(10);
      expect(result.checks?.unverified ?? [], message).toEqual([]);
    }
    const { result } = await turn({ message: "/help", session_id: "s-cmds", language: "en" });
    expect(result.content).toContain("/quote");
    expect(result.content).toMatch(/Commands/);
  });

  it("a free question without an LLM names the commands and the setting", async () => {
    const { result } = await turn({ message: "is 600519 a buy?", session_id: "s-nollm" });
    expect(result.success).toBe(true);
    expect(result.content).toContain("/quote");
    expect(result.content).toContain("LLM_CHANNELS");
  });

  it("the session keeps both messages with the tool calls; the title is the first message", async () => {
    await turn({ message: "/quote AAPL", session_id: "s-store", language: "en" });
    const detail = await getSessionDetail("s-store", 100);
    expect(detail.title).toBe("/quote AAPL");
    expect(detail.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(detail.messages[1]!.tool_calls?.[0]).toMatchObject({ tool: "get_realtime_quote", success: true });
    expect(detail.messages[1]!.checks?.status).toBe("ok");
  });
});

describe("the model path", () => {
  it("calls the tools, streams the answer and verifies a price the tool returned", async () => {
    withModel();
    model.queue({ toolCalls: [{ name: "get_realtime_quote", args: { code: "600519" } }] });
    model.fallback = (req) => {
      const price = /"price":([\d.]+)/.exec(req.messagesText)?.[1];
      return { text: `贵州茅台现价 ${Number(price).toFixed(2)} 元。` };
    };
    const { result, events } = await turn({ message: "茅台现在多少钱？", session_id: "s-llm", stream_deltas: true });
    const price = await currentPrice(resolveSingleTarget("600519"));
    expect(result.success).toBe(true);
    expect(result.content).toBe(`贵州茅台现价 ${price.price.toFixed(2)} 元。`);
    expect(result.checks).toMatchObject({ status: "ok", unverified: [], key_unverified: false, regenerated: false });
    const types = events.map((e) => e.type);
    expect(types.slice(0, 4)).toEqual(["accepted", "thinking", "tool_start", "tool_done"]);
    expect(types).toContain("generating");
    expect(types).toContain("delta");
    expect(types.at(-1)).toBe("done");
    // The second model call carries the tool result; the usage is recorded as an agent call.
    expect(completions()).toHaveLength(2);
    const usage = await db().llmUsage.findMany({ where: { callType: "agent" } });
    expect(usage.length).toBeGreaterThan(0);
  });

  it("an invented key figure is rewritten once with the tool data restated, then shown with the warning", async () => {
    withModel();
    model.queue({ toolCalls: [{ name: "get_realtime_quote", args: { code: "600519" } }] });
    model.fallback = () => ({ text: "目标价 9999.99 元，现在买入。" });
    const { result } = await turn({ message: "茅台目标价？", session_id: "s-invent" });
    const rewrite = completions().at(-1)!;
    expect(completions()).toHaveLength(3);
    expect(rewrite.messagesText).toContain("9999.99");
    expect(rewrite.messagesText).toMatch(/get_realtime_quote: \{/);
    expect(result.checks).toMatchObject({
      status: "warning",
      unverified: ["9999.99"],
      key_unverified: true,
      regenerated: true,
    });
    const stored = (await getSessionDetail("s-invent", 10)).messages.at(-1)!;
    expect(stored.checks?.unverified).toEqual(["9999.99"]);
  });

  it("a rewrite that uses the tool data passes the check", async () => {
    withModel();
    model.queue(
      { toolCalls: [{ name: "get_realtime_quote", args: { code: "AAPL" } }], text: "" },
      { text: "Target 9999.99." },
    );
    model.fallback = (req) => ({
      text: `The data has no target; the price is ${/"price":([\d.]+)/.exec(req.messagesText)?.[1]}.`,
    });
    const { result } = await turn({ message: "AAPL target?", session_id: "s-rewrite", language: "en" });
    expect(result.checks).toMatchObject({ status: "ok", key_unverified: false, regenerated: true });
  });

  it("at most AGENT_MAX_STEPS tool steps; the last step must answer", async () => {
    withModel({ AGENT_MAX_STEPS: "2" });
    model.fallback = (req) =>
      req.body.tool_choice === "none"
        ? { text: "done without more tools" }
        : { toolCalls: [{ name: "get_realtime_quote", args: { code: "AAPL" } }] };
    const { result } = await turn({ message: "loop please", session_id: "s-steps", language: "en" });
    expect(result.content).toBe("done without more tools");
    expect(result.toolCalls).toHaveLength(2);
    expect(result.totalSteps).toBe(3);
  });

  it("cancel stops the model at once and keeps the partial answer, marked cancelled", async () => {
    withModel();
    model.queue({ text: "一二三四五六七八九十 ".repeat(40), chunkDelayMs: 60 });
    const events: AgentStreamEvent[] = [];
    const prepared = prepareTurn(
      ZAgentChatRequest.parse({
        message: "讲个长故事",
        session_id: "s-cancel",
        request_id: "r-cancel",
        stream_deltas: true,
      }),
      {
        emit: (e) => {
          events.push(e);
          if (e.type === "delta" && events.filter((x) => x.type === "delta").length === 3) cancelTurn("r-cancel");
        },
      },
    );
    const result = await prepared.run();
    expect(result.cancelled).toBe(true);
    expect(result.success).toBe(false);
    expect(result.error).toBe("cancelled");
    expect(result.content.length).toBeGreaterThan(0);
    expect(result.content.length).toBeLessThan(200);
    const stored = (await getSessionDetail("s-cancel", 10)).messages.at(-1)!;
    expect(stored).toMatchObject({ role: "assistant", status: "cancelled" });
    expect(() => cancelTurn("r-cancel")).toThrow(/no longer running/);
  });

  it("a model error ends the turn with success false and a reason without the key", async () => {
    withModel();
    model.queue({ status: 500, errorMessage: "upstream exploded for sk-scripted-0123456789" });
    const { result, events } = await turn({ message: "hello", session_id: "s-error", language: "en" });
    expect(result.success).toBe(false);
    expect(result.error).toBe("model_error");
    expect(result.message).toContain("500");
    expect(JSON.stringify(events)).not.toContain("sk-scripted-0123456789");
    expect((await getSessionDetail("s-error", 10)).messages.at(-1)!.status).toBe("error");
  });

  it("AGENT_MODEL picks the chat's model", async () => {
    withModel({ AGENT_MODEL: "cheap-chat-model" });
    model.queue({ text: "ok" });
    await turn({ message: "hi", session_id: "s-model", language: "en" });
    expect(completions()[0]!.body.model).toBe("cheap-chat-model");
  });

  it("a running request_id is a conflict", async () => {
    const first = prepareTurn(ZAgentChatRequest.parse({ message: "/help", request_id: "r-dup" }));
    expect(() => prepareTurn(ZAgentChatRequest.parse({ message: "/help", request_id: "r-dup" }))).toThrow(
      /already running/,
    );
    await first.run();
    await prepareTurn(ZAgentChatRequest.parse({ message: "/help", request_id: "r-dup" })).run();
  });
});
