import { spawn } from "node:child_process";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MCP_TOOLS } from "@/lib/mcp/server";
import { startTestServer, type TestServer } from "../setup/api-server";
import { openServerDatabase } from "../setup/server-database";

// docs/mcp.md over HTTP: the SDK's own client against the built server's /mcp (Streamable HTTP), with admin auth on
// and API tokens of both scopes, on the sample provider.

const PASSWORD = "mcp-pass";
let server: TestServer;
let cookie: string;
let writeToken: string;
let readToken: string;
let readTokenId: string;

async function adminCookie(base: string): Promise<string> {
  const res = await fetch(`${base}/api/v1/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: base },
    body: JSON.stringify({ password: PASSWORD, passwordConfirm: PASSWORD }),
  });
  expect(res.status).toBe(200);
  return /dsa_session=[^;]*/.exec(res.headers.get("set-cookie") ?? "")![0];
}

function admin(method: string, p: string, body?: unknown): Promise<Response> {
  return fetch(`${server.baseUrl}${p}`, {
    method,
    headers: { "content-type": "application/json", cookie, origin: server.baseUrl },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

async function mint(scope: "read" | "write"): Promise<{ id: string; token: string }> {
  const res = await admin("POST", "/api/v1/auth/tokens", { name: `mcp-${scope}`, scope });
  expect(res.status).toBe(201);
  return (await res.json()) as { id: string; token: string };
}

async function connect(token: string): Promise<Client> {
  const client = new Client({ name: "dsa-test", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL("/mcp", server.baseUrl), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    }),
  );
  return client;
}

function structured(result: Awaited<ReturnType<Client["callTool"]>>): Record<string, unknown> {
  const r = result as CallToolResult;
  expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
  return r.structuredContent as Record<string, unknown>;
}

function errorOf(result: Awaited<ReturnType<Client["callTool"]>>): string {
  const r = result as CallToolResult;
  expect(r.isError).toBe(true);
  return (r.content[0] as { text: string }).text;
}

/** Moves a stored report back to the bar `back` sessions before its last one, so later bars can evaluate it. */
async function moveBack(queryId: string, back: number): Promise<void> {
  const detail = (await (await admin("GET", `/api/v1/history/${queryId}`)).json()) as {
    details: { context_snapshot: { indicator_bars: { rows: (string | number | null)[][] } } };
  };
  const rows = detail.details.context_snapshot.indicator_bars.rows;
  const anchor = String(rows[rows.length - 1 - back]![0]);
  const database = await openServerDatabase(server);
  try {
    const row = await database.get<{ snapshot: string }>(
      "SELECT context_snapshot AS snapshot FROM analysis_history WHERE query_id = ?",
      queryId,
    );
    const snapshot = JSON.parse(row!.snapshot) as { as_of: { date: string } };
    snapshot.as_of.date = anchor;
    await database.run(
      "UPDATE analysis_history SET created_at = ?, context_snapshot = ? WHERE query_id = ?",
      `${anchor}T08:00:00.000+00:00`,
      JSON.stringify(snapshot),
      queryId,
    );
  } finally {
    await database.close();
  }
}

async function setConfig(items: Record<string, string>): Promise<void> {
  const current = (await (await admin("GET", "/api/v1/system/config?include_schema=false")).json()) as {
    config_version: string;
  };
  const res = await admin("PUT", "/api/v1/system/config", {
    config_version: current.config_version,
    items: Object.entries(items).map(([key, value]) => ({ key, value })),
  });
  expect(res.status, await res.text()).toBe(200);
}

beforeAll(async () => {
  server = await startTestServer({
    ADMIN_AUTH_ENABLED: "true",
    MCP_ENABLED: "true",
    MARKET_DATA_SOURCES: "sample",
    STOCK_LIST: "600519",
  });
  cookie = await adminCookie(server.baseUrl);
  writeToken = (await mint("write")).token;
  const read = await mint("read");
  readToken = read.token;
  readTokenId = read.id;
});
afterAll(async () => {
  await server?.stop();
});

describe("MCP over Streamable HTTP", () => {
  let client: Client;
  let recordId: string;

  beforeAll(async () => {
    client = await connect(writeToken);
  });
  afterAll(async () => {
    await client?.close();
  });

  it("initialises and lists every tool, with input and output schemas, to a write token", async () => {
    expect(client.getServerVersion()).toMatchObject({ name: "dsa" });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(MCP_TOOLS.map((t) => t.name).sort());
    for (const tool of tools) {
      expect(tool.inputSchema.type, tool.name).toBe("object");
      expect(tool.outputSchema?.type, tool.name).toBe("object");
    }
  });

  it("analyze_stock queues an analysis, reports progress and answers the stored report", async () => {
    const progress: number[] = [];
    const out = structured(
      await client.callTool({ name: "analyze_stock", arguments: { code: "600519" } }, undefined, {
        onprogress: (p) => progress.push(p.progress),
      }),
    );
    expect(out).toMatchObject({ status: "completed", progress: 100 });
    expect(progress.length).toBeGreaterThan(0);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    const result = out.result as { stock_code: string; query_id: string; report: { meta: { id: number } } };
    expect(result.stock_code).toBe("600519");
    recordId = String(result.report.meta.id);
    await moveBack(result.query_id, 12);
  });

  it("calls every tool with a good input (answers validated against its output schema by the client)", async () => {
    const good: Record<string, Record<string, unknown>> = {
      get_realtime_quote: { code: "600519" },
      get_daily_history: { code: "AAPL", days: 10 },
      analyze_trend: { code: "00700" },
      get_market_indices: { region: "us" },
      search_stock_news: { code: "600519" },
      get_latest_report: { code: "600519" },
      get_decision_signals: {},
      get_stock_backtest_summary: { code: "600519" },
      get_portfolio: {},
      get_report: { record_id: recordId },
      search_history: { stock_code: "600519", limit: 5 },
      get_signal_outcome_stats: {},
      get_watchlist: {},
      list_alert_rules: {},
      list_screening_strategies: { language: "en" },
      list_paper_accounts: {},
      get_task_status: { task_id: "no-such-task" },
      analyze_stock: { code: "AAPL", wait: false },
      add_to_watchlist: { stock_code: "AAPL" },
      remove_from_watchlist: { stock_code: "AAPL" },
      create_alert_rule: { alert_type: "price_cross", target: "600519", parameters: { direction: "above", price: 1 } },
      run_backtest: { code: "600519", eval_window_days: 5 },
      get_backtest_performance: { code: "600519", eval_window_days: 5 },
      run_market_review: { region: "us", send_notification: false },
      run_screening: { market: "cn", strategy: "volume_surge", max_results: 5 },
    };
    expect(Object.keys(good).sort()).toEqual(MCP_TOOLS.map((t) => t.name).sort());
    const answers: Record<string, Record<string, unknown>> = {};
    for (const [name, args] of Object.entries(good)) {
      const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
      if (name === "get_task_status") {
        // An unknown task: the API's 404, as a tool error.
        expect(JSON.parse(errorOf(result)), name).toMatchObject({ error: "not_found" });
        continue;
      }
      answers[name] = structured(result);
      expect(JSON.parse((result.content[0] as { text: string }).text), name).toEqual(answers[name]);
    }
    expect(answers.get_realtime_quote).toMatchObject({ code: "600519", source: "sample", is_sample_data: true });
    expect(answers.get_report!.markdown).toContain("600519");
    expect((answers.get_report!.report as { meta: { id: number } }).meta.id).toBe(Number(recordId));
    expect(answers.get_watchlist).toEqual({ stock_codes: ["600519"] });
    expect(answers.add_to_watchlist).toEqual({ stock_codes: ["600519", "AAPL"] });
    expect(answers.remove_from_watchlist).toEqual({ stock_codes: ["600519"] });
    expect(answers.create_alert_rule).toMatchObject({ alert_type: "price_cross", target: "600519" });
    expect(answers.analyze_stock).toMatchObject({ status: expect.stringMatching(/pending|processing|completed/) });
    expect(answers.run_market_review).toMatchObject({ status: "accepted", region: "us" });
    expect(answers.search_history).toMatchObject({ total: expect.any(Number) });
    expect(answers.list_paper_accounts).toEqual({ items: [] });
    // The report moved 12 sessions back is evaluated over the 5 that followed it.
    expect(answers.run_backtest).toMatchObject({ completed: 1 });
    expect(answers.get_backtest_performance).toMatchObject({ completed_count: 1, eval_window_days: 5 });
    // No answer carries a secret: the tokens or the admin password.
    const all = JSON.stringify(answers);
    for (const secret of [writeToken, readToken, PASSWORD]) expect(all).not.toContain(secret);
  });

  it("refuses a bad input to every tool with a tool error", async () => {
    const bad: Record<string, Record<string, unknown>> = {
      get_realtime_quote: {},
      get_daily_history: { code: "600519", days: 1000 },
      analyze_trend: { code: "" },
      get_market_indices: { region: "jp" },
      search_stock_news: { code: 7 },
      get_latest_report: { code: "600519", limit: 50 },
      get_decision_signals: { code: "x".repeat(40) },
      get_stock_backtest_summary: {},
      get_portfolio: { account: "all" },
      get_report: { record_id: "999999" },
      search_history: { limit: 0 },
      get_signal_outcome_stats: { engine_version: "x".repeat(100) },
      get_backtest_performance: { eval_window_days: -1 },
      get_watchlist: { extra: true },
      list_alert_rules: { page: 0 },
      list_screening_strategies: { language: "fr" },
      list_paper_accounts: { id: 1 },
      get_task_status: { task_id: "" },
      analyze_stock: { code: "NOT A STOCK 123" },
      add_to_watchlist: { stock_code: "NOT A STOCK 123" },
      remove_from_watchlist: {},
      create_alert_rule: { alert_type: "moon_phase", target: "600519" },
      run_backtest: { limit: 0 },
      run_market_review: { region: "mars" },
      run_screening: { market: "cn", strategy: "moonshot" },
    };
    expect(Object.keys(bad).sort()).toEqual(MCP_TOOLS.map((t) => t.name).sort());
    for (const [name, args] of Object.entries(bad)) {
      const text = errorOf(await client.callTool({ name, arguments: args }));
      expect(text.length, name).toBeGreaterThan(0);
    }
    // Refusals by the domain carry the HTTP API's error code.
    const codeOf = async (name: string) => JSON.parse(errorOf(await client.callTool({ name, arguments: bad[name] })));
    expect(await codeOf("get_report")).toMatchObject({ error: "not_found" });
    expect(await codeOf("add_to_watchlist")).toMatchObject({ error: "invalid_stock_code" });
    expect(await codeOf("run_screening")).toMatchObject({ error: "not_found", reason_code: "strategy_not_found" });
    expect(await codeOf("create_alert_rule")).toMatchObject({ error: "unsupported_alert_type" });
  });

  it("serves reports and the watchlist as resources, the share card as a PNG, and the prompts", async () => {
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(
      expect.arrayContaining(["dsa://watchlist", `dsa://reports/${recordId}`]),
    );
    const report = await client.readResource({ uri: `dsa://reports/${recordId}` });
    expect(report.contents[0]).toMatchObject({ mimeType: "text/markdown", text: expect.stringContaining("600519") });
    const watch = await client.readResource({ uri: "dsa://watchlist" });
    expect(JSON.parse((watch.contents[0] as { text: string }).text)).toEqual({ stock_codes: ["600519"] });
    const png = await client.readResource({ uri: `dsa://reports/${recordId}/share.png` });
    const bytes = Buffer.from((png.contents[0] as { blob: string }).blob, "base64");
    expect(png.contents[0]!.mimeType).toBe("image/png");
    expect(bytes.subarray(1, 4).toString("latin1")).toBe("PNG");

    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name).sort()).toEqual(["analyse_stock", "explain_report", "review_watchlist"]);
    const explain = await client.getPrompt({ name: "explain_report", arguments: { record_id: recordId } });
    expect(explain.messages[0]!.content).toMatchObject({
      type: "resource",
      resource: { uri: `dsa://reports/${recordId}` },
    });
  });

  it("a read token sees only read tools and cannot run a write tool", async () => {
    const reader = await connect(readToken);
    const { tools } = await reader.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(
      MCP_TOOLS.filter((t) => t.scope === "read")
        .map((t) => t.name)
        .sort(),
    );
    expect(tools.every((t) => t.annotations?.readOnlyHint === true)).toBe(true);
    expect(errorOf(await reader.callTool({ name: "add_to_watchlist", arguments: { stock_code: "AAPL" } }))).toMatch(
      /not found/,
    );
    expect(structured(await reader.callTool({ name: "get_watchlist", arguments: {} }))).toEqual({
      stock_codes: ["600519"],
    });
    await reader.close();
  });

  it("refuses a request with no token, a bad body with a JSON-RPC error, GET with 405", async () => {
    const url = `${server.baseUrl}/mcp`;
    const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };
    const none = await fetch(url, { method: "POST", headers, body: "{}" });
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect(await none.json()).toMatchObject({ error: "unauthorized" });
    const garbled = await fetch(url, {
      method: "POST",
      headers: { ...headers, authorization: `Bearer ${readToken}` },
      body: "{not json",
    });
    expect(garbled.status).toBe(400);
    expect(await garbled.json()).toMatchObject({ jsonrpc: "2.0", error: { code: -32700 } });
    const notRpc = await fetch(url, {
      method: "POST",
      headers: { ...headers, authorization: `Bearer ${readToken}` },
      body: JSON.stringify({ hello: "world" }),
    });
    expect(notRpc.status).toBe(400);
    expect(await notRpc.json()).toMatchObject({ jsonrpc: "2.0", error: { code: expect.any(Number) } });
    const get = await fetch(url, { headers: { authorization: `Bearer ${readToken}` } });
    expect(get.status).toBe(405);
  });

  it("a revoked token is refused at once, and MCP_ENABLED=false answers 404", async () => {
    const reader = await connect(readToken);
    expect(structured(await reader.callTool({ name: "get_watchlist", arguments: {} }))).toBeTruthy();
    expect((await admin("DELETE", `/api/v1/auth/tokens/${readTokenId}`)).status).toBe(204);
    await expect(reader.callTool({ name: "get_watchlist", arguments: {} })).rejects.toMatchObject({ code: 401 });
    await setConfig({ MCP_ENABLED: "false" });
    const off = await fetch(`${server.baseUrl}/mcp`, {
      method: "POST",
      headers: { authorization: `Bearer ${writeToken}`, "content-type": "application/json" },
      body: "{}",
    });
    expect(off.status).toBe(404);
    await setConfig({ MCP_ENABLED: "true" });
  });

  it("counts calls against the token's rate limit and shows the token as used", async () => {
    const tokens = (await (await admin("GET", "/api/v1/auth/tokens")).json()) as {
      items: { name: string; last_used_at: string | null }[];
    };
    expect(tokens.items.find((t) => t.name === "mcp-write")?.last_used_at).toEqual(expect.any(String));
    await setConfig({ API_TOKEN_RATE_PER_MINUTE: "2" });
    const ping = () =>
      fetch(`${server.baseUrl}/mcp`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${writeToken}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
      });
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await ping()).status);
    expect(statuses).toContain(429);
    await setConfig({ API_TOKEN_RATE_PER_MINUTE: "120" });
  });
});

describe("dsa-mcp over stdio", () => {
  it("forwards a stdio client's requests to the running service", async () => {
    const client = new Client({ name: "dsa-stdio-test", version: "1.0.0" });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [path.resolve("scripts/dsa-mcp.mjs")],
        env: { DSA_URL: server.baseUrl, DSA_API_TOKEN: writeToken, PATH: process.env.PATH ?? "" },
        stderr: "pipe",
      }),
    );
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain("analyze_stock");
    expect(structured(await client.callTool({ name: "get_watchlist", arguments: {} }))).toEqual({
      stock_codes: ["600519"],
    });
    await client.close();
  });

  it("refuses to start without a token", async () => {
    const child = spawn(process.execPath, [path.resolve("scripts/dsa-mcp.mjs")], {
      env: { ...process.env, DSA_API_TOKEN: "" },
      stdio: "ignore",
    });
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    expect(code).toBe(2);
  });
});
