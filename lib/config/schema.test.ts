import { describe, expect, it } from "vitest";
import {
  CONFIG_CATEGORIES,
  configFields,
  configSchemaWire,
  fieldFor,
  isSensitiveKey,
  llmChannelOf,
  lookupField,
  normalizeValue,
  validateValue,
} from "./schema";
import { ZSystemConfigSchemaResponse } from "./schemas";
import { LAUNCH_KEYS, ZSettings } from "@/lib/settings/settings-schema";

const codes = (key: string, value: string) =>
  validateValue(key, normalizeValue(key, value)).map((i) => `${i.severity}:${i.code}`);

describe("4.4 config schema: coverage", () => {
  it("keys are unique", () => {
    const keys = configFields().map((f) => f.key);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("every setting the accessor types (ZSettings) has a schema entry", () => {
    const missing = Object.keys(ZSettings.shape).filter((k) => !lookupField(k));
    expect(missing).toEqual([]);
  });

  it("holds every setting docs/api.md §8 names, with the reference's key names", () => {
    const named = [
      "SHARE_IMAGE_MAX_CHARS",
      "MARKDOWN_TO_IMAGE_MAX_CHARS",
      "MAX_WORKERS",
      "MARKET_REVIEW_REGION",
      "REPORT_LANGUAGE",
      "ADMIN_AUTH_ENABLED",
      "ADMIN_SESSION_MAX_AGE_HOURS",
      "STOCK_LIST",
      "SCHEDULE_TIME",
      "LLM_CHANNELS",
      "OPENAI_API_KEY",
      "OPENAI_BASE_URL",
      "OPENAI_MODEL",
      "DEEPSEEK_API_KEY",
      "TAVILY_API_KEYS",
      "SERPAPI_API_KEYS",
      "BOCHA_API_KEYS",
      "BRAVE_API_KEYS",
      "DATABASE_URL",
      "ENV_FILE",
      "MARKET_DATA_SOURCES",
      "SAMPLE_LATENCY_MS",
      "SESSION_SECRET",
      "SSE_HEARTBEAT_SECONDS",
      "TRUST_X_FORWARDED_FOR",
      "PORT",
      "HOSTNAME",
      "LOG_LEVEL",
    ];
    expect(named.filter((k) => !lookupField(k))).toEqual([]);
    for (const suffix of ["BASE_URL", "API_KEY", "MODELS", "PROTOCOL"]) {
      expect(lookupField(`LLM_DEEPSEEK_${suffix}`)?.key).toBe(`LLM_DEEPSEEK_${suffix}`);
    }
  });

  it("defaults match docs/api.md §8", () => {
    const def = (k: string) => lookupField(k)?.default;
    expect([
      def("SHARE_IMAGE_MAX_CHARS"),
      def("MAX_WORKERS"),
      def("MARKET_REVIEW_REGION"),
      def("REPORT_LANGUAGE"),
    ]).toEqual(["15000", "3", "cn", "zh"]);
    expect([
      def("ADMIN_SESSION_MAX_AGE_HOURS"),
      def("MARKET_DATA_SOURCES"),
      def("SAMPLE_LATENCY_MS"),
      def("SSE_HEARTBEAT_SECONDS"),
    ]).toEqual(["24", "eastmoney,tencent,yahoo", "0", "30"]);
  });

  it("every default passes its own rule and the settings accessor's schema", () => {
    for (const f of configFields()) {
      if (f.default === undefined) continue;
      expect(
        validateValue(f.key, f.default).filter((i) => i.severity === "error"),
        f.key,
      ).toEqual([]);
    }
  });

  it("launch keys and the auth switch are read-only; everything else is editable", () => {
    const readOnly = configFields()
      .filter((f) => f.editable === false)
      .map((f) => f.key)
      .sort();
    expect(readOnly).toEqual([...LAUNCH_KEYS, "ADMIN_AUTH_ENABLED"].sort());
  });

  it("every field is in a declared category and secrets use the password control", () => {
    const categories = new Set(CONFIG_CATEGORIES.map((c) => c.category));
    for (const f of configFields()) {
      expect(categories.has(f.category), f.key).toBe(true);
      if (f.sensitive) expect(f.uiControl === "password" || f.uiControl === "textarea", f.key).toBe(true);
    }
  });
});

describe("4.4 config schema: sensitivity", () => {
  it("API keys, tokens, secrets, passwords and webhook URLs are sensitive", () => {
    for (const k of [
      "OPENAI_API_KEY",
      "TAVILY_API_KEYS",
      "SESSION_SECRET",
      "EMAIL_PASSWORD",
      "TELEGRAM_BOT_TOKEN",
      "WECHAT_WEBHOOK_URL",
      "CUSTOM_WEBHOOK_URLS",
      "LLM_MY_PROXY_API_KEY",
    ]) {
      expect(isSensitiveKey(k), k).toBe(true);
    }
    for (const k of ["STOCK_LIST", "OPENAI_BASE_URL", "LOG_LEVEL", "LLM_DEEPSEEK_BASE_URL", "TELEGRAM_CHAT_ID"]) {
      expect(isSensitiveKey(k), k).toBe(false);
    }
  });

  it("unknown keys are inferred from their names, like the reference does", () => {
    expect(fieldFor("SOME_VENDOR_TOKEN")).toMatchObject({
      known: false,
      field: { sensitive: true, uiControl: "password", category: "uncategorized" },
    });
    expect(fieldFor("LITELLM_MODEL")).toMatchObject({ known: false, field: { sensitive: false, uiControl: "text" } });
  });

  it("an issue never carries the value of a sensitive key", () => {
    const issues = validateValue("SESSION_SECRET", "short-secret");
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ code: "too_short", severity: "error" });
    expect(JSON.stringify(issues)).not.toContain("short-secret");
    expect(JSON.stringify(validateValue("WECHAT_WEBHOOK_URL", "not a url with secret123"))).not.toContain("secret123");
  });
});

