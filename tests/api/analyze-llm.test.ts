import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ZAnalysisResultResponse } from "@/lib/analysis/schemas";
import { validReport } from "@/lib/analysis/llm/test-fixtures";
import { startTestServer, type TestServer } from "../setup/api-server";

const API_KEY = "sk-fake-llm-key-0123456789abcdef";
let server: TestServer;
let fake: http.Server;
let fakeUrl: string;
let price = 0;
const seen: { model: string; auth: string | undefined }[] = [];

// A local OpenAI-compatible endpoint: answers chat completions with a valid decision dashboard whose
// levels sit around the price the service reported for the same code.
function startFakeLlm(): Promise<void> {
  fake = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (c: Buffer) => (raw += c.toString("utf8")));
    req.on("end", () => {
      const body = JSON.parse(raw || "{}") as { model?: string };
      seen.push({ model: body.model ?? "", auth: req.headers.authorization });
      const report = validReport({
        action: "hold",
        score: 55,
        levels: { ideal_buy: price * 0.99, secondary_buy: price * 0.97, stop_loss: price * 0.95, take_profit: price * 1.1 },
      });
      report.core_conclusion.one_sentence = "Fake model: hold and wait for the pullback.";
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          id: "chatcmpl-fake",
          object: "chat.completion",
          created: 1_790_000_000,
          model: body.model,
          choices: [{ index: 0, message: { role: "assistant", content: JSON.stringify(report) }, finish_reason: "stop" }],
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
  fetch(`${server.baseUrl}/api/v1/analysis/analyze`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ stock_code: code }) });

describe("issue 4 item 5: the LLM path end to end against a local OpenAI-compatible server", () => {
  it("with a channel configured, the report comes from the model, and the call's tokens are recorded", async () => {
    const first = ZAnalysisResultResponse.parse(await (await analyze("600519")).json());
    expect(first.report.meta.model_used).toBeNull();
    price = first.report.meta.current_price!;

    fs.writeFileSync(path.join(server.dataDir, ".env"), `MARKET_DATA_SOURCES=sample\nOPENAI_API_KEY=${API_KEY}\nOPENAI_BASE_URL=${fakeUrl}\nOPENAI_MODEL=fake-model\n`);
    await new Promise((r) => setTimeout(r, 1500));

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

    const sqlite = new Database(path.join(server.dataDir, "api.db"), { readonly: true });
    try {
      const usage = sqlite.prepare("SELECT call_type, model, stock_code, query_id, prompt_tokens, completion_tokens, total_tokens, success FROM llm_usage").all();
      expect(usage).toEqual([
        { call_type: "analysis", model: "fake-model", stock_code: "600519", query_id: body.query_id, prompt_tokens: 1200, completion_tokens: 300, total_tokens: 1500, success: 1 },
      ]);
      const stored = sqlite.prepare("SELECT diagnostics, flow, raw_result FROM analysis_history WHERE query_id = ?").get(body.query_id) as Record<string, string>;
      expect(JSON.stringify(stored)).not.toContain(API_KEY);
    } finally {
      sqlite.close();
    }
    const log = fs.readFileSync(path.join(server.dataDir, "server.log"), "utf8");
    expect(log).not.toContain(API_KEY);
  });
});
