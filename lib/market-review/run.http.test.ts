import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { setClock } from "@/lib/clock";
import { setEnvironmentForTests } from "@/lib/settings/settings";
import { db, disconnectDb } from "@/lib/db/client";
import { freshDatabaseUrl } from "@/tests/kits/db/temp-database";
import { buildMarkdownReport } from "@/lib/history/markdown";
import { toAnalysisReport } from "@/lib/history/report";
import { logger } from "@/lib/log/logger";
import { clearQuoteCache } from "@/lib/market/quote-cache";
import { getMarketReviewParts, runMarketReview, type MarketReviewJob } from "./index";

// The LLM path against a local OpenAI-compatible server: settings in an env file → channels → the AI SDK's
// HTTP providers → this server → LlmUsage rows (call type market_review) in a temporary database.

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dsa-review-llm-"));
const dbFile = path.join(dir, "test.db");
let databaseUrl = "";
const AT = new Date("2026-11-20T12:00:00Z");
const KEY = "sk-review-SECRET-aaaaaaaaaaaaaa";
const KEY_OTHER = "sk-other-SECRET-bbbbbbbbbbbbbb";

const REVIEW_ZH = [
  "## 市场总结",
  "今日上证指数小幅收涨，沪深300表现较强，创业板指同步走高；市场温度处于中性区间，结构性行情延续。",
  "## 后市展望",
  "短线以均衡配置为主，关注成交量能否持续放大，以及权重板块的持续性。",
].join("\n");
const REVIEW_EN =
  "### Summary\nThe S&P 500 closed higher while the Nasdaq-100 fell; breadth was weak and the temperature points to a defensive stance for now.";

interface Seen {
  model: string;
  auth: string | undefined;
  responseFormat: unknown;
  system: string;
  user: string;
}
const seen: Seen[] = [];
let server: http.Server;
let base = "";

function completion(model: string, content: string) {
  return {
    id: "chatcmpl-review",
    object: "chat.completion",
    created: 1_790_000_000,
    model,
    choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
    usage: { prompt_tokens: 900, completion_tokens: 300, total_tokens: 1200 },
  };
}

function send(res: http.ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

function handle(req: http.IncomingMessage, res: http.ServerResponse) {
  let raw = "";
  req.on("data", (c: Buffer) => (raw += c.toString("utf8")));
  req.on("end", () => {
    const body = JSON.parse(raw || "{}") as {
      model?: string;
      response_format?: unknown;
      messages?: { role: string; content: string }[];
    };
    const model = body.model ?? "";
    const auth = req.headers.authorization;
    const text = (role: string) =>
      body.messages
        ?.filter((m) => m.role === role)
        .map((m) => m.content)
        .join("\n") ?? "";
    seen.push({ model, auth, responseFormat: body.response_format, system: text("system"), user: text("user") });
    if (req.method !== "POST" || req.url !== "/v1/chat/completions")
      return send(res, 404, { error: { message: "not found" } });
    switch (model) {
      case "m-500":
        // A gateway echoing the credential in its error text: it must not reach the record, rows or logs.
        return send(res, 500, {
          error: { message: `internal error while using ${auth ?? "no key"}`, type: "server_error" },
        });
      case "m-short":
        return send(res, 200, completion(model, "OK"));
      case "m-offtopic":
        return send(
          res,
          200,
          completion(
            model,
            "This is a long answer about the weather in a city far away, with no relation to any stock index at all.",
          ),
        );
      case "m-review-zh":
        return send(res, 200, completion(model, "```markdown\n" + REVIEW_ZH + "\n```"));
      case "m-review-en":
        return send(res, 200, completion(model, REVIEW_EN));
      default:
        return send(res, 404, { error: { message: `model ${model} not found` } });
    }
  });
}

let counter = 0;
function useSettings(values: Record<string, string>) {
  const file = path.join(dir, `settings-${++counter}.env`);
  fs.writeFileSync(
    file,
    Object.entries(values)
      .map(([k, v]) => `${k}=${v}`)
      .join("\n") + "\n",
  );
  // The fake LLM listens on 127.0.0.1, which the outbound policy refuses by default.
  setEnvironmentForTests({
    ENV_FILE: file,
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: "silent",
    OUTBOUND_ALLOW_PRIVATE: "true",
  });
}

function channelSettings(models: string, extra: Record<string, string> = {}) {
  return {
    MARKET_DATA_SOURCES: "sample",
    LLM_CHANNELS: "gw",
    LLM_GW_PROTOCOL: "openai",
    LLM_GW_BASE_URL: base,
    LLM_GW_API_KEY: KEY,
    LLM_GW_MODELS: models,
    LLM_TIMEOUT_SEC: "5",
    ...extra,
  };
}

function job(overrides: Partial<MarketReviewJob> = {}): MarketReviewJob {
  const id = `llmreview${String(++counter).padStart(23, "0")}`;
  return { queryId: id, traceId: `trace-${id}`, taskId: id, region: "cn", triggerSource: "test", ...overrides };
}

function captureLogs(): string[] {
  const lines: string[] = [];
  const push = (...args: unknown[]) => void lines.push(JSON.stringify(args));
  const child = { info: push, warn: push, debug: push, error: push };
  vi.spyOn(logger, "child").mockReturnValue(child as unknown as ReturnType<typeof logger.child>);
  vi.spyOn(logger, "warn").mockImplementation(push as never);
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
  setClock(null);
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  fs.rmSync(dir, { recursive: true, force: true });
});

