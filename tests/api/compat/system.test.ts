import http from "node:http";
import type net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../setup/api-server";
import { expectKeys, loginCookie, referenceClient, type Call } from "./reference-client";

// docs/api.md §12.5 (setup status, discover models, test channel) and §12.6 (screening status), sent as the
// reference's client sends them, in both auth modes, against a local OpenAI-compatible server.

const KEY = "sk-compat-probe-key-000111222333";
const SAVED_KEY = "sk-compat-saved-key-444555666777";
let fake: http.Server;
let fakeBase = "";
const seenAuth: string[] = [];

function sse(res: http.ServerResponse, model: string) {
  res.writeHead(200, { "content-type": "text/event-stream" });
  for (const piece of ["O", "K"]) {
    res.write(
      `data: ${JSON.stringify({ id: "c1", object: "chat.completion.chunk", created: 1, model, choices: [{ index: 0, delta: { content: piece }, finish_reason: null }] })}\n\n`,
    );
  }
  res.write(
    `data: ${JSON.stringify({ id: "c1", object: "chat.completion.chunk", created: 1, model, choices: [{ index: 0, delta: {}, finish_reason: "stop" }] })}\n\n`,
  );
  res.end("data: [DONE]\n\n");
}

function startFake(): Promise<void> {
  fake = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (c: Buffer) => (raw += c.toString("utf8")));
    req.on("end", () => {
      const auth = req.headers.authorization ?? "";
      seenAuth.push(auth);
      if (auth !== `Bearer ${KEY}` && auth !== `Bearer ${SAVED_KEY}`) {
        res.writeHead(401, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { message: `Incorrect API key provided: ${auth}` } }));
        return;
      }
      if (req.method === "GET" && req.url === "/v1/models") {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            object: "list",
            data: [
              { id: "fake-chat", object: "model" },
              { id: "fake-mini", object: "model" },
            ],
          }),
        );
        return;
      }
      const body = JSON.parse(raw || "{}") as {
        model: string;
        stream?: boolean;
        tools?: unknown[];
        response_format?: unknown;
      };
      if (body.model === "broken") {
        res.writeHead(500, { "content-type": "text/plain" });
        res.end(`internal trace with ${auth}`);
        return;
      }
      if (body.model === "fake-blind" && raw.includes("image_url")) {
        res.writeHead(400, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { message: "this model does not support image input" } }));
        return;
      }
      if (body.stream) return sse(res, body.model);
      const message = body.tools
        ? {
            role: "assistant",
            content: null,
            tool_calls: [{ id: "call_1", type: "function", function: { name: "quote", arguments: '{"code":"AAPL"}' } }],
          }
        : { role: "assistant", content: body.response_format ? '{"ok": true}' : "OK" };
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          id: "c1",
          object: "chat.completion",
          created: 1,
          model: body.model,
          choices: [{ index: 0, message, finish_reason: body.tools ? "tool_calls" : "stop" }],
          usage: { prompt_tokens: 5, completion_tokens: 1, total_tokens: 6 },
        }),
      );
    });
  });
  return new Promise((resolve) =>
    fake.listen(0, "127.0.0.1", () => {
      fakeBase = `http://127.0.0.1:${(fake.address() as net.AddressInfo).port}/v1`;
      resolve();
    }),
  );
}

beforeAll(startFake);
afterAll(() => new Promise<void>((r) => fake.close(() => r())));

