import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startScriptedModel, type ScriptedModel } from "@/tests/kits/scripted-model";
import { startReceiver, type Receiver } from "@/tests/kits/notify-receiver";
import { startTestServer, type TestServer } from "../../setup/api-server";
import { expectKeys, loginCookie, referenceClient, type Call, type Wire } from "./reference-client";
import { settledServerLog } from "../../setup/server-log";

// docs/api.md §12.8: every /api/v1/agent operation as the reference's chat page calls it, in both auth
// modes. Mode "off": admin auth off, an LLM channel (a scripted OpenAI-compatible model) and a webhook channel.
// Mode "on": admin auth on (401 without the session), no LLM, no notification channel.

const KEY = "sk-agent-compat-key-0123456789";
let model: ScriptedModel;
let receiver: Receiver;
const servers: Record<"off" | "on", { server: TestServer; call: Call; cookie?: string }> = {} as never;

beforeAll(async () => {
  model = await startScriptedModel();
  receiver = await startReceiver();
  const [off, on] = await Promise.all([
    startTestServer({
      MARKET_DATA_SOURCES: "sample",
      OUTBOUND_ALLOW_PRIVATE: "true",
      OPENAI_API_KEY: KEY,
      OPENAI_BASE_URL: model.url,
      OPENAI_MODEL: "scripted-model",
      CUSTOM_WEBHOOK_URLS: `${receiver.baseUrl}/hook`,
      NOTIFICATION_RETRY_ATTEMPTS: "1",
      SSE_HEARTBEAT_SECONDS: "1",
    }),
    startTestServer({ MARKET_DATA_SOURCES: "sample", ADMIN_AUTH_ENABLED: "true" }),
  ]);
  servers.off = { server: off, call: referenceClient(off.baseUrl) };
  const cookie = await loginCookie(on.baseUrl);
  servers.on = { server: on, call: referenceClient(on.baseUrl, cookie), cookie };
});

afterAll(async () => {
  await Promise.all([servers.off?.server.stop(), servers.on?.server.stop()]);
  await model.close();
  await receiver.close();
});

interface StreamResult {
  status: number;
  contentType: string | null;
  events: Wire[];
  comments: string[];
}

/** POST /chat/stream as the reference client does (fetch with credentials), reading `data:` lines to the end. */
async function stream(
  mode: "off" | "on",
  body: unknown,
  onEvent?: (event: Wire) => void | Promise<void>,
): Promise<StreamResult> {
  const { server, cookie } = servers[mode];
  const res = await fetch(`${server.baseUrl}/api/v1/agent/chat/stream`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: server.baseUrl, ...(cookie ? { cookie } : {}) },
    body: JSON.stringify(body),
  });
  const out: StreamResult = {
    status: res.status,
    contentType: res.headers.get("content-type"),
    events: [],
    comments: [],
  };
  if (!res.ok || !res.body) return { ...out, events: [await res.json()] };
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let cut: number;
    while ((cut = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      for (const line of block.split("\n")) {
        if (line.startsWith(":")) out.comments.push(line);
        if (!line.startsWith("data: ")) continue;
        const event = JSON.parse(line.slice(6));
        out.events.push(event);
        await onEvent?.(event);
      }
    }
  }
  return out;
}

const completions = () => model.requests.filter((r) => r.path.endsWith("/chat/completions"));

