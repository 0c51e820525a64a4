import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { setEnvironmentForTests } from "@/lib/settings/settings";
import { db, disconnectDb } from "@/lib/db/client";
import { logger } from "@/lib/log/logger";
import { llmConfigured } from "./channels";
import { generateLlmReport } from "./generate-report";
import { sampleContext, validReport } from "@/tests/kits/llm-fixtures";
import { freshDatabaseUrl } from "@/tests/kits/db/temp-database";

// End to end: settings in an env file → channels → the AI SDK's HTTP providers → a local
// OpenAI-compatible server started here → checks → LlmUsage rows in a temporary SQLite database.

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dsa-llm-"));
const dbFile = path.join(dir, "test.db");
let databaseUrl = "";
const KEY_FIRST = "sk-first-SECRET-aaaaaaaaaaaa";
const KEY_SECOND = "sk-second-SECRET-bbbbbbbbbb";
const KEY_SIMPLE = "sk-simple-SECRET-cccccccccc";

interface Seen {
  path: string;
  model: string;
  auth: string | undefined;
  responseFormat: string | undefined;
}
const seen: Seen[] = [];
let server: http.Server;
let base = "";

function completion(model: string, content: string) {
  return {
    id: "chatcmpl-test",
    object: "chat.completion",
    created: 1_790_000_000,
    model,
    choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
    usage: { prompt_tokens: 321, completion_tokens: 123, total_tokens: 444 },
  };
}