describe("4.4 config schema: validation rules", () => {
  it("an empty value means unset and is always valid", () => {
    for (const f of configFields()) expect(validateValue(f.key, ""), f.key).toEqual([]);
  });

  it("integers: format and range", () => {
    expect(codes("MAX_WORKERS", "3")).toEqual([]);
    expect(codes("MAX_WORKERS", "0")).toEqual(["error:out_of_range"]);
    expect(codes("MAX_WORKERS", "21")).toEqual(["error:out_of_range"]);
    expect(codes("MAX_WORKERS", "2.5")).toEqual(["error:invalid_integer"]);
    expect(codes("PORT", "70000")).toEqual(["error:out_of_range"]);
    expect(validateValue("MAX_WORKERS", "0")[0]).toMatchObject({
      key: "MAX_WORKERS",
      expected: ">= 1 and <= 20",
      actual: "0",
    });
  });

  it("numbers with an exclusive minimum", () => {
    expect(codes("ADMIN_SESSION_MAX_AGE_HOURS", "0.5")).toEqual([]);
    expect(codes("ADMIN_SESSION_MAX_AGE_HOURS", "0")).toEqual(["error:out_of_range"]);
    expect(codes("ADMIN_SESSION_MAX_AGE_HOURS", "abc")).toEqual(["error:invalid_number"]);
  });

  it("enums, aliases and lenient enums", () => {
    expect(codes("MARKET_REVIEW_REGION", "both")).toEqual([]);
    expect(codes("MARKET_REVIEW_REGION", "jp")).toEqual(["warning:unsupported_value"]);
    expect(codes("REPORT_LANGUAGE", "en-US")).toEqual([]);
    expect(codes("REPORT_LANGUAGE", "ko")).toEqual(["warning:unsupported_value"]);
    expect(codes("REPORT_TYPE", "detailed")).toEqual([]);
    expect(codes("REPORT_TYPE", "novel")).toEqual(["error:invalid_enum"]);
    expect(codes("LLM_X_PROTOCOL", "openai")).toEqual([]);
  });

  it("LOG_LEVEL accepts the reference's upper-case levels by converting them on save", () => {
    expect(normalizeValue("LOG_LEVEL", "INFO")).toBe("info");
    expect(normalizeValue("LOG_LEVEL", "WARNING")).toBe("warn");
    expect(normalizeValue("LOG_LEVEL", "CRITICAL")).toBe("fatal");
    expect(codes("LOG_LEVEL", "DEBUG")).toEqual([]);
    expect(codes("LOG_LEVEL", "chatty")).toEqual(["error:invalid_enum"]);
  });

  it("booleans", () => {
    for (const v of ["true", "false", "TRUE", "1", "0", "yes", "off"]) expect(codes("SCHEDULE_ENABLED", v)).toEqual([]);
    expect(codes("SCHEDULE_ENABLED", "maybe")).toEqual(["error:invalid_boolean"]);
  });

  it("URLs, emails, times, time ranges and time zones", () => {
    expect(codes("OPENAI_BASE_URL", "https://api.openai.com/v1")).toEqual([]);
    expect(codes("OPENAI_BASE_URL", "ftp://x")).toEqual(["error:invalid_url"]);
    expect(codes("OPENAI_BASE_URL", "api.openai.com")).toEqual(["error:invalid_url"]);
    expect(codes("EMAIL_SENDER", "me@example.com")).toEqual([]);
    expect(codes("EMAIL_SENDER", "me")).toEqual(["error:invalid_email"]);
    expect(codes("SCHEDULE_TIME", "18:00")).toEqual([]);
    expect(codes("SCHEDULE_TIME", "24:00")).toEqual(["error:invalid_time"]);
    expect(codes("SCHEDULE_TIME", "6pm")).toEqual(["error:invalid_time"]);
    expect(codes("NOTIFICATION_QUIET_HOURS", "23:00-07:00")).toEqual([]);
    expect(codes("NOTIFICATION_QUIET_HOURS", "23-7")).toEqual(["error:invalid_time_range"]);
    expect(codes("NOTIFICATION_TIMEZONE", "Asia/Shanghai")).toEqual([]);
    expect(codes("NOTIFICATION_TIMEZONE", "Mars/Olympus")).toEqual(["error:invalid_timezone"]);
    expect(codes("DATABASE_URL", "postgres://x")).toEqual(["error:invalid_format"]);
  });

  it("host settings (EMAIL_SMTP_HOST, HOSTNAME) take a host name or IP address, nothing else", () => {
    for (const ok of [
      "smtp.qq.com",
      "smtp.qq.com.",
      "mail",
      "mail-relay_1.corp.example",
      "192.0.2.10",
      "2001:db8::1",
      "[2001:db8::1]",
      "0.0.0.0",
      " smtp.example.com ",
    ]) {
      expect(codes("EMAIL_SMTP_HOST", ok), ok).toEqual([]);
    }
    for (const bad of [
      "smtp.qq.com:465",
      "smtps://smtp.qq.com",
      "smtp.qq.com/x",
      "smtp qq.com",
      "smtp.qq.com\nRCPT TO:<x>",
      "smtp.\tqq.com",
      "-smtp.qq.com",
      "smtp..qq.com",
      "999.1.1.1",
      "a".repeat(64) + ".com",
      "user@smtp.qq.com",
      "\u0000",
    ]) {
      expect(codes("EMAIL_SMTP_HOST", bad)[0], JSON.stringify(bad)).toMatch(/^error:(invalid_host|control_character)$/);
    }
    expect(codes("HOSTNAME", "0.0.0.0")).toEqual([]);
    expect(codes("HOSTNAME", "local host")).toEqual(["error:invalid_host"]);
    expect(fieldFor("EMAIL_SMTP_HOST").field.rule).toEqual({ kind: "host" });
  });

  it("comma lists: item types, allowed values, and pasted separators folded on save", () => {
    expect(codes("MARKET_DATA_SOURCES", "eastmoney,yahoo")).toEqual([]);
    expect(codes("MARKET_DATA_SOURCES", "eastmoney,bloomberg")).toEqual(["warning:unsupported_list_item"]);
    expect(codes("MARKET_DATA_SOURCES", "east money")).toEqual(["error:invalid_list_item"]);
    expect(codes("NOTIFICATION_REPORT_CHANNELS", "email,carrier_pigeon")).toEqual(["warning:unsupported_list_item"]);
    expect(codes("EMAIL_RECEIVERS", "a@example.com, b@example.com")).toEqual([]);
    expect(codes("EMAIL_RECEIVERS", "a@example.com,nobody")).toEqual(["error:invalid_list_item"]);
    expect(codes("CUSTOM_WEBHOOK_URLS", "https://a.example/x,https://b.example/y")).toEqual([]);
    expect(codes("LLM_CHANNELS", "deepseek,my-proxy")).toEqual([]);
    expect(codes("LLM_CHANNELS", "deep seek")).toEqual(["error:invalid_list_item"]);
    expect(normalizeValue("STOCK_LIST", " 600519，000001、 AAPL\nhk00700 ")).toBe("600519,000001,AAPL,hk00700");
    expect(normalizeValue("MARKET_DATA_SOURCES", " eastmoney , tencent ,")).toBe("eastmoney,tencent");
  });

  it("minimum lengths (SESSION_SECRET must have 32 characters, as ZSettings requires)", () => {
    expect(codes("SESSION_SECRET", "x".repeat(32))).toEqual([]);
    expect(codes("SESSION_SECRET", "x".repeat(31))).toEqual(["error:too_short"]);
  });

  it("free text is kept byte for byte; typed values lose surrounding blanks", () => {
    expect(normalizeValue("CUSTOM_WEBHOOK_BODY_TEMPLATE", '  {"a": $content_json}  ')).toBe('  {"a": $content_json}  ');
    expect(normalizeValue("MAX_WORKERS", " 4 ")).toBe("4");
    expect(normalizeValue("UNKNOWN_KEY", "  kept  ")).toBe("  kept  ");
  });

  it("LLM channel keys belong to their channel", () => {
    expect(llmChannelOf("LLM_MY_PROXY_BASE_URL")).toBe("MY_PROXY");
    expect(llmChannelOf("LLM_DEEPSEEK_API_KEYS")).toBe("DEEPSEEK");
    expect(llmChannelOf("LLM_CHANNELS")).toBeUndefined();
  });
});