describe.each(["off", "on"] as const)("agent API, admin auth %s", (mode) => {
  const call = (...args: Parameters<Call>) => servers[mode].call(...args);

  it("§12.8 POST /chat/stream: a command streams tool_start, tool_done and done with content and success", async () => {
    const sessionId = randomUUID();
    const result = await stream(mode, {
      message: "/quote 600519",
      session_id: sessionId,
      skills: ["trend_following"],
      context: { stock_code: "600519", stock_name: null },
    });
    expect(result.status).toBe(200);
    expect(result.contentType).toMatch(/^text\/event-stream/);
    const types = result.events.map((e) => e.type);
    expect(types).toEqual(["accepted", "thinking", "tool_start", "tool_done", "done"]);
    const toolDone = result.events[3];
    expect(toolDone).toMatchObject({ tool: "get_realtime_quote", display_name: "获取实时行情", success: true });
    expect(typeof toolDone.duration).toBe("number");
    const done = result.events.at(-1);
    expect(done).toMatchObject({ success: true, session_id: sessionId, cancelled: false });
    expect(done.content).toContain("贵州茅台");
    expect(done.checks).toMatchObject({ status: "ok", unverified: [] });
    // The figure in the answer is the tool's price.
    const price = (await call("GET", `/api/v1/agent/chat/sessions/${sessionId}`)).body.messages[1].tool_calls[0].output
      .price as number;
    expect(done.content).toContain(price.toFixed(2));
  });

  it("§12.8 POST /chat (non-stream) → {success, content, session_id, error}", async () => {
    const res = await call("POST", "/api/v1/agent/chat", { message: "/help" });
    expect(res.status).toBe(200);
    expectKeys(res.body, ["success", "content", "session_id", "error"]);
    expect(res.body.success).toBe(true);
    expect(res.body.content).toContain("/quote");
  });

  it("§12.8 sessions: list (title, message_count), messages (id, role, content, created_at), delete", async () => {
    const sessionId = randomUUID();
    await stream(mode, { message: "/market cn", session_id: sessionId });
    const list = await call("GET", "/api/v1/agent/chat/sessions?limit=50");
    expect(list.status).toBe(200);
    const item = list.body.sessions.find((s: Wire) => s.session_id === sessionId);
    expect(item).toMatchObject({ title: "/market cn", message_count: 2 });
    expectKeys(item, ["created_at", "last_active"]);
    const detail = await call("GET", `/api/v1/agent/chat/sessions/${sessionId}`);
    expect(detail.status).toBe(200);
    expect(detail.body.messages.map((m: Wire) => m.role)).toEqual(["user", "assistant"]);
    for (const m of detail.body.messages) expectKeys(m, ["id", "role", "content", "created_at"]);
    expect(detail.body.messages[1].tool_calls[0]).toMatchObject({ tool: "get_market_indices", success: true });
    const removed = await call("DELETE", `/api/v1/agent/chat/sessions/${sessionId}`);
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ deleted: 1 });
    expect((await call("GET", `/api/v1/agent/chat/sessions/${sessionId}`)).status).toBe(404);
    expect((await call("DELETE", `/api/v1/agent/chat/sessions/${sessionId}`)).body.error).toBe("not_found");
  });

  it("§12.8 GET /skills and the alias GET /strategies list the five built-in strategies", async () => {
    const skills = await call("GET", "/api/v1/agent/skills");
    expect(skills.status).toBe(200);
    expect(skills.body.skills.map((s: Wire) => s.id)).toEqual([
      "trend_following",
      "volume_breakout",
      "pullback_support",
      "mean_reversion",
      "risk_first_review",
    ]);
    for (const s of skills.body.skills) expectKeys(s, ["id", "name", "description"]);
    expect(skills.body.default_skill_id).toBe("trend_following");
    const strategies = await call("GET", "/api/v1/agent/strategies");
    expect(strategies.body.strategies).toEqual(skills.body.skills);
    expect(strategies.body.default_strategy_id).toBe("trend_following");
  });

  it("validation: empty message, four skills, a session id with a slash → 422; a running request_id gone → 404 on cancel", async () => {
    expect((await call("POST", "/api/v1/agent/chat", { message: "  " })).status).toBe(422);
    expect((await call("POST", "/api/v1/agent/chat", { message: "hi", skills: ["a", "b", "c", "d"] })).status).toBe(
      422,
    );
    expect((await call("POST", "/api/v1/agent/chat/stream", { message: "hi", session_id: "a/b" })).status).toBe(422);
    const cancel = await call("POST", "/api/v1/agent/chat/stream/not-running/cancel");
    expect(cancel.status).toBe(404);
    expect(cancel.body).toMatchObject({ error: "request_not_active" });
  });

  it("GET /status and GET /models follow the configured channels, never a key", async () => {
    const status = await call("GET", "/api/v1/agent/status");
    expect(status.status).toBe(200);
    expectKeys(status.body, ["backend", "available", "experimental", "version", "error_code", "message"]);
    const models = await call("GET", "/api/v1/agent/models");
    expect(models.status).toBe(200);
    if (mode === "off") {
      expect(status.body).toMatchObject({ available: true, error_code: null });
      expect(models.body.models).toEqual([
        expect.objectContaining({
          deployment_id: "openai/scripted-model",
          model: "scripted-model",
          provider: "openai",
          is_primary: true,
          is_fallback: false,
        }),
      ]);
      expect(JSON.stringify(models.body)).not.toContain(KEY);
    } else {
      expect(status.body).toMatchObject({ available: false, error_code: "llm_not_configured" });
      expect(status.body.message).toContain("LLM_CHANNELS");
      expect(models.body.models).toEqual([]);
    }
  });

  it("POST /chat/send: to the webhook channel, or success false no_channels without one", async () => {
    const res = await call("POST", "/api/v1/agent/chat/send", { content: "# Chat\n\n**Q**: /quote 600519" });
    expect(res.status).toBe(200);
    if (mode === "off") {
      expect(res.body.success).toBe(true);
      expect(receiver.requests.at(-1)!.text).toContain("/quote 600519");
    } else {
      expect(res.body).toMatchObject({ success: false, error: "no_channels" });
      expect(typeof res.body.message).toBe("string");
    }
  });

  if (mode === "on") {
    it("every agent operation needs the session", async () => {
      const anonymous = referenceClient(servers.on.server.baseUrl);
      const cases: [string, string, unknown?][] = [
        ["POST", "/api/v1/agent/chat/stream", { message: "/help" }],
        ["POST", "/api/v1/agent/chat/stream/x/cancel"],
        ["POST", "/api/v1/agent/chat", { message: "/help" }],
        ["GET", "/api/v1/agent/chat/sessions?limit=50"],
        ["GET", "/api/v1/agent/chat/sessions/x"],
        ["DELETE", "/api/v1/agent/chat/sessions/x"],
        ["GET", "/api/v1/agent/skills"],
        ["GET", "/api/v1/agent/strategies"],
        ["POST", "/api/v1/agent/chat/send", { content: "x" }],
        ["GET", "/api/v1/agent/status"],
        ["GET", "/api/v1/agent/models"],
      ];
      for (const [method, url, body] of cases) {
        const res = await anonymous(method, url, body);
        expect(res.status, `${method} ${url}`).toBe(401);
        expect(res.body.error).toBe("unauthorized");
      }
    });

    it("without an LLM a free question is answered with the commands and the setting", async () => {
      const res = await call("POST", "/api/v1/agent/chat", { message: "is 600519 a buy?", language: "en" });
      expect(res.body.success).toBe(true);
      expect(res.body.content).toContain("/quote");
      expect(res.body.content).toContain("LLM_CHANNELS");
    });
  }
});