function send(res: http.ServerResponse, status: number, body: unknown) {
  if (res.destroyed || res.writableEnded) return;
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

function handle(req: http.IncomingMessage, res: http.ServerResponse) {
  let raw = "";
  req.on("data", (c: Buffer) => (raw += c.toString("utf8")));
  req.on("end", () => {
    const body = JSON.parse(raw || "{}") as { model?: string; response_format?: { type?: string } };
    const model = body.model ?? "";
    const auth = req.headers.authorization;
    seen.push({ path: req.url ?? "", model, auth, responseFormat: body.response_format?.type });
    if (req.method !== "POST" || req.url !== "/v1/chat/completions")
      return send(res, 404, { error: { message: "not found" } });
    const good = JSON.stringify(validReport());
    switch (model) {
      case "m-500":
        // Some gateways echo the credential in their error text; it must not reach attempts, rows or logs.
        return send(res, 500, {
          error: { message: `internal error while using ${auth ?? "no key"}`, type: "server_error" },
        });
      case "m-badjson":
        return send(res, 200, completion(model, "I think you should buy {not json"));
      case "m-stophigh":
        return send(res, 200, completion(model, JSON.stringify(validReport({ levels: { stop_loss: 104 } }))));
      case "m-slow": {
        // Answers only after far longer than LLM_TIMEOUT_SEC (the client gives up first and closes).
        const timer = setTimeout(() => send(res, 200, completion(model, good)), 20_000);
        res.on("close", () => clearTimeout(timer));
        return;
      }
      case "m-noschema":
        if (body.response_format?.type === "json_schema") {
          return send(res, 400, {
            error: { message: "This response_format type is unavailable now", type: "invalid_request_error" },
          });
        }
        return send(res, 200, completion(model, good));
      case "m-good":
        return send(res, 200, completion(model, good));
      default:
        return send(res, 404, { error: { message: `model ${model} not found` } });
    }
  });
}

let envCount = 0;
function useSettings(values: Record<string, string>) {
  const file = path.join(dir, `settings-${++envCount}.env`);
  fs.writeFileSync(
    file,
    Object.entries(values)
      .map(([k, v]) => `${k}=${v}`)
      .join("\n") + "\n",
  );
  // The fake LLM listens on 127.0.0.1, which the outbound policy refuses by default.
  setEnvironmentForTests({ ENV_FILE: file, DATABASE_URL: databaseUrl, OUTBOUND_ALLOW_PRIVATE: "true" });
}

/** Everything the LLM path logs (through logger.child) or prints. */
function captureLogs() {
  const lines: string[] = [];
  const push = (...args: unknown[]) => void lines.push(JSON.stringify(args));
  const child = { info: push, warn: push, debug: push, error: push };
  vi.spyOn(logger, "child").mockReturnValue(child as unknown as ReturnType<typeof logger.child>);
  vi.spyOn(logger, "warn").mockImplementation(push as never);
  vi.spyOn(console, "warn").mockImplementation(push);
  vi.spyOn(console, "error").mockImplementation(push);
  vi.spyOn(console, "log").mockImplementation(push);
  return lines;
}

beforeAll(async () => {
  databaseUrl = await freshDatabaseUrl(dbFile);
  server = http.createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(async () => {
  await disconnectDb();
  setEnvironmentForTests(process.env);
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  fs.rmSync(dir, { recursive: true, force: true });
});

beforeEach(async () => {
  seen.length = 0;
  useSettings({});
  await db().llmUsage.deleteMany();
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe("LLM report over HTTP (local OpenAI-compatible server)", () => {
  it("channel order and fallback on HTTP 500, invalid JSON, a stop loss above price and a timeout; one usage row per call; no key anywhere", async () => {
    useSettings({
      LLM_CHANNELS: "first,second",
      LLM_FIRST_PROTOCOL: "openai",
      LLM_FIRST_BASE_URL: base,
      LLM_FIRST_API_KEY: KEY_FIRST,
      LLM_FIRST_MODELS: "m-500,m-badjson",
      LLM_SECOND_PROTOCOL: "deepseek",
      LLM_SECOND_BASE_URL: base,
      LLM_SECOND_API_KEY: KEY_SECOND,
      LLM_SECOND_MODELS: "m-stophigh,m-slow,m-good",
      LLM_TIMEOUT_SEC: "1.5",
    });
    expect(llmConfigured()).toBe(true);
    const logs = captureLogs();

    const result = await generateLlmReport(sampleContext(), {
      callType: "analysis",
      stockCode: "600519",
      queryId: "q-http-1",
    });

    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect([result.channel, result.model]).toEqual(["second", "m-good"]);
    expect(result.report.core_conclusion.action).toBe("buy");
    expect(result.attempts.map((a) => [a.channel, a.model, a.code])).toEqual([
      ["first", "m-500", "http_error"],
      ["first", "m-badjson", "invalid_json"],
      ["second", "m-stophigh", "data_check"],
      ["second", "m-slow", "timeout"],
      ["second", "m-good", "ok"],
    ]);
    expect(result.attempts[3]!.ms).toBeGreaterThanOrEqual(1400);
    expect(result.attempts[3]!.ms).toBeLessThan(10_000);
    expect(result.attempts[3]!.reason).toBe("no answer within 1.5s");
    expect(result.attempts[4]).toMatchObject({ promptTokens: 321, completionTokens: 123, totalTokens: 444 });

    // Wire: chat completions; json_schema for the openai protocol, json_object for deepseek; each channel's key.
    expect(seen.map((s) => [s.path, s.model, s.responseFormat, s.auth])).toEqual([
      ["/v1/chat/completions", "m-500", "json_schema", `Bearer ${KEY_FIRST}`],
      ["/v1/chat/completions", "m-badjson", "json_schema", `Bearer ${KEY_FIRST}`],
      ["/v1/chat/completions", "m-stophigh", "json_object", `Bearer ${KEY_SECOND}`],
      ["/v1/chat/completions", "m-slow", "json_object", `Bearer ${KEY_SECOND}`],
      ["/v1/chat/completions", "m-good", "json_object", `Bearer ${KEY_SECOND}`],
    ]);

    const rows = await db().llmUsage.findMany({ orderBy: { id: "asc" } });
    expect(rows.map((r) => [r.channel, r.model, r.success, r.callType, r.stockCode, r.queryId])).toEqual([
      ["first", "m-500", false, "analysis", "600519", "q-http-1"],
      ["first", "m-badjson", false, "analysis", "600519", "q-http-1"],
      ["second", "m-stophigh", false, "analysis", "600519", "q-http-1"],
      ["second", "m-slow", false, "analysis", "600519", "q-http-1"],
      ["second", "m-good", true, "analysis", "600519", "q-http-1"],
    ]);
    // Tokens the server reported are kept even for answers that were rejected.
    expect(rows.map((r) => r.totalTokens)).toEqual([0, 444, 444, 0, 444]);
    expect(rows[0]!.error).toMatch(/^http_error: HTTP 500/);
    expect(rows[2]!.error).toMatch(/stop_loss 104 is not below the price 100/);
    expect(rows[3]!.error).toMatch(/^timeout/);
    expect(rows.every((r) => r.durationMs >= 0)).toBe(true);

    const everything = JSON.stringify({ result, rows, logs });
    for (const key of [KEY_FIRST, KEY_SECOND]) expect(everything).not.toContain(key);
    expect(logs.length).toBeGreaterThanOrEqual(5);
  }, 30_000);

  it("simple form OPENAI_*: an endpoint rejecting json_schema is retried in JSON mode (2 calls, 2 rows)", async () => {
    useSettings({ OPENAI_API_KEY: KEY_SIMPLE, OPENAI_BASE_URL: base, OPENAI_MODEL: "m-noschema" });
    const logs = captureLogs();
    const result = await generateLlmReport(sampleContext({ language: "zh" }), { stockCode: "600519" });
    expect(result.ok).toBe(true);
    expect(result.attempts.map((a) => [a.channel, a.mode, a.code, a.status ?? null])).toEqual([
      ["openai", "json_schema", "http_error", 400],
      ["openai", "json_object", "ok", null],
    ]);
    expect(seen.map((s) => s.responseFormat)).toEqual(["json_schema", "json_object"]);
    const rows = await db().llmUsage.findMany({ orderBy: { id: "asc" } });
    expect(rows.map((r) => [r.model, r.success, r.totalTokens])).toEqual([
      ["m-noschema", false, 0],
      ["m-noschema", true, 444],
    ]);
    expect(JSON.stringify({ result, rows, logs })).not.toContain(KEY_SIMPLE);
  });

  it("every model failing → not ok with the last reason, a row per call; the caller keeps the rule-based report", async () => {
    useSettings({
      LLM_CHANNELS: "only",
      LLM_ONLY_PROTOCOL: "openai-compatible",
      LLM_ONLY_BASE_URL: base,
      LLM_ONLY_API_KEY: KEY_SECOND,
      LLM_ONLY_MODELS: "m-500,m-stophigh",
    });
    captureLogs();
    const result = await generateLlmReport(sampleContext(), { queryId: "q-fail" });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.reason).toMatch(
      /^all 2 LLM attempt\(s\) failed; last \(only\/m-stophigh\): numbers contradict the data/,
    );
    expect(await db().llmUsage.count({ where: { queryId: "q-fail", success: false } })).toBe(2);
    expect(JSON.stringify(result)).not.toContain(KEY_SECOND);
  });

  it("an unreachable channel is a network error and the next channel answers", async () => {
    useSettings({
      LLM_CHANNELS: "down,up",
      LLM_DOWN_PROTOCOL: "deepseek",
      LLM_DOWN_BASE_URL: "http://127.0.0.1:9/v1",
      LLM_DOWN_API_KEY: KEY_FIRST,
      LLM_DOWN_MODELS: "m-good",
      LLM_UP_PROTOCOL: "deepseek",
      LLM_UP_BASE_URL: base,
      LLM_UP_API_KEY: KEY_SECOND,
      LLM_UP_MODELS: "m-good",
    });
    captureLogs();
    const result = await generateLlmReport(sampleContext());
    expect(result.ok).toBe(true);
    expect(result.attempts.map((a) => [a.channel, a.code])).toEqual([
      ["down", "network_error"],
      ["up", "ok"],
    ]);
  });

  it("with OUTBOUND_ALLOW_PRIVATE off a base URL on this machine is never called", async () => {
    useSettings({
      OPENAI_API_KEY: KEY_SIMPLE,
      OPENAI_BASE_URL: base,
      OPENAI_MODEL: "m-good",
      OUTBOUND_ALLOW_PRIVATE: "false",
    });
    captureLogs();
    const result = await generateLlmReport(sampleContext());
    expect(result.ok).toBe(false);
    expect(seen).toHaveLength(0);
    expect(JSON.stringify(result)).toMatch(/OUTBOUND_ALLOW_PRIVATE/);
  });

  it("no LLM key in settings → not configured, no call, no row", async () => {
    useSettings({ MARKET_DATA_SOURCES: "sample" });
    expect(llmConfigured()).toBe(false);
    const result = await generateLlmReport(sampleContext());
    expect(result).toEqual({ ok: false, reason: "no LLM channel configured", attempts: [] });
    expect(seen).toEqual([]);
    expect(await db().llmUsage.count()).toBe(0);
  });
});
