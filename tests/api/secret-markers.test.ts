import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { validReport } from "@/tests/kits/llm-fixtures";
import { configFields, configPatternFields } from "@/lib/config/schema";
import { startTestServer, type TestServer } from "../setup/api-server";
import { databaseKind } from "@/lib/db/database-url";
import { openServerDatabase } from "../setup/server-database";

// Both databases: what is stored differs (on PostgreSQL the configuration is a database row), and nothing stored may hold a secret.
// Every secret setting holds a distinct marker (SECRETMARK_<name>_7f3a); the service is driven
// through config reads and writes, every GET operation, analyses with an LLM channel (a local stub that
// sees the key, then answers 401 echoing it), the report's Markdown, share HTML and PNG, the task stream,
// notification sends to stubs that echo what they received, the admin password and an API token. No answer,
// stream, log line or byte of the database may hold a marker. Legitimate holders: the env file (where
// settings live) and its .env.bak, the admin-only config export (the env file as a backup) and the
// token-creation answer (the token, once).

const TAG = "SECRETMARK_";
const mark = (name: string) => `${TAG}${name}_7f3a`;
const PASSWORD = mark("ADMIN_PASSWORD");

// Every sensitive key of the config schema, plus the LLM channel family and an unknown key named like a secret.
const CHANNEL_KEYS = ["LLM_STUB_API_KEY", "LLM_STUB_API_KEYS"];
const SENSITIVE = [
  ...configFields()
    .filter((f) => f.sensitive)
    .map((f) => f.key),
  ...CHANNEL_KEYS,
  "MY_VENDOR_API_KEY",
];

