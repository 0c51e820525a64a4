import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import {
  APICallError,
  generateText,
  stepCountIs,
  streamText,
  tool,
  type LanguageModel,
  type TextStreamPart,
  type ToolSet,
} from "ai";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { startScriptedModel, type ScriptedModel } from "@/tests/kits/scripted-model";

// The scripted server driven by the real AI SDK providers, as lib/analysis/llm builds them
// (createOpenAI(...).chat for protocol "openai", createOpenAICompatible(...).chatModel otherwise).

let scripted: ScriptedModel;

beforeAll(async () => {
  scripted = await startScriptedModel();
});
afterEach(() => scripted.reset());
afterAll(() => scripted.close());

const providers: [string, () => LanguageModel][] = [
  ["openai", () => createOpenAI({ baseURL: scripted.url, apiKey: "sk-test", name: "scripted" }).chat("scripted-model")],
  [
    "openai-compatible",
    () =>
      createOpenAICompatible({
        name: "scripted",
        baseURL: scripted.url,
        apiKey: "sk-test",
        includeUsage: true,
      }).chatModel("scripted-model"),
  ],
];

function quoteTool(calls: unknown[]) {
  return tool({
    description: "Latest price of a stock",
    inputSchema: z.object({
      code: z.string().describe("Stock code, e.g. 600519"),
      days: z.number().int().describe("Look-back days"),
    }),
    execute: async (input) => {
      calls.push(input);
      return { code: input.code, price: 1688.5 };
    },
  });
}

async function collect<TOOLS extends ToolSet>(
  stream: AsyncIterable<TextStreamPart<TOOLS>>,
): Promise<TextStreamPart<TOOLS>[]> {
  const parts: TextStreamPart<TOOLS>[] = [];
  for await (const part of stream) parts.push(part);
  return parts;
}

const completions = () => scripted.requests.filter((r) => r.path.endsWith("/chat/completions"));