describe("agent with the scripted model (admin auth off)", () => {
  it("tool calls and streamed deltas; the answer's price is the tool's", async () => {
    model.reset();
    model.queue({ toolCalls: [{ name: "get_realtime_quote", args: { code: "AAPL" } }] });
    model.fallback = (req) => ({
      text: `Apple trades at ${Number(/"price":([\d.]+)/.exec(req.messagesText)?.[1]).toFixed(2)} (sample data).`,
    });
    const result = await stream("off", {
      message: "What is Apple's price?",
      session_id: randomUUID(),
      language: "en",
      stream_deltas: true,
    });
    const types = result.events.map((e) => e.type);
    expect(types.slice(0, 4)).toEqual(["accepted", "thinking", "tool_start", "tool_done"]);
    expect(types).toContain("delta");
    const done = result.events.at(-1);
    expect(done).toMatchObject({
      type: "done",
      success: true,
      checks: { status: "ok", unverified: [] },
      model: "openai/scripted-model",
    });
    const deltas = result.events
      .filter((e) => e.type === "delta")
      .map((e) => e.content)
      .join("");
    expect(deltas).toBe(done.content);
    // The key went to the model and nowhere else.
    expect(completions()[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(JSON.stringify(result.events)).not.toContain(KEY);
  });

  it("the invented-number test: a made-up target is rewritten once, then shown with the unverified figure listed", async () => {
    model.reset();
    model.queue({ toolCalls: [{ name: "analyze_trend", args: { code: "600519" } }] });
    model.fallback = () => ({ text: "贵州茅台目标价 9999.99 元，建议买入。" });
    const result = await stream("off", { message: "茅台目标价多少？", session_id: randomUUID() });
    const done = result.events.at(-1);
    expect(done.checks).toMatchObject({
      status: "warning",
      unverified: ["9999.99"],
      key_unverified: true,
      regenerated: true,
    });
    expect(completions()).toHaveLength(3);
    expect(completions()[2]!.messagesText).toContain("analyze_trend: {");
  });

  it("cancel stops a slow answer; the stream ends with done cancelled and the partial answer is stored", async () => {
    model.reset();
    model.queue({ text: "word ".repeat(200), chunkDelayMs: 50 });
    const sessionId = randomUUID();
    const requestId = `r-${randomUUID()}`;
    let cancelled: Wire = null;
    let conflict: Wire = null;
    const result = await stream(
      "off",
      {
        message: "tell me a long story",
        session_id: sessionId,
        request_id: requestId,
        stream_deltas: true,
        language: "en",
      },
      async (event) => {
        if (event.type === "delta" && cancelled === null) {
          conflict = await servers.off.call("POST", "/api/v1/agent/chat/stream", {
            message: "again",
            request_id: requestId,
          });
          cancelled = await servers.off.call("POST", `/api/v1/agent/chat/stream/${requestId}/cancel`);
        }
      },
    );
    expect(conflict).toMatchObject({ status: 409, body: { error: "request_conflict" } });
    expect(cancelled).toMatchObject({ status: 200, body: { accepted: true, request_id: requestId } });
    const done = result.events.at(-1);
    expect(done).toMatchObject({ type: "done", success: false, cancelled: true, error: "cancelled" });
    expect(done.content.length).toBeGreaterThan(0);
    expect(done.content.length).toBeLessThan("word ".repeat(200).length);
    const stored = (await servers.off.call("GET", `/api/v1/agent/chat/sessions/${sessionId}`)).body.messages.at(-1);
    expect(stored).toMatchObject({ role: "assistant", status: "cancelled", content: done.content });
  });

  it("heartbeat comments while the model is quiet", async () => {
    model.reset();
    model.queue({ text: "slow start", chunkDelayMs: 1300 });
    const result = await stream("off", { message: "wait", session_id: randomUUID(), language: "en" });
    expect(result.comments).toContain(": heartbeat");
    expect(result.events.at(-1)).toMatchObject({ type: "done", success: true });
  });

  it("a model error ends with done success false and a reason that holds no key", async () => {
    model.reset();
    model.queue({ status: 500, errorMessage: `boom ${KEY}` });
    const result = await stream("off", { message: "hello", session_id: randomUUID(), language: "en" });
    expect(result.events.at(-1)).toMatchObject({ type: "done", success: false, error: "model_error" });
    expect(JSON.stringify(result.events)).not.toContain(KEY);
    const log = await settledServerLog(servers.off.server);
    expect(log).not.toContain(KEY);
  });

  it("usage of every chat turn is recorded with call type agent", async () => {
    const usage = await servers.off.call("GET", "/api/v1/usage/summary?period=all");
    expect(usage.status).toBe(200);
    expect(JSON.stringify(usage.body)).toContain("agent");
  });
});