describe("4.4 config schema: wire form", () => {
  it("matches SystemConfigSchemaResponse, categories in display order, fields sorted", () => {
    const wire = configSchemaWire();
    expect(ZSystemConfigSchemaResponse.safeParse(wire).success).toBe(true);
    expect(wire.categories.map((c) => c.category)).toEqual([
      "base",
      "ai_model",
      "data_source",
      "notification",
      "system",
      "uncategorized",
    ]);
    for (const c of wire.categories) {
      const orders = c.fields.map((f) => f.display_order);
      expect(orders).toEqual([...orders].sort((a, b) => a - b));
    }
    expect(wire.schema_version).toMatch(/^dsa-config-[0-9a-f]{12}$/);
    expect(wire.key_patterns.map((p) => p.key)).toContain("LLM_<CHANNEL>_BASE_URL");
  });

  it("describes rules in the reference's vocabulary", () => {
    const fields = configSchemaWire().categories.flatMap((c) => c.fields);
    const byKey = (k: string) => fields.find((f) => f.key === k);
    expect(byKey("MAX_WORKERS")?.validation).toMatchObject({ min: 1, max: 20 });
    expect(byKey("MARKET_REVIEW_REGION")?.validation).toMatchObject({ enum: ["cn", "hk", "us", "both"] });
    expect(byKey("SCHEDULE_TIME")?.validation).toMatchObject({ pattern: "^([01]\\d|2[0-3]):[0-5]\\d$" });
    expect(byKey("TAVILY_API_KEYS")?.validation).toMatchObject({ multi_value: true, delimiter: "," });
    expect(byKey("OPENAI_BASE_URL")?.validation).toMatchObject({ format: "url" });
    expect(byKey("PORT")).toMatchObject({ is_editable: false, default_value: "3000" });
    expect(byKey("OPENAI_API_KEY")).toMatchObject({ is_sensitive: true, ui_control: "password" });
  });
});