beforeEach(async () => {
  vi.restoreAllMocks();
  seen.length = 0;
  clearQuoteCache();
  setClock(() => AT);
  useSettings({ MARKET_DATA_SOURCES: "sample" });
  await db().analysisHistory.deleteMany();
  await db().llmUsage.deleteMany();
});

describe("market review with an LLM", () => {
  it("a failing model, then a good one: the model's narrative plus the data tables; usage rows as market_review; no key anywhere", async () => {
    useSettings(channelSettings("m-500,m-review-zh", { TAVILY_API_KEYS: "tvly-NEWSKEY-0123456789abcdef" }));
    const logs = captureLogs();
    const input = job();
    const { record, markdown, payload } = await runMarketReview(input, { newsChain: { providers: [] } });

    expect([payload.engine, payload.model, record.modelUsed]).toEqual(["llm", "m-review-zh", "m-review-zh"]);
    // Fences removed, headings brought to level 3 under the report's own title.
    expect(markdown).toContain("### 市场总结\n今日上证指数小幅收涨");
    expect(markdown).not.toContain("```");
    expect(markdown).not.toMatch(/^## /m);
    // The numbers still come from the data: the rule tables follow the narrative.
    expect(markdown).toContain("### 数据附表");
    expect(markdown).toMatch(/\| 上证指数 \| sh000001 \| \d+\.\d{2} \|/);
    expect(markdown.indexOf("今日上证指数")).toBeLessThan(markdown.indexOf("### 数据附表"));
    expect(markdown.startsWith("# 大盘复盘（A股）2026-11-20\n\n> 【样本数据，非真实行情，仅供演示】")).toBe(true);

    // The request: plain chat completion (no response_format), the data block with the index names.
    expect(seen.map((s) => [s.model, s.auth, s.responseFormat ?? null])).toEqual([
      ["m-500", `Bearer ${KEY}`, null],
      ["m-review-zh", `Bearer ${KEY}`, null],
    ]);
    expect(seen[1]!.system).toMatch(/大盘复盘/);
    expect(seen[1]!.user).toContain("<data>");
    expect(seen[1]!.user).toContain("上证指数");
    expect(seen[1]!.user).not.toContain(KEY);

    const rows = await db().llmUsage.findMany({ orderBy: { id: "asc" } });
    expect(rows.map((r) => [r.callType, r.channel, r.model, r.success, r.stockCode, r.queryId, r.totalTokens])).toEqual(
      [
        ["market_review", "gw", "m-500", false, "MARKET", input.queryId, 0],
        ["market_review", "gw", "m-review-zh", true, "MARKET", input.queryId, 1200],
      ],
    );
    expect(rows[0]!.error).toMatch(/^http_error: HTTP 500/);

    const diagnostics = JSON.parse(record.diagnostics!);
    expect(diagnostics.components.llm).toMatchObject({ status: "ok", details: { provider: "gw/m-review-zh" } });
    expect(diagnostics.components.llm.details.attempts.map((a: { ok: boolean }) => a.ok)).toEqual([false, true]);
    expect(JSON.parse(record.flow!).summary.model).toBe("m-review-zh");

    // The history Markdown shows the model's text and says which model wrote it.
    const md = buildMarkdownReport({
      report: toAnalysisReport(record),
      news: [],
      dataSource: record.dataSource,
      region: record.region,
    });
    expect(md).toContain("今日上证指数小幅收涨");
    expect(md).toContain("- **分析模型**：m-review-zh");
    expect(getMarketReviewParts(record).report).toBe(markdown);

    const everything = JSON.stringify({ record, rows, logs, markdown, payload });
    expect(everything).not.toContain(KEY);
    expect(everything).not.toContain("tvly-NEWSKEY-0123456789abcdef");
    expect(everything).not.toContain("SECRET");
  });

  it("LLM failure (too short, off-topic) → the rule text is the review; the fallback is in diagnostics and raw_result", async () => {
    useSettings(channelSettings("m-short,m-offtopic"));
    captureLogs();
    const { record, markdown, payload } = await runMarketReview(job());

    expect([payload.engine, payload.model, record.modelUsed]).toEqual(["rules", null, null]);
    expect(markdown).toContain("### 市场概览");
    expect(markdown).toContain("### 后市展望");
    expect(markdown).not.toContain("### 数据附表");
    const raw = JSON.parse(record.rawResult!);
    expect(raw.engine).toBe("rules");
    expect(raw.markdown).toBe(raw.rule_markdown);
    expect(raw.llm_fallback_reason).toMatch(
      /^all 2 LLM attempt\(s\) failed; last \(gw\/m-offtopic\): unusable answer: the answer names none of the reviewed indices/,
    );

    const diagnostics = JSON.parse(record.diagnostics!);
    expect(diagnostics.status).toBe("degraded");
    expect(diagnostics.components.llm.status).toBe("degraded");
    expect(diagnostics.components.llm.message).toMatch(/^fell back to the rule-based review/);
    expect(diagnostics.components.llm.details.attempts.map((a: { reason: string }) => a.reason)).toEqual([
      expect.stringMatching(/the answer has 2 characters, fewer than 80/),
      expect.stringMatching(/names none of the reviewed indices/),
    ]);

    const rows = await db().llmUsage.findMany({ orderBy: { id: "asc" } });
    expect(rows.map((r) => [r.callType, r.model, r.success])).toEqual([
      ["market_review", "m-short", false],
      ["market_review", "m-offtopic", false],
    ]);
    expect(JSON.stringify(record)).not.toContain(KEY);
  });

  it("an unreachable channel and then a good one, in English: the English narrative is kept", async () => {
    useSettings({
      MARKET_DATA_SOURCES: "sample",
      LLM_CHANNELS: "down,up",
      LLM_DOWN_PROTOCOL: "deepseek",
      LLM_DOWN_BASE_URL: "http://127.0.0.1:9/v1",
      LLM_DOWN_API_KEY: KEY_OTHER,
      LLM_DOWN_MODELS: "m-review-en",
      LLM_UP_PROTOCOL: "deepseek",
      LLM_UP_BASE_URL: base,
      LLM_UP_API_KEY: KEY,
      LLM_UP_MODELS: "m-review-en",
    });
    captureLogs();
    const { record, markdown, payload } = await runMarketReview(job({ region: "us", language: "english" }), {
      newsChain: { providers: [] },
    });
    expect([record.stockName, record.reportLanguage, payload.engine, payload.model]).toEqual([
      "Market review",
      "en",
      "llm",
      "m-review-en",
    ]);
    expect(markdown).toContain("### Summary\nThe S&P 500 closed higher");
    expect(markdown).toContain("### Data tables");
    const attempts = JSON.parse(record.diagnostics!).components.llm.details.attempts;
    expect(attempts.map((a: { provider: string; ok: boolean }) => [a.provider, a.ok])).toEqual([
      ["down/m-review-en", false],
      ["up/m-review-en", true],
    ]);
    const stored = JSON.stringify(await db().analysisHistory.findUnique({ where: { id: record.id } }));
    expect(stored).not.toContain(KEY);
    expect(stored).not.toContain(KEY_OTHER);
  });
});