async function waitForIdle(): Promise<void> {
  const deadline = Date.now() + 2000;
  while (scripted.inFlight > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe.each(providers)("scripted model through %s", (_name, makeModel) => {
  it("a tool call, then a text answer: tool runs with the args, usage sums over steps", async () => {
    scripted.queue(
      {
        toolCalls: [{ name: "quote", args: { code: "600519", days: 5 } }],
        usage: { prompt_tokens: 30, completion_tokens: 7 },
      },
      {
        text: "贵州茅台最新价 1688.5 元，five day trend is flat.",
        usage: { prompt_tokens: 50, completion_tokens: 12 },
      },
    );
    const calls: unknown[] = [];
    const result = streamText({
      model: makeModel(),
      system: "You are DSA.",
      prompt: "How is 600519 doing?",
      tools: { quote: quoteTool(calls) },
      stopWhen: stepCountIs(3),
      maxRetries: 0,
    });

    const parts = await collect(result.fullStream);
    expect(parts.filter((p) => p.type === "error")).toEqual([]);
    expect(calls).toEqual([{ code: "600519", days: 5 }]);
    expect(await result.text).toBe("贵州茅台最新价 1688.5 元，five day trend is flat.");
    expect(parts.filter((p) => p.type === "text-delta").length).toBeGreaterThan(1);
    const usage = await result.totalUsage;
    expect(usage.inputTokens).toBe(80);
    expect(usage.outputTokens).toBe(19);
    expect((await result.steps).length).toBe(2);

    const [first, second] = completions();
    expect(first!.body.stream).toBe(true);
    expect(first!.body.stream_options).toEqual({ include_usage: true });
    expect(first!.body.tools[0].function.name).toBe("quote");
    expect(first!.messagesText).toContain("How is 600519 doing?");
    const toolMessage = second!.body.messages.find((m: { role: string }) => m.role === "tool");
    expect(toolMessage.tool_call_id).toMatch(/^call_\d+$/);
    expect(second!.messagesText).toContain("1688.5");
    expect(completions()).toHaveLength(2);
  });

  it("an HTTP 500 surfaces as an error", async () => {
    scripted.queue({ status: 500, errorMessage: "upstream exploded" });
    const errors: unknown[] = [];
    const result = streamText({
      model: makeModel(),
      prompt: "hi",
      maxRetries: 0,
      onError: ({ error }) => void errors.push(error),
    });
    const parts = await collect(result.fullStream);
    const error = parts.find((p) => p.type === "error");
    expect(error).toBeDefined();
    const cause = (error as { error: unknown }).error;
    expect(APICallError.isInstance(cause)).toBe(true);
    expect((cause as APICallError).statusCode).toBe(500);
    expect((cause as APICallError).message).toContain("upstream exploded");
    expect(errors).toHaveLength(1);
  });

  it("a slow reply aborted by the client ends promptly and the server lets go", async () => {
    scripted.queue({ text: "one two three four five six seven eight nine ten", chunkDelayMs: 300 });
    const controller = new AbortController();
    const started = Date.now();
    const result = streamText({
      model: makeModel(),
      prompt: "slow please",
      maxRetries: 0,
      abortSignal: controller.signal,
      onError: () => {},
    });
    const parts: string[] = [];
    for await (const part of result.fullStream) {
      parts.push(part.type);
      if (part.type === "text-delta") controller.abort();
    }
    expect(Date.now() - started).toBeLessThan(1500);
    expect(parts).toContain("abort");
    await waitForIdle();
    expect(scripted.inFlight).toBe(0);
  });

  it("non-streaming generateText gets the text and usage", async () => {
    scripted.queue({ text: "plain answer", usage: { prompt_tokens: 9, completion_tokens: 2 } });
    const result = await generateText({ model: makeModel(), prompt: "hello", maxRetries: 0 });
    expect(result.text).toBe("plain answer");
    expect(result.usage.inputTokens).toBe(9);
    expect(result.usage.outputTokens).toBe(2);
    expect(completions()[0]!.body.stream).not.toBe(true);
  });

  it("non-streaming generateText runs a tool loop", async () => {
    scripted.queue({ toolCalls: [{ name: "quote", args: { code: "AAPL", days: 1 } }] }, { text: "done" });
    const calls: unknown[] = [];
    const result = await generateText({
      model: makeModel(),
      prompt: "AAPL?",
      tools: { quote: quoteTool(calls) },
      stopWhen: stepCountIs(3),
      maxRetries: 0,
    });
    expect(calls).toEqual([{ code: "AAPL", days: 1 }]);
    expect(result.text).toBe("done");
    expect(completions()[1]!.messagesText).toContain("1688.5");
  });

  it("an error mid-stream surfaces as an error after part of the text", async () => {
    scripted.queue({ text: "alpha beta gamma delta epsilon zeta", errorMidStream: true });
    const result = streamText({ model: makeModel(), prompt: "break", maxRetries: 0, onError: () => {} });
    // The SDK fails the stream itself here (undici "terminated"), after the text that did arrive.
    const parts: TextStreamPart<ToolSet>[] = [];
    let thrown: unknown;
    try {
      for await (const part of result.fullStream) parts.push(part);
    } catch (error) {
      thrown = error;
    }
    const text = parts.flatMap((p) => (p.type === "text-delta" ? [p.text] : [])).join("");
    expect(text.length).toBeGreaterThan(0);
    expect("alpha beta gamma delta epsilon zeta".startsWith(text)).toBe(true);
    expect(text).not.toBe("alpha beta gamma delta epsilon zeta");
    expect(thrown ?? parts.find((p) => p.type === "error")).toBeDefined();
  });
});

describe("scripted model server", () => {
  it("fallback answers when the queue is empty and may inspect the request; reset restores the default", async () => {
    const model = providers[1]![1]();
    expect((await generateText({ model, prompt: "x", maxRetries: 0 })).text).toBe("ok");
    scripted.fallback = (req) => ({ text: req.messagesText.includes("ping") ? "pong" : "?" });
    expect((await generateText({ model, prompt: "ping", maxRetries: 0 })).text).toBe("pong");
    scripted.reset();
    expect(scripted.requests).toEqual([]);
    expect((await generateText({ model, prompt: "ping", maxRetries: 0 })).text).toBe("ok");
  });

  it("tool-call ids are unique per call; several calls in one reply are streamed with their indexes", async () => {
    scripted.queue({
      toolCalls: [
        { name: "quote", args: { code: "1", days: 1 } },
        { name: "quote", args: { code: "2", days: 2 } },
      ],
    });
    const calls: unknown[] = [];
    const result = streamText({
      model: providers[0]![1](),
      prompt: "two",
      tools: { quote: quoteTool(calls) },
      stopWhen: stepCountIs(2),
      maxRetries: 0,
    });
    await result.consumeStream();
    expect(calls).toEqual([
      { code: "1", days: 1 },
      { code: "2", days: 2 },
    ]);
    const ids = (await result.steps)[0]!.toolCalls.map((c) => c.toolCallId);
    expect(new Set(ids).size).toBe(2);
    ids.forEach((id) => expect(id).toMatch(/^call_\d+$/));
  });

  it("raw wire: SSE chunks as OpenAI sends them, /models, a path without /v1", async () => {
    scripted.queue({
      text: "hi there",
      toolCalls: [{ name: "f", args: { a: 1 }, id: "call_fixed" }],
      usage: { prompt_tokens: 3, completion_tokens: 4 },
    });
    const base = scripted.url.replace(/\/v1$/, "");
    const response = await fetch(`${base}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        model: "m",
        stream: true,
        stream_options: { include_usage: true },
        messages: [{ role: "user", content: "q" }],
      }),
    });
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    const events = (await response.text()).split("\n\n").filter(Boolean);
    expect(events.at(-1)).toBe("data: [DONE]");
    const chunks = events.slice(0, -1).map((e) => JSON.parse(e.replace(/^data: /, "")));
    expect(chunks.every((c) => c.object === "chat.completion.chunk" && c.model === "m")).toBe(true);
    expect(chunks[0].choices[0].delta.role).toBe("assistant");
    const deltas = chunks.flatMap((c) => c.choices.map((ch: { delta: unknown }) => ch.delta));
    expect(deltas.map((d) => d.content ?? "").join("")).toBe("hi there");
    const toolDeltas = deltas.flatMap((d) => d.tool_calls ?? []);
    expect(toolDeltas[0]).toEqual({
      index: 0,
      id: "call_fixed",
      type: "function",
      function: { name: "f", arguments: "" },
    });
    expect(toolDeltas.map((t: { function: { arguments: string } }) => t.function.arguments).join("")).toBe('{"a":1}');
    expect(chunks.at(-2).choices[0].finish_reason).toBe("tool_calls");
    expect(chunks.at(-1)).toMatchObject({
      choices: [],
      usage: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 },
    });

    const models = await (await fetch(`${scripted.url}/models`)).json();
    expect(models).toEqual({
      object: "list",
      data: [expect.objectContaining({ id: "scripted-model", object: "model" })],
    });
    expect(scripted.requests.map((r) => r.path)).toEqual(["/chat/completions", "/v1/models"]);
  });
});
