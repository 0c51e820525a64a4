import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { GET as exportGET } from "@/app/api/v1/system/config/export/route";
import { POST as importPOST } from "@/app/api/v1/system/config/import/route";
import { GET, PUT } from "@/app/api/v1/system/config/route";
import { GET as schemaGET } from "@/app/api/v1/system/config/schema/route";
import { POST as validatePOST } from "@/app/api/v1/system/config/validate/route";
import { readEnvSnapshot } from "./env-store";
import { getSettings, setEnvironmentForTests } from "@/lib/settings/settings";

// Sessions live in the database (lib/auth); here a request with the cookie "dsa_session=test" counts as
// logged in, so these tests exercise the config API behind the real guard without a database.
vi.mock("@/lib/auth/session", () => ({
  sessionOf: async (req: Request) =>
    (req.headers.get("cookie") ?? "").includes("dsa_session=test") ? { sid: "test" } : null,
}));

let dir: string;
let file: string;

const ctx = { params: Promise.resolve({}) };
const BASE = "http://test/api/v1/system/config";

function call(
  handler: (req: Request, c: typeof ctx) => Promise<Response>,
  method: string,
  url: string,
  body?: unknown,
  loggedIn = true,
) {
  const headers: Record<string, string> = loggedIn ? { cookie: "dsa_session=test" } : {};
  const init: RequestInit = { method, headers };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    headers["content-type"] = "application/json";
  }
  return handler(new Request(url, init), ctx).then(async (res) => ({ status: res.status, body: await res.json() }));
}

const getConfig = (query = "") => call(GET, "GET", `${BASE}${query}`);
const putConfig = (body: unknown) => call(PUT, "PUT", BASE, body);
const validate = (body: unknown) => call(validatePOST, "POST", `${BASE}/validate`, body);
const exportConfig = () => call(exportGET, "GET", `${BASE}/export`);
const importConfig = (body: unknown) => call(importPOST, "POST", `${BASE}/import`, body);
const version = () => readEnvSnapshot(file).version;
const bytes = () => fs.readFileSync(file);

type Item = {
  key: string;
  value: string;
  raw_value_exists: boolean;
  is_masked: boolean;
  schema?: { category: string; is_sensitive: boolean };
};
const itemOf = (items: Item[], key: string) => items.find((i) => i.key === key);

const START = [
  "# DSA settings (hand-written)",
  "LOG_LEVEL=info",
  "OPENAI_API_KEY=sk-live-123 # rotated monthly",
  "STOCK_LIST=600519,AAPL",
  "",
  "# not ours",
  "SOME_VENDOR_TOKEN=vt-999",
  "LITELLM_MODEL=deepseek/deepseek-chat",
  "LLM_CHANNELS=deepseek",
  "LLM_DEEPSEEK_API_KEY=sk-ds-1",
  "",
].join("\n");

function useFile(content: string | null, env: Record<string, string> = {}) {
  if (content !== null) fs.writeFileSync(file, content);
  setEnvironmentForTests({ ENV_FILE: file, ...env });
}

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "dsa-system-config-"));
  file = path.join(dir, "app.env");
});