interface Seen {
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One local server standing in for every outside service: the LLM endpoint and all webhook-style channels. */
function startStubs(llm: { price: number; mode: "ok" | "echo401" }) {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString("utf8")));
    req.on("end", () => {
      seen.push({ url: req.url ?? "", headers: req.headers, body });
      const echo = `got ${req.url} with ${req.headers.authorization ?? ""} ${JSON.stringify(req.headers)} ${body.slice(0, 2000)}`;
      if (req.url?.startsWith("/v1/chat/completions")) {
        if (llm.mode === "echo401") {
          res.writeHead(401, { "content-type": "application/json" });
          res.end(
            JSON.stringify({
              error: {
                message: `Incorrect API key provided: ${req.headers.authorization}`,
                type: "invalid_request_error",
                code: "invalid_api_key",
              },
            }),
          );
          return;
        }
        const report = validReport({
          action: "hold",
          score: 55,
          levels: {
            ideal_buy: llm.price * 0.99,
            secondary_buy: llm.price * 0.97,
            stop_loss: llm.price * 0.95,
            take_profit: llm.price * 1.1,
          },
        });
        res.writeHead(200, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            id: "c",
            object: "chat.completion",
            created: 1_790_000_000,
            model: "stub-model",
            choices: [
              { index: 0, message: { role: "assistant", content: JSON.stringify(report) }, finish_reason: "stop" },
            ],
            usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
          }),
        );
        return;
      }
      // Every field a channel might read a reason from carries the echo, with a failing status.
      res.writeHead(500, { "content-type": "application/json", "x-echo": encodeURIComponent(echo).slice(0, 4000) });
      res.end(
        JSON.stringify({
          ok: false,
          description: echo,
          errmsg: echo,
          message: echo,
          error: echo,
          msg: echo,
          errcode: 1,
          code: 1,
        }),
      );
    });
  });
  return new Promise<{ base: string; seen: Seen[]; close: () => Promise<void> }>((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({
        base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        seen,
        close: () =>
          new Promise((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      }),
    ),
  );
}

/** An SMTP server that refuses the login with a reply echoing the password it was sent. */
async function startSmtp(): Promise<{ port: number; passwords: string[]; close: () => Promise<void> }> {
  const passwords: string[] = [];
  const smtp = new SMTPServer({
    disabledCommands: ["STARTTLS"],
    allowInsecureAuth: true,
    authMethods: ["PLAIN", "LOGIN"],
    logger: false,
    onAuth(auth, _session, callback) {
      passwords.push(auth.password ?? "");
      callback(new Error(`Invalid login ${auth.username} / ${auth.password}`));
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
  return {
    port: (smtp.server.address() as AddressInfo).port,
    passwords,
    close: () => new Promise((done) => smtp.close(() => done())),
  };
}

function envFile(stub: string, smtpPort: number): string {
  const values: Record<string, string> = Object.fromEntries(SENSITIVE.map((key) => [key, mark(key)]));
  // URL-valued secrets point at the stub, the marker in their path or query.
  for (const key of [
    "WECHAT_WEBHOOK_URL",
    "FEISHU_WEBHOOK_URL",
    "DINGTALK_WEBHOOK_URL",
    "DISCORD_WEBHOOK_URL",
    "SLACK_WEBHOOK_URL",
    "NTFY_URL",
    "GOTIFY_URL",
    "ASTRBOT_URL",
  ]) {
    values[key] = `${stub}/hook/${mark(key)}?key=${mark(`${key}_QUERY`)}`;
  }
  values.CUSTOM_WEBHOOK_URLS = `${stub}/custom/${mark("CUSTOM_WEBHOOK_URLS")}`;
  values.SESSION_SECRET = `${mark("SESSION_SECRET")}_long_enough_for_iron_session`;
  // The machine's Redis, the marker as its password (this Redis has none, so the client warns and goes on).
  values.REDIS_URL = `redis://:${mark("REDIS_URL")}@127.0.0.1:6379/0`;
  values.LLM_STUB_API_KEYS = "";
  const lines = {
    ...values,
    MARKET_DATA_SOURCES: "sample",
    LLM_STUB_PROTOCOL: "openai",
    LLM_STUB_BASE_URL: `${stub}/v1`,
    LLM_STUB_MODELS: "stub-model",
    OPENAI_BASE_URL: `${stub}/v1`,
    TELEGRAM_API_BASE_URL: stub,
    TELEGRAM_CHAT_ID: "12345",
    FEISHU_APP_ID: "cli_app",
    FEISHU_CHAT_ID: "oc_chat",
    DISCORD_MAIN_CHANNEL_ID: "42",
    SLACK_CHANNEL_ID: "C42",
    EMAIL_SENDER: "dsa@example.com",
    EMAIL_SMTP_HOST: "127.0.0.1",
    EMAIL_SMTP_PORT: String(smtpPort),
    NOTIFICATION_RETRY_ATTEMPTS: "1",
    NOTIFICATION_TIMEOUT_MS: "3000",
  };
  return `${Object.entries(lines)
    .filter(([, v]) => v !== "")
    .map(([k, v]) => `${k}=${v}`)
    .join("\n")}\n`;
}

/** Where a marker (or an extra secret) shows up in a text, for the failure message. */
function leaks(text: string, extra: string[] = []): string[] {
  const found: string[] = [];
  for (let at = text.indexOf(TAG); at >= 0 && found.length < 5; at = text.indexOf(TAG, at + 1))
    found.push(text.slice(Math.max(0, at - 80), at + 60));
  for (const secret of extra) if (secret && text.includes(secret)) found.push(`…${secret.slice(0, 8)}… (extra secret)`);
  return found;
}

describe("no secret setting leaks through answers, streams, logs or the database", () => {
  let server: TestServer;
  let stubs: Awaited<ReturnType<typeof startStubs>>;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  const llm = { price: 100, mode: "ok" as "ok" | "echo401" };
  let cookie = "";
  let apiToken = "";
  const records: { id: number; queryId: string }[] = [];
  const checked: string[] = [];

  const call = async (method: string, p: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${server.baseUrl}${p}`, {
      method,
      headers: { "content-type": "application/json", cookie, ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const bytes = Buffer.from(await res.arrayBuffer());
    const text = bytes.toString("latin1") + bytes.toString("utf8") + JSON.stringify([...res.headers]);
    checked.push(`${method} ${p}`);
    return {
      status: res.status,
      bytes,
      json: () => JSON.parse(bytes.toString("utf8")) as Record<string, unknown>,
      text,
    };
  };
  const expectClean = (what: string, text: string) =>
    expect(leaks(text, apiToken ? [apiToken.slice(12)] : []), what).toEqual([]);

  beforeAll(async () => {
    stubs = await startStubs(llm);
    smtp = await startSmtp();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "dsa-secrets-"));
    fs.writeFileSync(path.join(dataDir, ".env"), envFile(stubs.base, smtp.port));
    server = await startTestServer(
      {
        ADMIN_AUTH_ENABLED: "true",
        OUTBOUND_ALLOW_PRIVATE: "true",
        LOG_LEVEL: "debug",
        TASK_MARKET_RATE_PER_MINUTE: "6000",
      },
      { dataDir },
    );
    // The first login sets the admin password (the service's own page sends its Origin).
    const login = await fetch(`${server.baseUrl}/api/v1/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.baseUrl },
      body: JSON.stringify({ password: PASSWORD, passwordConfirm: PASSWORD }),
    });
    expect(login.status).toBe(200);
    cookie = /dsa_session=[^;]*/.exec(login.headers.get("set-cookie") ?? "")![0];
  });
  afterAll(async () => {
    await server?.stop();
    await stubs?.close();
    await smtp?.close();
  });

  it("config: reads are masked, writes and validation never echo a secret, the export is the admin's backup", async () => {
    const config = await call("GET", "/api/v1/system/config?include_schema=true");
    expect(config.status).toBe(200);
    expectClean("GET config", config.text);
    const items = (config.json().items as { key: string; is_masked: boolean }[]).filter(
      (i) => SENSITIVE.includes(i.key) && i.key !== "LLM_STUB_API_KEYS",
    );
    expect(items.length).toBeGreaterThanOrEqual(SENSITIVE.length - 1);
    expect(items.every((i) => i.is_masked)).toBe(true);
    expectClean("GET config schema", (await call("GET", "/api/v1/system/config/schema")).text);

    const invalid = await call("POST", "/api/v1/system/config/validate", {
      items: [
        { key: "CUSTOM_WEBHOOK_URLS", value: mark("not_a_url") },
        { key: "SESSION_SECRET", value: mark("short") },
        { key: "WECHAT_WEBHOOK_URL", value: `ftp://${mark("bad_scheme")}` },
        { key: "OPENAI_API_KEY", value: `${mark("ctrl")}\u0001` },
      ],
    });
    expect(invalid.status).toBe(200);
    expect((invalid.json().issues as unknown[]).length).toBeGreaterThanOrEqual(3);
    expectClean("validate", invalid.text);

    // A PUT that saves a new secret and turns the LLM channel on; one that fails validation.
    const version = config.json().config_version as string;
    const bad = await call("PUT", "/api/v1/system/config", {
      config_version: version,
      items: [{ key: "NTFY_URL", value: mark("NTFY_URL_BAD") }],
    });
    expect(bad.status).toBe(400);
    expectClean("PUT config (invalid)", bad.text);
    const put = await call("PUT", "/api/v1/system/config", {
      config_version: version,
      items: [{ key: "DEEPSEEK_API_KEY", value: mark("DEEPSEEK_API_KEY_PUT") }],
    });
    expect(put.status).toBe(200);
    expectClean("PUT config", put.text);

    // Config export is admin-session only (an API token or auth off: 403): it is the env file, secrets and all.
    const created = await call("POST", "/api/v1/auth/tokens", { name: "marker", scope: "write" });
    expect(created.status).toBe(201);
    apiToken = created.json().token as string;
    const byToken = await call("GET", "/api/v1/system/config/export", undefined, {
      cookie: "",
      authorization: `Bearer ${apiToken}`,
    });
    expect(byToken.status).toBe(403);
    expectClean("export with a token", byToken.text);
    const exported = await call("GET", "/api/v1/system/config/export");
    expect(exported.status).toBe(200);
    expect(exported.text).toContain(mark("OPENAI_API_KEY"));
    expectClean("token list", (await call("GET", "/api/v1/auth/tokens")).text);
  });

  it("analyses with the LLM channel: the key goes to the stub in Authorization, never into answers; a 401 echoing it stays out too", async () => {
    const first = await call("POST", "/api/v1/analysis/analyze", { stock_code: "600519", notify: false });
    expect(first.status).toBe(200);
    expectClean("analyze (rule-based)", first.text);
    const firstResult = first.json() as { query_id: string; report: { meta: { id: number; current_price: number } } };
    records.push({ id: firstResult.report.meta.id, queryId: firstResult.query_id });
    llm.price = firstResult.report.meta.current_price;

    const config = await call("GET", "/api/v1/system/config");
    const on = await call("PUT", "/api/v1/system/config", {
      config_version: config.json().config_version,
      items: [{ key: "LLM_CHANNELS", value: "stub" }],
    });
    expect(on.status).toBe(200);

    const withLlm = await call("POST", "/api/v1/analysis/analyze", {
      stock_code: "600519",
      notify: false,
      report_language: "en",
    });
    expect(withLlm.status).toBe(200);
    expectClean("analyze (LLM)", withLlm.text);
    const llmResult = withLlm.json() as {
      query_id: string;
      report: { meta: { id: number; model_used: string | null } };
    };
    expect(llmResult.report.meta.model_used).toBe("stub-model");
    records.push({ id: llmResult.report.meta.id, queryId: llmResult.query_id });
    expect(
      stubs.seen.some(
        (s) =>
          s.url.startsWith("/v1/chat/completions") && s.headers.authorization === `Bearer ${mark("LLM_STUB_API_KEY")}`,
      ),
    ).toBe(true);

    llm.mode = "echo401";
    const refused = await call("POST", "/api/v1/analysis/analyze", { stock_code: "000001", notify: false });
    expect(refused.status).toBe(200);
    expectClean("analyze (LLM 401 echoing the key)", refused.text);
    const refusedResult = refused.json() as {
      query_id: string;
      report: { meta: { id: number } };
      diagnostic_summary: { components: { llm: { status: string } } };
    };
    expect(refusedResult.diagnostic_summary.components.llm.status).not.toBe("ok");
    records.push({ id: refusedResult.report.meta.id, queryId: refusedResult.query_id });
  });

  it("the task stream of an async analysis that notifies every channel (each answering with an echo of what it got)", async () => {
    llm.mode = "ok";
    const controller = new AbortController();
    const stream = await fetch(`${server.baseUrl}/api/v1/analysis/tasks/stream`, {
      headers: { cookie },
      signal: controller.signal,
    });
    expect(stream.status).toBe(200);
    const reader = stream.body!.getReader();
    let text = "";
    const accepted = await call("POST", "/api/v1/analysis/analyze", {
      stock_code: "AAPL",
      async_mode: true,
      notify: true,
    });
    expect(accepted.status).toBe(202);
    const taskId = accepted.json().task_id as string;
    const deadline = Date.now() + 30_000;
    // One read stays pending across the 1 s ticks: a read abandoned to the timer would swallow the chunk it later gets.
    let pending: ReturnType<typeof reader.read> | null = null;
    while (!new RegExp(`event: task_(completed|failed)\\ndata: [^\\n]*${taskId}`).test(text) && Date.now() < deadline) {
      pending ??= reader.read();
      const chunk = await Promise.race([pending, new Promise<null>((r) => setTimeout(() => r(null), 1_000))]);
      if (chunk === null) continue;
      pending = null;
      if (chunk.done) break;
      text += Buffer.from(chunk.value).toString("utf8");
    }
    controller.abort();
    expect(text).toContain("task_completed");
    expectClean("task stream", text);
    expectClean("task status", (await call("GET", `/api/v1/analysis/status/${taskId}`)).text);
    const stored = await call("GET", `/api/v1/history/${taskId}`);
    expectClean("history record of the task", stored.text);
    records.push({ id: (stored.json() as { meta: { id: number } }).meta.id, queryId: taskId });
  });

  it("notification test sends: every channel fails with its service echoing the secrets; no answer or delivery holds one", async () => {
    const res = await call("POST", "/api/v1/notifications/test", {});
    expect(res.status).toBeLessThan(500);
    expectClean("notifications/test", res.text);
    const results = JSON.stringify(res.json());
    expect(results).toMatch(/failed/);
    // The secrets really went out: in the custom webhook's Authorization, the Telegram path, the SMTP login.
    expect(stubs.seen.some((s) => s.headers.authorization === `Bearer ${mark("CUSTOM_WEBHOOK_BEARER_TOKEN")}`)).toBe(
      true,
    );
    expect(stubs.seen.some((s) => s.url.includes(mark("TELEGRAM_BOT_TOKEN")))).toBe(true);
    expect(smtp.passwords).toContain(mark("EMAIL_PASSWORD"));
    const hooks = new Set(stubs.seen.filter((s) => s.url.startsWith("/hook/")).map((s) => s.url.split("/")[2]));
    expect(hooks.size, [...hooks].join()).toBeGreaterThanOrEqual(8);
    expectClean("deliveries", (await call("GET", "/api/v1/notifications/deliveries?page_size=100")).text);
    expectClean("channels", (await call("GET", "/api/v1/notifications/channels")).text);
  });

  it("reports: Markdown, share HTML (the PNG's source) and the PNG of every record", async () => {
    for (const { id } of records.filter((r) => r.id > 0)) {
      for (const p of ["markdown", "share-image-html", "share-image", "diagnostics", "flow", "news"]) {
        const res = await call("GET", `/api/v1/history/${id}/${p}`);
        expect(res.status, `${p} of ${id}`).toBe(200);
        expectClean(`${p} of ${id}`, res.text);
      }
    }
  });

  it("every GET operation of /openapi.json, with the session and with the API token", async () => {
    const doc = (await (await fetch(`${server.baseUrl}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    const record = records[1]!;
    const ids: Record<string, string> = {
      record_id: String(record.id),
      task_id: record.queryId,
      stock_code: "600519",
      signal_id: "1",
      rule_id: "1",
      backtest_id: "x",
      id: "x",
      code: "600519",
    };
    let walked = 0;
    for (const [template, methods] of Object.entries(doc.paths)) {
      if (!("get" in methods) || template.endsWith("/tasks/stream")) continue;
      const p = template.replace(/\{([^}]+)\}/g, (_m, name: string) => ids[name] ?? "1");
      for (const headers of [{}, { cookie: "", authorization: `Bearer ${apiToken}` }] as Record<string, string>[]) {
        // The export with the session is the env file itself (checked above); with the token it is 403.
        if (template === "/api/v1/system/config/export" && !headers.authorization) continue;
        const res = await call("GET", p, undefined, headers);
        expect(res.status, `GET ${p}`).toBeLessThan(500);
        expectClean(`GET ${p}`, res.text);
      }
      walked++;
    }
    expect(walked).toBeGreaterThan(40);
  });

  it("after all that: the server's log output and the database file hold no secret; the token is stored as a hash", async () => {
    await server.stop();
    const log = fs.readFileSync(path.join(server.dataDir, "server.log"), "utf8");
    expect(log.length).toBeGreaterThan(1000);
    expectClean("server log (stdout and stderr)", log);
    expect(log).not.toContain(PASSWORD);
    if (databaseKind(server.databaseUrl) === "sqlite") {
      for (const file of ["api.db", "api.db-wal", "api.db-shm", "api.db-journal"]) {
        const full = path.join(server.dataDir, file);
        if (!fs.existsSync(full)) continue;
        const bytes = fs.readFileSync(full);
        expectClean(`database file ${file}`, bytes.toString("latin1"));
        expect(bytes.includes(Buffer.from(apiToken)), `${file}: the API token`).toBe(false);
      }
      // Settings live in the env file, and a config write keeps the previous file as .env.bak (same mode):
      // those two hold secrets by design. Anything else written to the data folder must not.
      const envMode = fs.statSync(path.join(server.dataDir, ".env")).mode & 0o777;
      expect(fs.statSync(path.join(server.dataDir, ".env.bak")).mode & 0o777).toBe(envMode);
    } else {
      // PostgreSQL: the settings live in the config document row, which holds secrets by design (as the env file
      // does); every other table must not, and nothing may hold the API token itself.
      const database = await openServerDatabase(server);
      try {
        const tables = await database.all<{ name: string }>(
          "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public'",
        );
        for (const { name } of tables) {
          const text = (await database.all<{ t: string }>(`SELECT t::text AS t FROM "${name}" t`))
            .map((r) => r.t)
            .join("\n");
          if (name === "config_document") expect(text).toContain(mark("OPENAI_API_KEY"));
          else expectClean(`database table ${name}`, text);
          expect(text.includes(apiToken), `${name}: the API token`).toBe(false);
        }
      } finally {
        await database.close();
      }
    }
    const others = fs
      .readdirSync(server.dataDir)
      .filter(
        (f) =>
          ![".env", ".env.bak", "server.log"].includes(f) &&
          !f.startsWith("api.db") &&
          !fs.statSync(path.join(server.dataDir, f)).isDirectory(),
      );
    for (const f of others)
      expectClean(`data folder file ${f}`, fs.readFileSync(path.join(server.dataDir, f)).toString("latin1"));
    expect(fs.readFileSync(path.join(server.dataDir, ".env"), "utf8")).toContain(mark("OPENAI_API_KEY"));
    expect(checked.length).toBeGreaterThan(100);
    expect(
      configPatternFields()
        .filter((f) => f.sensitive)
        .map((f) => f.key),
    ).toEqual(["LLM_<CHANNEL>_API_KEY", "LLM_<CHANNEL>_API_KEYS"]);
  });
});