function suite(mode: "auth off" | "auth on") {
  describe(`§12.5/§12.6 with ${mode}`, () => {
    let server: TestServer;
    let call: Call;

    beforeAll(async () => {
      server = await startTestServer({
        MARKET_DATA_SOURCES: "sample",
        OUTBOUND_ALLOW_PRIVATE: "true",
        LLM_CHANNELS: "saved",
        LLM_SAVED_PROTOCOL: "openai",
        LLM_SAVED_BASE_URL: fakeBase,
        LLM_SAVED_API_KEY: SAVED_KEY,
        LLM_SAVED_MODELS: "fake-chat",
        ...(mode === "auth on" ? { ADMIN_AUTH_ENABLED: "true" } : {}),
      });
      call = referenceClient(server.baseUrl, mode === "auth on" ? await loginCookie(server.baseUrl) : undefined);
    });
    afterAll(() => server?.stop());

    if (mode === "auth on") {
      it("without the session every endpoint answers 401 (the client redirects to /login)", async () => {
        const anon = referenceClient(server.baseUrl);
        for (const [method, path] of [
          ["GET", "/api/v1/system/config/setup/status"],
          ["POST", "/api/v1/system/config/llm/discover-models"],
          ["POST", "/api/v1/system/config/llm/test-channel"],
          ["GET", "/api/v1/alphasift/status"],
        ] as const) {
          const res = await anon(method, path, method === "POST" ? { name: "x", protocol: "openai" } : undefined);
          expect(res.status, path).toBe(401);
        }
      });
    }

    it("GET /system/config/setup/status: the checklist fields the banner reads", async () => {
      const res = await call("GET", "/api/v1/system/config/setup/status");
      expect(res.status).toBe(200);
      expectKeys(res.body, ["is_complete", "ready_for_smoke", "required_missing_keys", "next_step_key", "checks"]);
      for (const check of res.body.checks) {
        expectKeys(check, ["key", "title", "category", "required", "status", "message", "next_step"]);
        expect(["base", "ai_model", "agent", "notification", "system"]).toContain(check.category);
        expect(["configured", "inherited", "optional", "needs_action"]).toContain(check.status);
      }
      // No STOCK_LIST on this install: the one required step missing, and the banner's first title.
      expect(res.body.is_complete).toBe(false);
      expect(res.body.required_missing_keys).toEqual(["STOCK_LIST"]);
      expect(res.body.next_step_key).toBe("STOCK_LIST");
      expect(res.body.ready_for_smoke).toBe(true);
      const llm = res.body.checks.find((c: { key: string }) => c.key === "LLM_CHANNELS");
      expect(llm).toMatchObject({ status: "configured", required: false, category: "ai_model" });
      const auth = res.body.checks.find((c: { key: string }) => c.key === "ADMIN_AUTH_ENABLED");
      expect(auth.status).toBe(mode === "auth on" ? "configured" : "optional");
      expect(JSON.stringify(res.body)).not.toContain(SAVED_KEY);
    });

    it("POST /system/config/llm/discover-models with a typed key lists the models", async () => {
      const res = await call("POST", "/api/v1/system/config/llm/discover-models", {
        name: "new",
        protocol: "openai",
        base_url: fakeBase,
        api_key: KEY,
        models: ["fake-chat", "gone"],
        timeout_seconds: 20,
      });
      expect(res.status).toBe(200);
      expectKeys(res.body, ["success", "message", "models", "latency_ms", "resolved_protocol"]);
      expect(res.body).toMatchObject({
        success: true,
        models: ["fake-chat", "fake-mini"],
        resolved_protocol: "openai",
        error: null,
      });
      expect(res.body.details.configured_models_not_listed).toEqual(["gone"]);
    });

    it("discover-models with the masked key uses the saved key, but never sends it to another base URL", async () => {
      seenAuth.length = 0;
      const saved = await call("POST", "/api/v1/system/config/llm/discover-models", {
        name: "saved",
        protocol: "openai",
        base_url: "",
        api_key: "******",
      });
      expect(saved.body).toMatchObject({ success: true, models: ["fake-chat", "fake-mini"] });
      expect(seenAuth).toEqual([`Bearer ${SAVED_KEY}`]);

      seenAuth.length = 0;
      const elsewhere = await call("POST", "/api/v1/system/config/llm/discover-models", {
        name: "saved",
        protocol: "openai",
        base_url: fakeBase.replace("/v1", "/v2"),
        api_key: "******",
      });
      expect(elsewhere.body).toMatchObject({
        success: false,
        error_code: "api_key_missing",
        stage: "validate",
        models: [],
      });
      expect(seenAuth).toEqual([]);
    });

    it("discover-models: a wrong key is success=false at the auth stage, and the remote body is not echoed", async () => {
      const res = await call("POST", "/api/v1/system/config/llm/discover-models", {
        name: "new",
        protocol: "openai",
        base_url: fakeBase,
        api_key: "sk-wrong-key-9999999999",
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        success: false,
        error_code: "auth_failed",
        stage: "auth",
        retryable: false,
        error: "HTTP 401",
      });
      expect(JSON.stringify(res.body)).not.toContain("sk-wrong-key");
    });

    it("discover-models: bad input is 422 with the validation envelope", async () => {
      const res = await call("POST", "/api/v1/system/config/llm/discover-models", { protocol: "openai" });
      expect(res.status).toBe(422);
      expect(res.body.error).toBe("validation_error");
      expect(Array.isArray(res.body.detail)).toBe(true);
    });

    it("POST /system/config/llm/test-channel runs the chat call and the json, tools, vision and stream checks", async () => {
      const res = await call("POST", "/api/v1/system/config/llm/test-channel", {
        name: "new",
        protocol: "openai",
        base_url: fakeBase,
        api_key: KEY,
        models: ["fake-chat"],
        enabled: true,
        timeout_seconds: 20,
        capability_checks: ["json", "tools", "vision", "stream"],
        api_surface: "responses",
      });
      expect(res.status).toBe(200);
      expectKeys(res.body, [
        "success",
        "message",
        "resolved_protocol",
        "resolved_model",
        "latency_ms",
        "capability_results",
      ]);
      expect(res.body).toMatchObject({
        success: true,
        resolved_model: "fake-chat",
        resolved_api_surface: "chat_completions",
      });
      const r = res.body.capability_results;
      expect(r.json.status).toBe("passed");
      expect(r.tools.status).toBe("passed");
      expect(r.stream.status).toBe("passed");
      expect(r.vision.status).toBe("passed");
      // A model that refuses images fails the vision check alone.
      const blind = await call("POST", "/api/v1/system/config/llm/test-channel", {
        name: "new",
        protocol: "openai",
        base_url: fakeBase,
        api_key: KEY,
        models: ["fake-blind"],
        capability_checks: ["vision"],
      });
      expect(blind.body).toMatchObject({ success: true, capability_results: { vision: { status: "failed" } } });
      for (const check of Object.values(r) as Record<string, unknown>[])
        expectKeys(check, ["status", "message", "stage"]);
    });

    it("test-channel: a server error is retryable at the request stage, with only the status line", async () => {
      const res = await call("POST", "/api/v1/system/config/llm/test-channel", {
        name: "new",
        protocol: "deepseek",
        base_url: fakeBase,
        api_key: KEY,
        models: ["broken"],
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        success: false,
        error_code: "upstream_error",
        stage: "request",
        retryable: true,
        error: "HTTP 500",
        resolved_model: "broken",
      });
      expect(JSON.stringify(res.body)).not.toContain(KEY);
    });

    it("generation and agent backends: the saved channel is the primary ai_sdk backend; a draft is previewed unsaved", async () => {
      const status = await call("GET", "/api/v1/system/config/generation-backends/status");
      expect(status.status).toBe(200);
      expectKeys(status.body, ["primary_backend_id", "fallback_backend_id", "primary", "fallback", "backends"]);
      expectKeys(status.body.primary, [
        "backend_id",
        "backend_type",
        "provider_id",
        "available",
        "health_status",
        "supports_json",
        "supports_tools",
        "supports_stream",
        "supports_vision",
        "is_primary",
        "fallback_target",
        "max_concurrency",
        "usage_available",
        "last_error_code",
        "last_error_message",
      ]);
      expect(status.body).toMatchObject({
        primary_backend_id: "saved",
        fallback_backend_id: null,
        primary: { backend_type: "ai_sdk", provider_id: "openai", available: true, health_status: "not_tested" },
      });
      const withDraft = await call("POST", "/api/v1/system/config/generation-backends/status/preview", {
        items: [
          { key: "LLM_CHANNELS", value: "saved,draft" },
          { key: "LLM_DRAFT_BASE_URL", value: fakeBase },
          { key: "LLM_DRAFT_API_KEY", value: KEY },
          { key: "LLM_DRAFT_MODELS", value: "fake-mini" },
          { key: "LLM_SAVED_API_KEY", value: "******" },
        ],
        mask_token: "******",
      });
      expect(withDraft.body).toMatchObject({ primary_backend_id: "saved", fallback_backend_id: "draft" });
      expect(JSON.stringify(withDraft.body)).not.toContain(KEY);
      const none = await call("POST", "/api/v1/system/config/generation-backends/status/preview", {
        items: [
          { key: "LLM_CHANNELS", value: "" },
          { key: "LLM_SAVED_API_KEY", value: "" },
        ],
        mask_token: "******",
      });
      expect(none.body.primary).toMatchObject({ available: false, last_error_code: "backend_not_configured" });
      // Nothing was saved: the status is as before.
      expect((await call("GET", "/api/v1/system/config/generation-backends/status")).body.backends).toHaveLength(1);

      const agent = await call("GET", "/api/v1/system/config/agent-backends/status");
      expectKeys(agent.body, ["backend", "available", "experimental", "version", "error_code", "message"]);
      expect(agent.body).toMatchObject({ backend: "ai_sdk", available: true, error_code: null });
      const agentDraft = await call("POST", "/api/v1/system/config/agent-backends/status/preview", {
        items: [
          { key: "LLM_CHANNELS", value: "" },
          { key: "LLM_SAVED_API_KEY", value: "" },
        ],
      });
      expect(agentDraft.body).toMatchObject({ available: false, error_code: "backend_not_configured" });
    });

    it("generation-backends smoke-test: the saved key reaches the saved base URL only", async () => {
      const ok = await call("POST", "/api/v1/system/config/generation-backends/smoke-test", {
        mode: "json",
        items: [{ key: "LLM_SAVED_API_KEY", value: "******" }],
        mask_token: "******",
      });
      expect(ok.status).toBe(200);
      expect(ok.body).toMatchObject({
        success: true,
        mode: "json",
        status: { backend_id: "saved", health_status: "passed" },
      });
      const text = await call("POST", "/api/v1/system/config/generation-backends/smoke-test", { mode: "text" });
      expect(text.body).toMatchObject({ success: true, mode: "text" });
      const before = seenAuth.length;
      const moved = await call("POST", "/api/v1/system/config/generation-backends/smoke-test", {
        mode: "text",
        items: [
          { key: "LLM_SAVED_BASE_URL", value: fakeBase.replace("127.0.0.1", "localhost") },
          { key: "LLM_SAVED_API_KEY", value: "******" },
        ],
        mask_token: "******",
      });
      expect(moved.body).toMatchObject({ success: false, status: { health_status: "failed" } });
      expect(seenAuth.slice(before)).toEqual([]);
      const unknown = await call("POST", "/api/v1/system/config/generation-backends/smoke-test", {
        backend_id: "nope",
      });
      expect(unknown.body).toMatchObject({ success: false, status: { last_error_code: "backend_not_configured" } });
      expect(JSON.stringify([ok.body, text.body, moved.body])).not.toContain(SAVED_KEY);
    });

    it("GET /alphasift/status: the built-in screener, enabled by default", async () => {
      const res = await call("GET", "/api/v1/alphasift/status");
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ enabled: true, available: true, install_spec_is_default: true });
      expect(res.body.strategy_count).toBeGreaterThanOrEqual(8);
    });

    it("GET /screening/status (the newer client's sidebar): the fields it reads; ALPHASIFT_ENABLED is a known alias", async () => {
      const res = await call("GET", "/api/v1/screening/status");
      expect(res.status).toBe(200);
      expectKeys(res.body, [
        "enabled",
        "available",
        "engine",
        "contract_version",
        "version",
        "strategy_count",
        "reference_project",
        "reference_revision",
        "source_health",
        "diagnostics",
      ]);
      expect(res.body).toMatchObject({ enabled: true, available: true, configured: true });
      expect(res.body.strategy_count).toBeGreaterThanOrEqual(8);
      const valid = await call("POST", "/api/v1/system/config/validate", {
        items: [{ key: "ALPHASIFT_ENABLED", value: "true" }],
      });
      expect(valid.body.issues.filter((i: { code: string }) => i.code === "unknown_key")).toEqual([]);
    });
  });
}

suite("auth off");
suite("auth on");