afterEach(() => {
  setEnvironmentForTests(process.env);
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("4.4 GET /api/v1/system/config", () => {
  it("masks every sensitive value that is set and flags it; plain values come back as saved", async () => {
    useFile(START);
    const res = await getConfig();
    expect(res.status).toBe(200);
    expect(res.body.config_version).toBe(version());
    expect(res.body.mask_token).toBe("******");
    expect(typeof res.body.updated_at).toBe("string");
    const items = res.body.items as Item[];
    expect(itemOf(items, "OPENAI_API_KEY")).toMatchObject({ value: "******", raw_value_exists: true, is_masked: true });
    expect(itemOf(items, "LLM_DEEPSEEK_API_KEY")).toMatchObject({ value: "******", is_masked: true });
    expect(itemOf(items, "SOME_VENDOR_TOKEN")).toMatchObject({
      value: "******",
      is_masked: true,
      schema: { category: "uncategorized" },
    });
    expect(itemOf(items, "STOCK_LIST")).toMatchObject({
      value: "600519,AAPL",
      raw_value_exists: true,
      is_masked: false,
    });
    expect(itemOf(items, "TAVILY_API_KEYS")).toMatchObject({ value: "", raw_value_exists: false, is_masked: false });
    expect(JSON.stringify(res.body)).not.toMatch(/sk-live-123|vt-999|sk-ds-1/);
  });

  it("lists every schema key, the keys of declared LLM channels, and the file's unknown keys", async () => {
    useFile(START);
    const keys = ((await getConfig()).body.items as Item[]).map((i) => i.key);
    for (const k of [
      "MAX_WORKERS",
      "SCHEDULE_TIME",
      "LLM_DEEPSEEK_BASE_URL",
      "LLM_DEEPSEEK_MODELS",
      "LITELLM_MODEL",
      "SOME_VENDOR_TOKEN",
    ]) {
      expect(keys).toContain(k);
    }
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("include_schema defaults to true; include_schema=false leaves it out", async () => {
    useFile(START);
    const withSchema = (await getConfig()).body.items as Item[];
    expect(withSchema.every((i) => i.schema !== undefined)).toBe(true);
    const without = (await getConfig("?include_schema=false")).body.items as Item[];
    expect(without.every((i) => i.schema === undefined)).toBe(true);
  });

  it('without a file: version "missing:0" and nothing set', async () => {
    useFile(null);
    const res = await getConfig();
    expect(res.body.config_version).toBe("missing:0");
    expect(res.body.updated_at).toBeUndefined();
    expect((res.body.items as Item[]).every((i) => !i.raw_value_exists)).toBe(true);
  });
});

describe("4.4 PUT /api/v1/system/config", () => {
  it("updates by key, keeps comments, order and unknown keys, answers the new version and reloads settings", async () => {
    useFile(START);
    const before = version();
    const res = await putConfig({
      config_version: before,
      items: [
        { key: "LOG_LEVEL", value: "debug" },
        { key: "MAX_WORKERS", value: "5" },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      success: true,
      applied_count: 2,
      skipped_masked_count: 0,
      reload_triggered: true,
      updated_keys: ["LOG_LEVEL", "MAX_WORKERS"],
    });
    expect(res.body.config_version).toBe(version());
    expect(res.body.config_version).not.toBe(before);
    expect(fs.readFileSync(file, "utf8")).toBe(START.replace("LOG_LEVEL=info", "LOG_LEVEL=debug") + "MAX_WORKERS=5\n");
    expect(getSettings().LOG_LEVEL).toBe("debug");
    expect(fs.readFileSync(`${file}.bak`, "utf8")).toBe(START);
  });

  it("4.4 rule: a value equal to the mask keeps the stored secret", async () => {
    useFile(START);
    const res = await putConfig({
      config_version: version(),
      items: [
        { key: "OPENAI_API_KEY", value: "******" },
        { key: "LLM_DEEPSEEK_API_KEY", value: "******" },
        { key: "STOCK_LIST", value: "000001" },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ applied_count: 1, skipped_masked_count: 2, updated_keys: ["STOCK_LIST"] });
    const text = fs.readFileSync(file, "utf8");
    expect(text).toContain("OPENAI_API_KEY=sk-live-123 # rotated monthly\n");
    expect(text).toContain("LLM_DEEPSEEK_API_KEY=sk-ds-1\n");
  });

  it("honours a client's own mask_token, and a new secret replaces the old one", async () => {
    useFile(START);
    const res = await putConfig({
      config_version: version(),
      mask_token: "<hidden>",
      items: [
        { key: "OPENAI_API_KEY", value: "<hidden>" },
        { key: "TAVILY_API_KEYS", value: "tvly-1,tvly-2" },
      ],
    });
    expect(res.body).toMatchObject({ applied_count: 1, skipped_masked_count: 1 });
    const again = await putConfig({ config_version: version(), items: [{ key: "OPENAI_API_KEY", value: "sk-new" }] });
    expect(again.status).toBe(200);
    expect(readEnvSnapshot(file).values).toMatchObject({ OPENAI_API_KEY: "sk-new", TAVILY_API_KEYS: "tvly-1,tvly-2" });
  });

  it("any invalid value: 400 validation_failed with per-key issues, and nothing is written", async () => {
    useFile(START);
    const before = bytes();
    const res = await putConfig({
      config_version: version(),
      items: [
        { key: "LOG_LEVEL", value: "debug" },
        { key: "MAX_WORKERS", value: "0" },
        { key: "SCHEDULE_TIME", value: "25:00" },
        { key: "OPENAI_BASE_URL", value: "not a url" },
        { key: "SESSION_SECRET", value: "too-short-secret" },
      ],
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("validation_failed");
    const errors = (res.body.issues as { key: string; code: string; severity: string }[]).filter(
      (i) => i.severity === "error",
    );
    expect(errors.map((i) => [i.key, i.code])).toEqual([
      ["MAX_WORKERS", "out_of_range"],
      ["SCHEDULE_TIME", "invalid_time"],
      ["OPENAI_BASE_URL", "invalid_url"],
      ["SESSION_SECRET", "too_short"],
    ]);
    expect(JSON.stringify(res.body)).not.toContain("too-short-secret");
    expect(bytes().equals(before)).toBe(true);
  });

  it("a stale version: 409 config_version_conflict with current_config_version, nothing written", async () => {
    useFile(START);
    const stale = version();
    expect((await putConfig({ config_version: stale, items: [{ key: "MAX_WORKERS", value: "4" }] })).status).toBe(200);
    const before = bytes();
    const res = await putConfig({ config_version: stale, items: [{ key: "MAX_WORKERS", value: "6" }] });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      error: "config_version_conflict",
      message: expect.any(String),
      current_config_version: version(),
    });
    expect(bytes().equals(before)).toBe(true);
  });

  it("a hand edit of the file after the read is a conflict too", async () => {
    useFile(START);
    const read = (await getConfig()).body.config_version as string;
    fs.appendFileSync(file, "ADDED_BY_HAND=1\n");
    const res = await putConfig({ config_version: read, items: [{ key: "MAX_WORKERS", value: "6" }] });
    expect(res.status).toBe(409);
  });

  it("two concurrent PUTs with the same version: exactly one 200 and one 409", async () => {
    useFile(START);
    const v = version();
    const results = await Promise.all([
      putConfig({ config_version: v, items: [{ key: "MAX_WORKERS", value: "7" }] }),
      putConfig({ config_version: v, items: [{ key: "MAX_WORKERS", value: "8" }] }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const winner = results.find((r) => r.status === 200)!;
    const loser = results.find((r) => r.status === 409)!;
    expect(loser.body.current_config_version).toBe(winner.body.config_version);
  });

  it("unknown keys are accepted, written and reported as warnings, never rejected", async () => {
    useFile(START);
    const res = await putConfig({ config_version: version(), items: [{ key: "MY_PLUGIN_SETTING", value: "on" }] });
    expect(res.status).toBe(200);
    expect(res.body.updated_keys).toEqual(["MY_PLUGIN_SETTING"]);
    expect(res.body.warnings.join(" ")).toMatch(/MY_PLUGIN_SETTING is not a setting this service knows/);
    expect(readEnvSnapshot(file).values.MY_PLUGIN_SETTING).toBe("on");
  });

  it("read-only keys are refused with read_only unless unchanged", async () => {
    useFile("PORT=3000\n");
    const refused = await putConfig({ config_version: version(), items: [{ key: "PORT", value: "4000" }] });
    expect(refused.status).toBe(400);
    expect(refused.body.issues[0]).toMatchObject({ key: "PORT", code: "read_only", severity: "error" });
    const auth = await putConfig({ config_version: version(), items: [{ key: "ADMIN_AUTH_ENABLED", value: "true" }] });
    expect(auth.status).toBe(400);
    const same = await putConfig({
      config_version: version(),
      items: [
        { key: "PORT", value: "3000" },
        { key: "MAX_WORKERS", value: "2" },
      ],
    });
    expect(same.status).toBe(200);
    expect(same.body.updated_keys).toEqual(["MAX_WORKERS"]);
  });

  it("values with spaces, #, quotes, = and unicode are stored so they read back identically", async () => {
    useFile(START);
    const tricky = {
      CUSTOM_WEBHOOK_BODY_TEMPLATE: '{"text": $content_json} # not a comment',
      FEISHU_WEBHOOK_KEYWORD: "股票日报 it's =ok",
      TELEGRAM_CHAT_ID: "",
    };
    const res = await putConfig({
      config_version: version(),
      items: Object.entries(tricky).map(([key, value]) => ({ key, value })),
    });
    expect(res.status).toBe(200);
    expect(readEnvSnapshot(file).values).toMatchObject({
      CUSTOM_WEBHOOK_BODY_TEMPLATE: tricky.CUSTOM_WEBHOOK_BODY_TEMPLATE,
      FEISHU_WEBHOOK_KEYWORD: tricky.FEISHU_WEBHOOK_KEYWORD,
    });
    const items = (await getConfig()).body.items as Item[];
    expect(itemOf(items, "FEISHU_WEBHOOK_KEYWORD")?.value).toBe(tricky.FEISHU_WEBHOOK_KEYWORD);
  });

  it("a value no env-file quoting can hold is a validation error, not a corrupted file", async () => {
    useFile(START);
    const res = await putConfig({
      config_version: version(),
      items: [{ key: "FEISHU_WEBHOOK_KEYWORD", value: "`'\"#" }],
    });
    expect(res.status).toBe(400);
    expect(res.body.issues[0]).toMatchObject({ key: "FEISHU_WEBHOOK_KEYWORD", code: "unrepresentable_value" });
  });

  it("a lower-case spelling of a known key is kept as its own key, with a hint", async () => {
    useFile(START);
    const res = await validate({ items: [{ key: "log_level", value: "debug" }] });
    expect(res.body.issues[0].message).toMatch(/did you mean LOG_LEVEL\?/);
  });

  it("creates the file when there is none (version missing:0)", async () => {
    useFile(null);
    const res = await putConfig({ config_version: "missing:0", items: [{ key: "STOCK_LIST", value: "600519" }] });
    expect(res.status).toBe(200);
    expect(fs.readFileSync(file, "utf8")).toBe("STOCK_LIST=600519\n");
  });

  it("a malformed body is 422 (no items, missing version)", async () => {
    useFile(START);
    expect((await putConfig({ config_version: version(), items: [] })).status).toBe(422);
    expect((await putConfig({ items: [{ key: "A", value: "1" }] })).status).toBe(422);
  });
});

describe("4.4 POST /api/v1/system/config/validate", () => {
  it("reports issues and writes nothing: the file's bytes and version are unchanged", async () => {
    useFile(START);
    const beforeBytes = bytes();
    const beforeVersion = version();
    const res = await validate({
      items: [
        { key: "MAX_WORKERS", value: "abc" },
        { key: "MARKET_REVIEW_REGION", value: "jp" },
        { key: "NEW_THING", value: "x" },
        { key: "OPENAI_API_KEY", value: "******" },
        { key: "bad key", value: "1" },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.valid).toBe(false);
    expect(
      res.body.issues.map((i: { key: string; code: string; severity: string }) => `${i.severity}:${i.key}:${i.code}`),
    ).toEqual([
      "error:MAX_WORKERS:invalid_integer",
      "warning:MARKET_REVIEW_REGION:unsupported_value",
      "warning:NEW_THING:unknown_key",
      "error:bad key:invalid_key",
    ]);
    expect(bytes().equals(beforeBytes)).toBe(true);
    expect(version()).toBe(beforeVersion);
    expect(fs.existsSync(`${file}.bak`)).toBe(false);
  });

  it("warnings alone leave the result valid", async () => {
    useFile(START);
    const res = await validate({ items: [{ key: "REPORT_LANGUAGE", value: "ko" }] });
    expect(res.body).toMatchObject({ valid: true, issues: [{ key: "REPORT_LANGUAGE", severity: "warning" }] });
  });
});

describe("4.4 GET /api/v1/system/config/schema", () => {
  it("answers categories with typed fields, rules and UI hints", async () => {
    const res = await call(schemaGET, "GET", `${BASE}/schema`);
    expect(res.status).toBe(200);
    expect(res.body.categories.map((c: { category: string }) => c.category)).toEqual([
      "base",
      "ai_model",
      "data_source",
      "notification",
      "system",
      "uncategorized",
    ]);
    const field = res.body.categories
      .flatMap((c: { fields: unknown[] }) => c.fields)
      .find((f: { key: string }) => f.key === "MAX_WORKERS");
    expect(field).toMatchObject({
      data_type: "integer",
      ui_control: "number",
      default_value: "3",
      validation: { min: 1, max: 20 },
      is_editable: true,
    });
  });
});

describe("4.4 / 5: export and import", () => {
  it("both answer 403 env_backup_access_denied while admin auth is disabled", async () => {
    useFile(START);
    const exported = await exportConfig();
    expect(exported.status).toBe(403);
    expect(exported.body.error).toBe("env_backup_access_denied");
    const before = bytes();
    const imported = await importConfig({ config_version: version(), content: "MAX_WORKERS=4\n" });
    expect(imported.status).toBe(403);
    expect(imported.body.error).toBe("env_backup_access_denied");
    expect(bytes().equals(before)).toBe(true);
  });

  it("with admin auth on, the central guard answers 401 without a session (not this API's concern)", async () => {
    useFile(START, { ADMIN_AUTH_ENABLED: "true" });
    expect((await call(exportGET, "GET", `${BASE}/export`, undefined, false)).status).toBe(401);
    expect((await call(GET, "GET", BASE, undefined, false)).status).toBe(401);
  });

  it("export answers the saved file text, secrets included, with its version", async () => {
    useFile(START, { ADMIN_AUTH_ENABLED: "true" });
    const res = await exportConfig();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ content: START, config_version: version(), updated_at: expect.any(String) });
  });

  it("export of a missing file is empty content with version missing:0", async () => {
    useFile(null, { ADMIN_AUTH_ENABLED: "true" });
    expect((await exportConfig()).body).toEqual({ content: "", config_version: "missing:0" });
  });

  it("round trip: importing an export restores the file's keys, keeping the current file's comments", async () => {
    useFile(START, { ADMIN_AUTH_ENABLED: "true" });
    const backup = (await exportConfig()).body as { content: string };
    const changed = await putConfig({
      config_version: version(),
      items: [
        { key: "LOG_LEVEL", value: "error" },
        { key: "OPENAI_API_KEY", value: "sk-other" },
        { key: "STOCK_LIST", value: "000001" },
      ],
    });
    expect(changed.status).toBe(200);
    const res = await importConfig({ config_version: version(), content: backup.content });
    expect(res.status).toBe(200);
    expect(res.body.updated_keys.sort()).toEqual(["LOG_LEVEL", "OPENAI_API_KEY", "STOCK_LIST"]);
    expect(readEnvSnapshot(file).values).toEqual(readEnvSnapshotOf(START));
    expect(fs.readFileSync(file, "utf8")).toBe(START);
    expect(getSettings().LOG_LEVEL).toBe("info");
  });

  it("a value holding a control character (a raw NUL) is refused and nothing is written", async () => {
    useFile(START, { ADMIN_AUTH_ENABLED: "true" });
    const before = bytes();
    const res = await importConfig({ config_version: version(), content: "STOCK_LIST=600519\u0000AAPL\n" });
    expect(res.status).toBe(400);
    expect(res.body.issues).toContainEqual(
      expect.objectContaining({ key: "STOCK_LIST", code: "control_character", severity: "error" }),
    );
    expect(bytes().equals(before)).toBe(true);
    const put = await putConfig({ config_version: version(), items: [{ key: "LOG_LEVEL", value: "info\u0007" }] });
    expect(put.status).toBe(400);
  });

  it("loopback, metadata, numeric and IPv6-loopback URLs are refused by validate and PUT unless OUTBOUND_ALLOW_PRIVATE is on", async () => {
    useFile(START);
    for (const [key, value] of [
      ["CUSTOM_WEBHOOK_URLS", "https://hooks.example.com/a http://169.254.169.254/latest/meta-data/"],
      ["SLACK_WEBHOOK_URL", "http://127.0.0.1:6379/"],
      ["OPENAI_BASE_URL", "http://2130706433:8080/v1"],
      ["NTFY_URL", "http://[::1]:8080/topic"],
      ["GOTIFY_URL", "http://metadata.google.internal/"],
      ["DISCORD_WEBHOOK_URL", "gopher://example.com/"],
      ["NTFY_URL", "http://[::127.0.0.1]/topic"],
      ["GOTIFY_URL", "http://[2002:7f00:1::]/"],
      ["SLACK_WEBHOOK_URL", "http://localhost./hook"],
      ["EMAIL_SMTP_HOST", "127.0.0.1"],
      ["EMAIL_SMTP_HOST", "localhost."],
      ["EMAIL_SMTP_HOST", "::1"],
    ]) {
      const res = await validate({ items: [{ key, value }] });
      expect(res.body.valid, `${key}=${value}`).toBe(false);
      expect(res.body.issues).toContainEqual(
        expect.objectContaining({
          key,
          code: "outbound_refused",
          severity: "error",
          message: expect.stringContaining("refused"),
        }),
      );
    }
    const put = await putConfig({
      config_version: version(),
      items: [{ key: "SLACK_WEBHOOK_URL", value: "http://127.0.0.1:6379/" }],
    });
    expect(put.status).toBe(400);
    const allowed = await validate({
      items: [
        { key: "SLACK_WEBHOOK_URL", value: "http://127.0.0.1:6379/" },
        { key: "OUTBOUND_ALLOW_PRIVATE", value: "true" },
      ],
    });
    expect(allowed.body.valid).toBe(true);
    expect(
      (await validate({ items: [{ key: "SLACK_WEBHOOK_URL", value: "https://hooks.slack.com/services/T0/B0/x" }] }))
        .body.valid,
    ).toBe(true);
  });

  it("PORTFOLIO_FX_RATES=garbage fails validation with a message naming the expected form", async () => {
    useFile(START);
    const res = await validate({ items: [{ key: "PORTFOLIO_FX_RATES", value: "garbage" }] });
    expect(res.body.valid).toBe(false);
    expect(res.body.issues[0]).toMatchObject({
      key: "PORTFOLIO_FX_RATES",
      severity: "error",
      expected: expect.stringContaining("USD=7.1"),
    });
    const ok = await validate({ items: [{ key: "PORTFOLIO_FX_RATES", value: "USD=7.2, HKD=0.92,EUR=7.8" }] });
    expect(ok.body.valid).toBe(true);
  });

  it("merges key by key: keys missing from the import stay, unknown keys are added and reported", async () => {
    useFile(START, { ADMIN_AUTH_ENABLED: "true" });
    const res = await importConfig({
      config_version: version(),
      content: "# backup\nMAX_WORKERS=4\nLEGACY_THING=yes\n",
    });
    expect(res.status).toBe(200);
    expect(res.body.warnings.join(" ")).toMatch(/LEGACY_THING is not a setting this service knows/);
    const values = readEnvSnapshot(file).values;
    expect(values).toMatchObject({
      MAX_WORKERS: "4",
      LEGACY_THING: "yes",
      STOCK_LIST: "600519,AAPL",
      OPENAI_API_KEY: "sk-live-123",
    });
  });

  it("a reference service .env imports cleanly: its spellings are converted, unsupported values warned, read-only keys skipped", async () => {
    useFile("ADMIN_AUTH_ENABLED=true\n", { ADMIN_AUTH_ENABLED: "true" });
    const reference = [
      "STOCK_LIST=600519,300750,002594",
      "LITELLM_MODEL=deepseek/deepseek-chat",
      "GEMINI_API_KEY=gk-1",
      "LOG_LEVEL=INFO",
      "REPORT_LANGUAGE=ko",
      "MARKET_REVIEW_REGION=both",
      "SCHEDULE_TIME=18:00",
      "MARKDOWN_TO_IMAGE_MAX_CHARS=15000",
      "WEBUI_PORT=8000",
      "ADMIN_AUTH_ENABLED=false",
      "",
    ].join("\n");
    const res = await importConfig({ config_version: version(), content: reference });
    expect(res.status).toBe(200);
    const values = readEnvSnapshot(file).values;
    expect(values).toMatchObject({
      LOG_LEVEL: "info",
      REPORT_LANGUAGE: "ko",
      LITELLM_MODEL: "deepseek/deepseek-chat",
      GEMINI_API_KEY: "gk-1",
      ADMIN_AUTH_ENABLED: "true",
    });
    expect(res.body.warnings.join("\n")).toMatch(/ADMIN_AUTH_ENABLED cannot be changed through the config API/);
    expect(getSettings().LOG_LEVEL).toBe("info");
  });

  it("a masked secret in the import keeps the stored one", async () => {
    useFile(START, { ADMIN_AUTH_ENABLED: "true" });
    const res = await importConfig({ config_version: version(), content: "OPENAI_API_KEY=******\n" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ applied_count: 0, skipped_masked_count: 1 });
    expect(readEnvSnapshot(file).values.OPENAI_API_KEY).toBe("sk-live-123");
  });

  it("blank content or no KEY=VALUE line: 400 invalid_import_file", async () => {
    useFile(START, { ADMIN_AUTH_ENABLED: "true" });
    for (const content of ["", "   \n\n", "# only a comment\njust words\n"]) {
      const res = await importConfig({ config_version: version(), content });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe("invalid_import_file");
    }
  });

  it("an invalid value: 400 validation_failed and nothing written; a stale version: 409", async () => {
    useFile(START, { ADMIN_AUTH_ENABLED: "true" });
    const before = bytes();
    const invalid = await importConfig({ config_version: version(), content: "MAX_WORKERS=99\nSTOCK_LIST=1\n" });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toMatchObject({
      error: "validation_failed",
      issues: [{ key: "MAX_WORKERS", code: "out_of_range" }],
    });
    expect(bytes().equals(before)).toBe(true);
    const stale = await importConfig({ config_version: "missing:0", content: "MAX_WORKERS=4\n" });
    expect(stale.status).toBe(409);
    expect(stale.body.current_config_version).toBe(version());
  });
});

function readEnvSnapshotOf(content: string): Record<string, string> {
  const other = path.join(dir, "expected.env");
  fs.writeFileSync(other, content);
  return readEnvSnapshot(other).values;
}
