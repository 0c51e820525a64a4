import { createHash } from "node:crypto";
import net from "node:net";
import { ZSettings } from "@/lib/settings/settings-schema";

// The config schema: every setting the service reads (or is about to), with its category, type, UI hint,
// default, validation rule and sensitivity. Key names follow the reference service wherever it has one,
// so an existing user's .env imports cleanly; keys not listed here are kept and reported, never rejected.
// New settings are added here and to ZSettings (settings-schema.ts) together.

export type ConfigCategory = "base" | "ai_model" | "data_source" | "notification" | "system" | "uncategorized";
export type ConfigDataType = "string" | "integer" | "number" | "boolean" | "array" | "json" | "time";
export type ConfigUiControl = "text" | "password" | "number" | "select" | "textarea" | "switch" | "time";
export type ConfigOption = string | { label: string; value: string };

export type ConfigRule =
  | { kind: "text"; minLength?: number; pattern?: RegExp; patternHint?: string }
  | {
      kind: "enum";
      values: readonly string[];
      /** Spellings accepted and read as the mapped value. */
      aliases?: Readonly<Record<string, string>>;
      /** Other values are accepted with a warning (the service falls back to the default) instead of rejected. */
      lenient?: boolean;
      /** Rewrite an alias to its canonical value when saving (for keys the settings accessor reads strictly). */
      canonicalize?: boolean;
    }
  | { kind: "integer"; min?: number; max?: number }
  | { kind: "number"; min?: number; max?: number; exclusiveMin?: boolean }
  | { kind: "boolean" }
  | { kind: "url"; schemes?: readonly string[] }
  | { kind: "sqlite_url" }
  | { kind: "email" }
  /** A host name or IP address alone: no scheme, port, path, blanks or control characters. */
  | { kind: "host" }
  | { kind: "time" }
  | { kind: "time_range" }
  | { kind: "timezone" }
  | {
      kind: "list";
      item?: "text" | "url" | "email" | "time" | "name";
      allowed?: readonly string[];
      /** Items outside `allowed` give a warning rather than an error. */
      lenient?: boolean;
      /** Extra separators pasted lists use (full-width commas, spaces, new lines), folded into "," on save. */
      looseSeparators?: boolean;
      maxItemLength?: number;
    };

export interface ConfigField {
  key: string;
  title: string;
  description: string;
  category: ConfigCategory;
  dataType: ConfigDataType;
  uiControl: ConfigUiControl;
  sensitive?: boolean;
  required?: boolean;
  /** False: shown but not changed through the config API (launch keys, the auth switch). */
  editable?: boolean;
  default?: string;
  options?: readonly ConfigOption[];
  rule?: ConfigRule;
  order: number;
  examples?: readonly string[];
  warningCodes?: readonly string[];
}

/** A family of keys such as LLM_<CHANNEL>_BASE_URL; `key` is the display template. */
export interface ConfigPatternField extends ConfigField {
  pattern: RegExp;
}

export interface ConfigCategoryInfo {
  category: ConfigCategory;
  title: string;
  description: string;
  display_order: number;
}

export const CONFIG_CATEGORIES: readonly ConfigCategoryInfo[] = [
  { category: "base", title: "Base", description: "Watchlist and report defaults.", display_order: 10 },
  {
    category: "ai_model",
    title: "AI model",
    description: "LLM channels, provider keys and models.",
    display_order: 20,
  },
  {
    category: "data_source",
    title: "Data sources",
    description: "Market data providers and news search keys.",
    display_order: 30,
  },
  {
    category: "notification",
    title: "Notifications",
    description: "Push channels, routing and delivery options.",
    display_order: 40,
  },
  {
    category: "system",
    title: "System",
    description: "Scheduling, workers, limits, logging, authentication and launch settings.",
    display_order: 50,
  },
  {
    category: "uncategorized",
    title: "Other",
    description: "Keys in the env file that this service does not know; kept as they are.",
    display_order: 99,
  },
];

const BOOL_OPTIONS = ["true", "false"] as const;
const URL_SCHEMES = ["http", "https"] as const;
const REDIS_SCHEMES = ["redis", "rediss"] as const;
export const NOTIFICATION_CHANNELS = [
  "wechat",
  "feishu",
  "dingtalk",
  "telegram",
  "email",
  "pushover",
  "ntfy",
  "gotify",
  "pushplus",
  "serverchan3",
  "custom",
  "discord",
  "slack",
  "astrbot",
  "webpush",
] as const;
export const MARKET_DATA_PROVIDERS = ["eastmoney", "tencent", "yahoo", "sina", "sample", "csv"] as const;
export const LLM_PROTOCOLS = ["openai", "deepseek", "gemini", "anthropic", "ollama"] as const;
const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

// Small builders keep the table below readable.
type FieldInput = Omit<ConfigField, "dataType" | "uiControl"> & Partial<Pick<ConfigField, "dataType" | "uiControl">>;
// PORTFOLIO_FX_RATES: three-letter currency = positive rate, comma separated.
const FX_RATES = /^\s*[A-Za-z]{3}\s*=\s*\d+(\.\d+)?\s*(,\s*[A-Za-z]{3}\s*=\s*\d+(\.\d+)?\s*)*$/;
// C0 controls and DEL, except tab and line breaks.
const CONTROL_CHARACTER = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
const ALLOWED_HOSTS_LIST =
  /^\s*(?:\*|\.?[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.?)?(?:\s*,\s*(?:\*|\.?[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.?))*\s*$/;
const text = (f: FieldInput): ConfigField => ({ dataType: "string", uiControl: "text", ...f });
const secret = (f: FieldInput): ConfigField => ({ dataType: "string", uiControl: "password", sensitive: true, ...f });
const flag = (f: FieldInput): ConfigField => ({
  dataType: "boolean",
  uiControl: "switch",
  options: BOOL_OPTIONS,
  rule: { kind: "boolean" },
  ...f,
});
const integer = (f: FieldInput & { min?: number; max?: number }): ConfigField => {
  const { min, max, ...rest } = f;
  return { dataType: "integer", uiControl: "number", rule: { kind: "integer", min, max }, ...rest };
};
const select = (f: FieldInput & { values: readonly string[] }): ConfigField => {
  const { values, ...rest } = f;
  return { dataType: "string", uiControl: "select", options: values, rule: { kind: "enum", values }, ...rest };
};
const url = (f: FieldInput): ConfigField => ({ rule: { kind: "url", schemes: URL_SCHEMES }, ...secret(f) });
const keyList = (f: FieldInput): ConfigField => ({ rule: { kind: "list", item: "text" }, ...secret(f) });

const FIELDS: readonly ConfigField[] = [
  // ---- base
  text({
    key: "STOCK_LIST",
    title: "Watchlist",
    description:
      "Codes or names analysed by scheduled runs, separated by commas (pasted spaces, new lines and full-width commas are folded into commas on save).",
    category: "base",
    dataType: "array",
    uiControl: "textarea",
    rule: { kind: "list", item: "text", looseSeparators: true, maxItemLength: 32 },
    order: 10,
    examples: ["600519,hk00700,AAPL"],
  }),
  select({
    key: "REPORT_LANGUAGE",
    title: "Report language",
    description:
      "Default language of reports: zh or en. Aliases such as zh-CN, chinese or en-US are read as zh / en; anything else falls back to zh.",
    category: "base",
    values: ["zh", "en"],
    options: [
      { label: "中文", value: "zh" },
      { label: "English", value: "en" },
    ],
    rule: {
      kind: "enum",
      values: ["zh", "en"],
      aliases: {
        "zh-cn": "zh",
        zh_cn: "zh",
        "zh-hans": "zh",
        "zh-tw": "zh",
        cn: "zh",
        chinese: "zh",
        english: "en",
        "en-us": "en",
        "en-gb": "en",
      },
      lenient: true,
    },
    default: "zh",
    order: 20,
  }),
  select({
    key: "REPORT_TYPE",
    title: "Scheduled report type",
    description: "Depth of scheduled reports: simple, full or brief (detailed is read as full).",
    category: "base",
    values: ["simple", "full", "brief"],
    rule: { kind: "enum", values: ["simple", "full", "brief"], aliases: { detailed: "full" } },
    default: "simple",
    order: 30,
  }),

  // ---- ai_model
  text({
    key: "LLM_CHANNELS",
    title: "LLM channels",
    description:
      "Channel names, comma separated. Each channel is configured by LLM_<NAME>_PROTOCOL, _BASE_URL, _API_KEY and _MODELS. Channels take precedence over the single-provider keys below.",
    category: "ai_model",
    rule: { kind: "list", item: "name" },
    order: 10,
    examples: ["LLM_CHANNELS=deepseek,openrouter", "LLM_DEEPSEEK_BASE_URL=https://api.deepseek.com"],
    warningCodes: ["channels_override_legacy_keys"],
  }),
  secret({
    key: "OPENAI_API_KEY",
    title: "OpenAI-compatible API key",
    description: "API key of an OpenAI-compatible endpoint (used when no channel is configured).",
    category: "ai_model",
    order: 40,
  }),
  text({
    key: "OPENAI_BASE_URL",
    title: "OpenAI-compatible base URL",
    description: "Base URL of the OpenAI-compatible endpoint, e.g. https://api.openai.com/v1.",
    category: "ai_model",
    rule: { kind: "url", schemes: URL_SCHEMES },
    order: 50,
    examples: ["https://api.openai.com/v1"],
  }),
  text({
    key: "OPENAI_MODEL",
    title: "OpenAI-compatible model",
    description: "Model name sent to the OpenAI-compatible endpoint.",
    category: "ai_model",
    order: 60,
  }),
  secret({
    key: "DEEPSEEK_API_KEY",
    title: "DeepSeek API key",
    description: "Official DeepSeek API key (used when no channel is configured).",
    category: "ai_model",
    order: 70,
  }),

  integer({
    key: "AGENT_MAX_STEPS",
    title: "Chat tool steps per turn",
    description: "Most tool steps the Ask DSA chat may take to answer one message.",
    category: "ai_model",
    min: 1,
    max: 30,
    default: "8",
    order: 80,
  }),
  integer({
    key: "AGENT_TURN_TIMEOUT_SEC",
    title: "Chat turn time limit (s)",
    description: "Seconds one chat answer may take, tools included; past it the turn stops and keeps what was written.",
    category: "ai_model",
    min: 5,
    max: 1800,
    default: "120",
    order: 81,
  }),
  integer({
    key: "AGENT_TOKEN_BUDGET",
    title: "Chat token budget per turn",
    description: "Tokens (input and output, all steps) one chat answer may use; no further tool step starts beyond it.",
    category: "ai_model",
    min: 1000,
    max: 2000000,
    default: "60000",
    order: 82,
  }),
  text({
    key: "AGENT_MODEL",
    title: "Chat model",
    description:
      "Channel and model the chat uses, as channel/model or a model name of a configured channel (a cheaper model than the reports'); empty: the report channels in order.",
    category: "ai_model",
    order: 83,
    examples: ["deepseek/deepseek-chat", "gpt-4o-mini"],
  }),
  text({
    key: "SKILLS_DIR",
    title: "Strategy files folder",
    description:
      "Folder of your own chat strategies (Markdown files with front matter), shown beside the built-in ones.",
    category: "ai_model",
    order: 84,
  }),

  // ---- data_source
  text({
    key: "MARKET_DATA_SOURCES",
    title: "Market data sources",
    description: "Providers tried in order for bars and quotes, comma separated.",
    category: "data_source",
    options: MARKET_DATA_PROVIDERS,
    // The provider chain skips names it has no provider for, so an unknown name is a warning, not an error.
    rule: { kind: "list", item: "name", allowed: MARKET_DATA_PROVIDERS, lenient: true },
    default: "eastmoney,tencent,yahoo",
    order: 10,
  }),
  integer({
    key: "MARKET_DATA_TIMEOUT_MS",
    title: "Provider time budget (ms)",
    description:
      "Time one provider gets for a bars or quote call, retries included, before the chain moves to the next.",
    category: "data_source",
    min: 100,
    max: 120_000,
    default: "8000",
    order: 15,
  }),
  integer({
    key: "SAMPLE_LATENCY_MS",
    title: "Sample provider latency (ms)",
    description: "Artificial delay of the offline sample data provider, for demos and tests.",
    category: "data_source",
    min: 0,
    max: 60_000,
    default: "0",
    order: 20,
  }),
  text({
    key: "CSV_DATA_DIR",
    title: "CSV data folder",
    description: "Folder of <code>.csv daily-bar files for the csv data source (relative to the working directory).",
    category: "data_source",
    rule: { kind: "text", minLength: 1 },
    default: "./data/csv",
    order: 25,
  }),
  keyList({
    key: "TAVILY_API_KEYS",
    title: "Tavily API keys",
    description: "Comma-separated Tavily keys (rotated).",
    category: "data_source",
    order: 30,
  }),
  keyList({
    key: "SERPAPI_API_KEYS",
    title: "SerpAPI keys",
    description: "Comma-separated SerpAPI keys (rotated).",
    category: "data_source",
    order: 40,
  }),
  keyList({
    key: "BOCHA_API_KEYS",
    title: "Bocha API keys",
    description: "Comma-separated Bocha search keys (rotated).",
    category: "data_source",
    order: 50,
  }),
  keyList({
    key: "BRAVE_API_KEYS",
    title: "Brave Search API keys",
    description: "Comma-separated Brave Search keys (rotated).",
    category: "data_source",
    order: 60,
  }),

  // ---- notification (reference key names)
  text({
    key: "PUBLIC_BASE_URL",
    title: "Public base URL",
    description:
      "Address users open the web UI at (e.g. https://dsa.example.com); notifications link to <base>/history/<id>. Empty: http://localhost:<PORT>.",
    category: "notification",
    rule: { kind: "url", schemes: URL_SCHEMES },
    order: 5,
  }),
  url({
    key: "WECHAT_WEBHOOK_URL",
    title: "WeCom webhook URL",
    description: "Enterprise WeChat group bot webhook (the URL holds its key).",
    category: "notification",
    order: 10,
  }),
  url({
    key: "FEISHU_WEBHOOK_URL",
    title: "Feishu webhook URL",
    description: "Feishu custom bot webhook for group messages.",
    category: "notification",
    order: 20,
  }),
  secret({
    key: "FEISHU_WEBHOOK_SECRET",
    title: "Feishu webhook signing secret",
    description: "Optional signing secret of the Feishu custom bot.",
    category: "notification",
    order: 21,
  }),
  text({
    key: "FEISHU_WEBHOOK_KEYWORD",
    title: "Feishu webhook keyword",
    description: "Optional keyword the Feishu bot requires; prepended to every message.",
    category: "notification",
    order: 22,
  }),
  text({
    key: "FEISHU_APP_ID",
    title: "Feishu app ID",
    description: "Feishu app bot App ID (app mode; does not enable the webhook).",
    category: "notification",
    order: 23,
  }),
  secret({
    key: "FEISHU_APP_SECRET",
    title: "Feishu app secret",
    description: "Feishu app bot App Secret.",
    category: "notification",
    order: 24,
  }),
  text({
    key: "FEISHU_CHAT_ID",
    title: "Feishu chat ID",
    description: "Target chat_id (oc_…) or open_id (ou_…) for the Feishu app bot.",
    category: "notification",
    order: 25,
  }),
  url({
    key: "DINGTALK_WEBHOOK_URL",
    title: "DingTalk webhook URL",
    description: "DingTalk group robot webhook (the URL holds its access token).",
    category: "notification",
    order: 30,
  }),
  secret({
    key: "DINGTALK_SECRET",
    title: "DingTalk signing secret",
    description: "Signing secret of the DingTalk robot; empty when signing is off.",
    category: "notification",
    order: 31,
  }),
  secret({
    key: "TELEGRAM_BOT_TOKEN",
    title: "Telegram bot token",
    description: "Bot token from @BotFather.",
    category: "notification",
    order: 40,
  }),
  text({
    key: "TELEGRAM_CHAT_ID",
    title: "Telegram chat ID",
    description: "Chat or group ID to send to.",
    category: "notification",
    order: 41,
  }),
  text({
    key: "TELEGRAM_MESSAGE_THREAD_ID",
    title: "Telegram topic ID",
    description: "Optional topic (thread) ID in a forum group.",
    category: "notification",
    order: 42,
  }),
  text({
    key: "TELEGRAM_API_BASE_URL",
    title: "Telegram API base URL",
    description: "Bot API server (a self-hosted Bot API server or a proxy); the default is Telegram's.",
    category: "notification",
    rule: { kind: "url", schemes: URL_SCHEMES },
    default: "https://api.telegram.org",
    order: 43,
  }),
  text({
    key: "EMAIL_SENDER",
    title: "Email sender",
    description: "Sender address; the SMTP server is derived from its domain.",
    category: "notification",
    rule: { kind: "email" },
    order: 50,
  }),
  secret({
    key: "EMAIL_PASSWORD",
    title: "Email password",
    description: "SMTP password or app-specific authorisation code.",
    category: "notification",
    order: 51,
  }),
  text({
    key: "EMAIL_SMTP_HOST",
    title: "SMTP server",
    description:
      "SMTP host name or IP address (no port: see EMAIL_SMTP_PORT); empty derives it from the sender's domain (smtp.<domain>). With a host set, the password is optional (an open relay).",
    category: "notification",
    rule: { kind: "host" },
    order: 53,
    examples: ["smtp.qq.com"],
  }),
  integer({
    key: "EMAIL_SMTP_PORT",
    title: "SMTP port",
    description: "SMTP port; 465 uses TLS from the start, others STARTTLS when offered; 0 derives it (465).",
    category: "notification",
    min: 0,
    max: 65535,
    default: "0",
    order: 54,
  }),
  text({
    key: "EMAIL_RECEIVERS",
    title: "Email receivers",
    description: "Comma-separated recipients; empty sends to the sender.",
    category: "notification",
    dataType: "array",
    uiControl: "textarea",
    rule: { kind: "list", item: "email" },
    order: 52,
  }),
  secret({
    key: "PUSHOVER_USER_KEY",
    title: "Pushover user key",
    description: "Pushover user key.",
    category: "notification",
    order: 60,
  }),
  secret({
    key: "PUSHOVER_API_TOKEN",
    title: "Pushover API token",
    description: "Pushover application token.",
    category: "notification",
    order: 61,
  }),
  url({
    key: "NTFY_URL",
    title: "ntfy URL",
    description: "Full ntfy publish URL including the topic, e.g. https://ntfy.sh/my-topic.",
    category: "notification",
    order: 70,
  }),
  secret({
    key: "NTFY_TOKEN",
    title: "ntfy token",
    description: "Optional bearer token for protected topics.",
    category: "notification",
    order: 71,
  }),
  url({
    key: "GOTIFY_URL",
    title: "Gotify URL",
    description: "Gotify server base URL (without /message).",
    category: "notification",
    order: 80,
  }),
  secret({
    key: "GOTIFY_TOKEN",
    title: "Gotify token",
    description: "Gotify application token.",
    category: "notification",
    order: 81,
  }),
  secret({
    key: "PUSHPLUS_TOKEN",
    title: "PushPlus token",
    description: "PushPlus token.",
    category: "notification",
    order: 90,
  }),
  text({
    key: "PUSHPLUS_TOPIC",
    title: "PushPlus topic",
    description: "PushPlus group topic code for one-to-many push.",
    category: "notification",
    order: 91,
  }),
  secret({
    key: "SERVERCHAN3_SENDKEY",
    title: "ServerChan³ SendKey",
    description: "ServerChan³ SendKey.",
    category: "notification",
    order: 100,
  }),
  secret({
    key: "CUSTOM_WEBHOOK_URLS",
    title: "Custom webhook URLs",
    description:
      "Comma-separated webhook URLs (Bark, Discord, Slack, your own…). Masked because such URLs usually embed a key.",
    category: "notification",
    dataType: "array",
    uiControl: "textarea",
    rule: { kind: "list", item: "url" },
    order: 110,
  }),
  secret({
    key: "CUSTOM_WEBHOOK_BEARER_TOKEN",
    title: "Custom webhook bearer token",
    description: "Bearer token sent to authenticated custom webhooks.",
    category: "notification",
    order: 111,
  }),
  text({
    key: "CUSTOM_WEBHOOK_BODY_TEMPLATE",
    title: "Custom webhook body template",
    description: "Optional JSON body template; $content_json and $title_json are replaced with JSON strings.",
    category: "notification",
    dataType: "json",
    uiControl: "textarea",
    order: 112,
    examples: ['{"msg_type":"text","content":$content_json}'],
  }),
  url({
    key: "DISCORD_WEBHOOK_URL",
    title: "Discord webhook URL",
    description: "Discord channel webhook.",
    category: "notification",
    order: 120,
  }),
  secret({
    key: "DISCORD_BOT_TOKEN",
    title: "Discord bot token",
    description: "Discord bot token (bot mode).",
    category: "notification",
    order: 121,
  }),
  text({
    key: "DISCORD_MAIN_CHANNEL_ID",
    title: "Discord channel ID",
    description: "Channel the Discord bot posts to.",
    category: "notification",
    order: 122,
  }),
  url({
    key: "SLACK_WEBHOOK_URL",
    title: "Slack webhook URL",
    description: "Slack incoming webhook (text only).",
    category: "notification",
    order: 130,
  }),
  secret({
    key: "SLACK_BOT_TOKEN",
    title: "Slack bot token",
    description: "Slack bot token (xoxb-…); preferred over the webhook when both are set.",
    category: "notification",
    order: 131,
  }),
  text({
    key: "SLACK_CHANNEL_ID",
    title: "Slack channel ID",
    description: "Channel the Slack bot posts to.",
    category: "notification",
    order: 132,
  }),
  url({
    key: "ASTRBOT_URL",
    title: "AstrBot URL",
    description: "AstrBot webhook endpoint.",
    category: "notification",
    order: 140,
  }),
  secret({
    key: "ASTRBOT_TOKEN",
    title: "AstrBot token",
    description: "Optional AstrBot bearer token.",
    category: "notification",
    order: 141,
  }),
  text({
    key: "WEB_PUSH_VAPID_PUBLIC_KEY",
    title: "Web Push public key",
    description:
      "VAPID public key of the browser push channel (webpush). Generated with its private key when the first browser subscribes; replacing it makes every browser subscribe again.",
    category: "notification",
    order: 145,
  }),
  secret({
    key: "WEB_PUSH_VAPID_PRIVATE_KEY",
    title: "Web Push private key",
    description: "VAPID private key that signs each push; generated with the public key.",
    category: "notification",
    order: 146,
  }),
  text({
    key: "WEB_PUSH_SUBJECT",
    title: "Web Push contact",
    description:
      "A mailto: address or https: URL the browser push services can reach you at (VAPID sub). Empty: PUBLIC_BASE_URL when it is https, else mailto:admin@localhost.",
    category: "notification",
    order: 147,
  }),
  text({
    key: "BOT_ALLOWLIST",
    title: "Bot allowlist",
    description:
      "Who may command the chat bots: platform:id entries (telegram:123456789, feishu:oc_…, dingtalk:cid…, wecom:zhangsan), each a chat or a user id; comma separated. Empty: the bots refuse everyone (once per chat).",
    category: "notification",
    rule: { kind: "list", item: "text" },
    order: 150,
    examples: ["telegram:123456789, feishu:oc_a0553eda9014c201e6969b478895c230"],
  }),
  integer({
    key: "BOT_RATE_LIMIT_PER_MINUTE",
    title: "Bot messages per chat per minute",
    description: "Commands one chat may send per minute; beyond it the bot says so once and waits.",
    category: "notification",
    min: 1,
    max: 120,
    default: "6",
    order: 151,
  }),
  select({
    key: "TELEGRAM_BOT_MODE",
    title: "Telegram bot",
    description:
      "off; webhook (Telegram posts to /webhooks/telegram, needs a public URL); polling (the service asks Telegram for new messages, no public URL needed). Uses TELEGRAM_BOT_TOKEN.",
    category: "notification",
    values: ["off", "webhook", "polling"],
    default: "off",
    order: 152,
  }),
  secret({
    key: "TELEGRAM_WEBHOOK_SECRET",
    title: "Telegram webhook secret",
    description:
      "The secret_token given to setWebhook: Telegram sends it in X-Telegram-Bot-Api-Secret-Token and other requests are refused. Required in webhook mode.",
    category: "notification",
    order: 153,
  }),
  flag({
    key: "FEISHU_BOT_ENABLED",
    title: "Feishu bot",
    description:
      "Answer messages to the Feishu app (event subscription at /webhooks/feishu). Uses FEISHU_APP_ID and FEISHU_APP_SECRET to reply.",
    category: "notification",
    default: "false",
    order: 154,
  }),
  secret({
    key: "FEISHU_VERIFICATION_TOKEN",
    title: "Feishu verification token",
    description: "The event subscription's verification token; events carrying another token are refused.",
    category: "notification",
    order: 155,
  }),
  secret({
    key: "FEISHU_ENCRYPT_KEY",
    title: "Feishu encrypt key",
    description:
      "The event subscription's encrypt key: events are decrypted and their signature checked with it. Empty when encryption is off.",
    category: "notification",
    order: 156,
  }),
  text({
    key: "FEISHU_API_BASE_URL",
    title: "Feishu API base URL",
    description: "The open platform the bot replies through; Lark users set https://open.larksuite.com.",
    category: "notification",
    rule: { kind: "url", schemes: URL_SCHEMES },
    default: "https://open.feishu.cn",
    order: 157,
  }),
  flag({
    key: "DINGTALK_BOT_ENABLED",
    title: "DingTalk bot",
    description:
      "Answer an outgoing (@) robot at /webhooks/dingtalk; replies go to the conversation's session webhook.",
    category: "notification",
    default: "false",
    order: 158,
  }),
  secret({
    key: "DINGTALK_APP_SECRET",
    title: "DingTalk bot app secret",
    description: "The robot's AppSecret: each request's timestamp and sign headers are checked with it.",
    category: "notification",
    order: 159,
  }),
  flag({
    key: "WECOM_BOT_ENABLED",
    title: "WeCom bot",
    description: "Answer messages to a WeCom self-built app (callback URL /webhooks/wecom).",
    category: "notification",
    default: "false",
    order: 160,
  }),
  text({
    key: "WECOM_CORP_ID",
    title: "WeCom corp ID",
    description: "The enterprise's CorpID.",
    category: "notification",
    order: 161,
  }),
  secret({
    key: "WECOM_CORP_SECRET",
    title: "WeCom app secret",
    description: "The self-built app's Secret, for the access token the replies are sent with.",
    category: "notification",
    order: 162,
  }),
  text({
    key: "WECOM_AGENT_ID",
    title: "WeCom agent ID",
    description: "The self-built app's AgentId.",
    category: "notification",
    order: 163,
  }),
  secret({
    key: "WECOM_TOKEN",
    title: "WeCom callback token",
    description: "The callback's Token: each request's msg_signature is checked with it.",
    category: "notification",
    order: 164,
  }),
  secret({
    key: "WECOM_ENCODING_AES_KEY",
    title: "WeCom EncodingAESKey",
    description: "The callback's EncodingAESKey (43 characters): messages are decrypted with it.",
    category: "notification",
    order: 165,
  }),
  text({
    key: "WECOM_API_BASE_URL",
    title: "WeCom API base URL",
    description: "The WeCom API server the replies go through; the default is WeCom's.",
    category: "notification",
    rule: { kind: "url", schemes: URL_SCHEMES },
    default: "https://qyapi.weixin.qq.com",
    order: 166,
  }),
  ...(["REPORT", "ALERT", "SYSTEM_ERROR"] as const).map((kind, i) =>
    text({
      key: `NOTIFICATION_${kind}_CHANNELS`,
      title: `${kind === "SYSTEM_ERROR" ? "System error" : kind === "ALERT" ? "Alert" : "Report"} notification channels`,
      description: "Comma-separated channels this kind of message goes to; empty sends to every configured channel.",
      category: "notification" as const,
      dataType: "array" as const,
      options: NOTIFICATION_CHANNELS,
      rule: { kind: "list" as const, item: "name" as const, allowed: NOTIFICATION_CHANNELS, lenient: true },
      order: 200 + i,
    }),
  ),
  integer({
    key: "NOTIFICATION_DEDUP_TTL_SECONDS",
    title: "Duplicate suppression (s)",
    description: "Identical notifications within this many seconds are sent once; 0 turns it off.",
    category: "notification",
    min: 0,
    max: 2592000,
    default: "0",
    order: 210,
  }),
  integer({
    key: "NOTIFICATION_COOLDOWN_SECONDS",
    title: "Cooldown (s)",
    description:
      "Minimum seconds between two notifications about the same stock, alert rule or review region on one channel; 0 turns it off.",
    category: "notification",
    min: 0,
    default: "0",
    order: 211,
  }),
  text({
    key: "NOTIFICATION_QUIET_HOURS",
    title: "Quiet hours",
    description:
      "HH:MM-HH:MM window without notifications (may cross midnight); critical alerts still go out, the rest is recorded as suppressed and not sent later. Empty turns it off.",
    category: "notification",
    rule: { kind: "time_range" },
    order: 212,
    examples: ["23:00-07:00"],
  }),
  text({
    key: "NOTIFICATION_TIMEZONE",
    title: "Notification time zone",
    description: "IANA time zone of the quiet hours, e.g. Asia/Shanghai; empty uses SERVICE_TIMEZONE.",
    category: "notification",
    rule: { kind: "timezone" },
    order: 213,
  }),
  select({
    key: "NOTIFICATION_MIN_SEVERITY",
    title: "Minimum severity",
    description:
      "Notifications below this severity are not sent (reports are info, alerts their rule's severity, system errors error); empty sends all.",
    category: "notification",
    values: ["info", "warning", "error", "critical"],
    rule: { kind: "enum", values: ["info", "warning", "error", "critical"], lenient: true },
    order: 214,
  }),
  integer({
    key: "NOTIFICATION_RETRY_ATTEMPTS",
    title: "Delivery attempts",
    description: "Attempts per channel before a notification is recorded as failed.",
    category: "notification",
    min: 1,
    max: 10,
    default: "3",
    order: 215,
  }),
  integer({
    key: "NOTIFICATION_RETRY_BASE_DELAY_MS",
    title: "Retry base delay (ms)",
    description: "Delay before the second attempt; it doubles for each further attempt.",
    category: "notification",
    min: 0,
    max: 60000,
    default: "1000",
    order: 216,
  }),
  integer({
    key: "NOTIFICATION_TIMEOUT_MS",
    title: "Delivery timeout (ms)",
    description: "Time one attempt to one channel may take.",
    category: "notification",
    min: 500,
    max: 120000,
    default: "10000",
    order: 217,
  }),
  flag({
    key: "SINGLE_STOCK_NOTIFY",
    title: "Notify per stock",
    description:
      "Scheduled runs: send each stock's report as soon as it is ready instead of one merged report when the run is done.",
    category: "notification",
    default: "false",
    order: 220,
  }),
  flag({
    key: "REPORT_SUMMARY_ONLY",
    title: "Summary only",
    description: "The merged report of a scheduled run holds one line per stock, without advice and trend.",
    category: "notification",
    default: "false",
    order: 221,
  }),

  // ---- system
  flag({
    key: "SCHEDULE_ENABLED",
    title: "Daily schedule",
    description: "Run the watchlist analysis every day at the schedule time.",
    category: "system",
    default: "false",
    order: 10,
  }),
  flag({
    key: "SCREENING_ENABLED",
    title: "Stock screening",
    description:
      "Offer the stock screener (the Screening page and /api/v1/screening). On unless set to false; ALPHASIFT_ENABLED, its older name, is read when this is unset.",
    category: "system",
    default: "true",
    order: 12,
  }),
  flag({
    key: "MCP_ENABLED",
    title: "MCP server",
    description:
      "Serve the Model Context Protocol at /mcp (Streamable HTTP) for AI assistants and agents. Every request needs an API token; a read token sees only the read tools.",
    category: "system",
    default: "false",
    order: 16,
  }),
  flag({
    key: "ALPHASIFT_ENABLED",
    title: "Stock screening (older name)",
    description: "The reference's older name of SCREENING_ENABLED, read only when SCREENING_ENABLED is unset.",
    category: "system",
    default: "true",
    order: 13,
  }),
  text({
    key: "SCREENING_SCHEDULE_STRATEGIES",
    title: "Scheduled screening",
    description:
      "Screening strategies the daily run also queues after the watchlist (ids, comma separated; empty: none). GET /api/v1/screening/scheduled-latest gives the newest.",
    category: "system",
    rule: { kind: "list", item: "name" },
    default: "",
    order: 14,
  }),
  select({
    key: "SCREENING_SCHEDULE_MARKET",
    title: "Scheduled screening market",
    description: "The market the scheduled screening runs over: cn, hk or us.",
    category: "system",
    values: ["cn", "hk", "us"],
    rule: { kind: "enum", values: ["cn", "hk", "us"] },
    default: "cn",
    order: 15,
  }),
  text({
    key: "SCHEDULE_TIME",
    title: "Schedule time",
    description: "Daily run time, HH:MM in the service time zone (SERVICE_TIMEZONE).",
    category: "system",
    dataType: "time",
    uiControl: "time",
    rule: { kind: "time" },
    default: "18:00",
    order: 11,
  }),
  integer({
    key: "SCHEDULE_CATCH_UP_MINUTES",
    title: "Schedule catch-up (min)",
    description:
      "A slot missed while the service was down still runs when it starts within this many minutes after it; 0 runs only on time.",
    category: "system",
    min: 0,
    max: 1440,
    default: "180",
    order: 13,
  }),
  flag({
    key: "TRADING_DAY_CHECK_ENABLED",
    title: "Skip closed markets",
    description: "Scheduled runs skip stocks whose exchange is closed on its local day (weekend or exchange holiday).",
    category: "system",
    default: "true",
    order: 14,
  }),
  flag({
    key: "MARKET_REVIEW_ENABLED",
    title: "Market review in the daily run",
    description: "The daily schedule also queues a market review of MARKET_REVIEW_REGION.",
    category: "system",
    default: "true",
    order: 15,
  }),
  select({
    key: "MARKET_REVIEW_REGION",
    title: "Market review region",
    description: "Default market of the market review: cn, hk, us, or both (cn + us).",
    category: "system",
    values: ["cn", "hk", "us", "both"],
    rule: { kind: "enum", values: ["cn", "hk", "us", "both"], lenient: true },
    default: "cn",
    order: 20,
  }),
  integer({
    key: "MAX_WORKERS",
    title: "Analysis workers",
    description: "Tasks analysed at the same time; keep low to respect provider rate limits.",
    category: "system",
    min: 1,
    max: 20,
    default: "3",
    order: 30,
  }),
  text({
    key: "SERVICE_TIMEZONE",
    title: "Service time zone",
    description:
      "IANA time zone of the service's calendar: where usage periods (today, this month) and usage days start.",
    category: "system",
    rule: { kind: "timezone" },
    default: "Asia/Shanghai",
    order: 12,
  }),
  integer({
    key: "ALERT_EVAL_SECONDS",
    title: "Alert check period (s)",
    description: "Seconds between two checks of the enabled alert rules.",
    category: "system",
    min: 1,
    max: 3600,
    default: "60",
    order: 33,
  }),
  flag({
    key: "ALERT_TRADING_HOURS_ONLY",
    title: "Alerts in trading hours only",
    description:
      "Check stock and market alert rules only while their market trades, portfolio rules while a market of the holdings trades (signal alerts are always checked).",
    category: "system",
    default: "true",
    order: 34,
  }),
  select({
    key: "PORTFOLIO_BASE_CURRENCY",
    title: "Portfolio report currency",
    description:
      "Currency of a portfolio risk report over all accounts (a single account's report uses the account's currency).",
    category: "system",
    values: ["CNY", "HKD", "USD"],
    rule: { kind: "enum", values: ["CNY", "HKD", "USD"] },
    default: "CNY",
    order: 35,
  }),
  text({
    key: "PORTFOLIO_FX_RATES",
    title: "FX rates to CNY (manual override)",
    description:
      "Value of one unit in CNY, comma separated (USD=7.1,HKD=0.91); overrides the rates the portfolio's FX refresh fetched from the market-data providers. Empty: use the fetched rates.",
    category: "system",
    default: "",
    order: 36,
    rule: { kind: "text", pattern: FX_RATES, patternHint: "CUR=rate pairs, comma separated, e.g. USD=7.1,HKD=0.91" },
  }),
  integer({
    key: "TASK_RETENTION_MINUTES",
    title: "Finished task retention (min)",
    description: "Minutes a finished task stays in the task list; afterwards its status is read from history.",
    category: "system",
    min: 0,
    max: 1440,
    default: "10",
    order: 31,
  }),
  integer({
    key: "TASK_MARKET_RATE_PER_MINUTE",
    title: "Task starts per market per minute",
    description: "At most this many tasks of one market start per minute, to respect provider rate limits.",
    category: "system",
    min: 1,
    max: 60000,
    default: "120",
    order: 32,
  }),
  integer({
    key: "SIGNAL_CLOCK_OFFSET_SECONDS",
    title: "Signal clock offset (s, testing)",
    description:
      "Testing aid: seconds added to the decision-signal clock (creation time, default expiry, lazy expiry). Keep 0 in production.",
    category: "system",
    min: -315360000,
    max: 315360000,
    default: "0",
    order: 45,
  }),
  integer({
    key: "SSE_HEARTBEAT_SECONDS",
    title: "Task stream heartbeat (s)",
    description: "Seconds without events before the task stream sends a heartbeat.",
    category: "system",
    min: 1,
    max: 3600,
    default: "30",
    order: 40,
  }),
  integer({
    key: "SHARE_IMAGE_MAX_CHARS",
    title: "Share image size limit",
    description: "Longest report (characters) rendered as a share image; longer ones answer 413.",
    category: "system",
    min: 1,
    max: 1_000_000,
    default: "15000",
    order: 50,
  }),
  integer({
    key: "MARKDOWN_TO_IMAGE_MAX_CHARS",
    title: "Share image size limit (reference name)",
    description: "The reference service's name for SHARE_IMAGE_MAX_CHARS, read when that key is unset.",
    category: "system",
    min: 1,
    max: 1_000_000,
    order: 51,
    warningCodes: ["alias_of_SHARE_IMAGE_MAX_CHARS"],
  }),
  flag({
    key: "SHARE_IMAGE_PNG_ENABLED",
    title: "Share image PNG renderer",
    description:
      "Draw share images as PNG (satori + resvg, about 300 MB of memory once used). Off: share-image answers 503, the HTML card still works.",
    category: "system",
    default: "true",
    order: 52,
  }),
  flag({
    key: "SHARE_IMAGE_WARMUP",
    title: "Share image warm-up at start",
    description:
      "After each start, draw a few cards on the PNG renderer in the background (a few CPU-seconds on every core) so the first share image comes as fast as later ones. Off: starts cost less CPU and the first share image takes about a second longer.",
    category: "system",
    default: "true",
    order: 53,
    warningCodes: ["restart_required"],
  }),
  flag({
    key: "SHARE_IMAGE_PRERENDER",
    title: "Draw share images when reports are stored",
    description:
      "Draw each new report's share image in the background when it is stored (a few hundred milliseconds of CPU on a renderer thread), so the first request for it is a read. Off: the first request draws it.",
    category: "system",
    default: "true",
    order: 54,
  }),
  select({
    key: "LOG_LEVEL",
    title: "Log level",
    description:
      "Minimum level written to the log. The reference service's DEBUG/INFO/WARNING/ERROR/CRITICAL are converted on save.",
    category: "system",
    values: LOG_LEVELS,
    rule: {
      kind: "enum",
      values: LOG_LEVELS,
      aliases: { warning: "warn", critical: "fatal" },
      canonicalize: true,
    },
    default: "info",
    order: 60,
  }),
  flag({
    key: "ADMIN_AUTH_ENABLED",
    title: "Admin authentication",
    description:
      "Require the admin session on every API route but login, auth status, health and docs. Switched through the auth settings (which set the password), not here.",
    category: "system",
    default: "false",
    editable: false,
    order: 70,
    warningCodes: ["auth_settings_endpoint_required"],
  }),
  text({
    key: "ADMIN_SESSION_MAX_AGE_HOURS",
    title: "Session lifetime (hours)",
    description: "How long an admin login lasts.",
    category: "system",
    dataType: "number",
    uiControl: "number",
    rule: { kind: "number", min: 0, exclusiveMin: true, max: 24 * 365 },
    default: "24",
    order: 71,
  }),
  integer({
    key: "API_TOKEN_RATE_PER_MINUTE",
    title: "API token rate limit (per minute)",
    description: "Requests per minute one API token may make; beyond it the API answers 429 with Retry-After.",
    category: "system",
    min: 1,
    max: 100_000,
    default: "120",
    order: 75,
  }),
  secret({
    key: "SESSION_SECRET",
    title: "Session secret",
    description:
      "Seals the session cookie (at least 32 characters). When unset one is generated and kept in the data folder. Changing it logs every session out.",
    category: "system",
    rule: { kind: "text", minLength: 32 },
    order: 72,
    warningCodes: ["invalidates_sessions"],
  }),
  flag({
    key: "TRUST_X_FORWARDED_FOR",
    title: "Trust proxy headers",
    description: "Behind one trusted reverse proxy: take the client address and https from X-Forwarded-* headers.",
    category: "system",
    default: "false",
    order: 73,
    warningCodes: ["trusted_proxy_only"],
  }),
  text({
    key: "ALLOWED_HOSTS",
    title: "Allowed host names",
    description:
      "Host names the service answers to besides IP addresses, localhost, this machine's name and the host of the public base URL, comma separated (.example.com takes its subdomains, * every name). Other names are refused, as protection against DNS rebinding.",
    category: "system",
    rule: {
      kind: "text",
      pattern: ALLOWED_HOSTS_LIST,
      patternHint: "host names, comma separated, e.g. dsa.lan,.example.com",
    },
    order: 76,
  }),
  flag({
    key: "OUTBOUND_ALLOW_PRIVATE",
    title: "Allow private outbound destinations",
    description:
      "Let notification webhooks, LLM and news base URLs point at this machine or its private network (loopback, link-local, private ranges). Off, such URLs are refused, after DNS resolution, as protection against server-side request forgery.",
    category: "system",
    default: "false",
    order: 74,
  }),
  // Launch keys: the process environment wins over the file for these (settings.ts), and they only take
  // effect on restart, so the config API shows them but does not change them.
  integer({
    key: "PORT",
    title: "HTTP port",
    description: "Port the server listens on (set at launch).",
    category: "system",
    min: 1,
    max: 65535,
    default: "3000",
    editable: false,
    order: 90,
    warningCodes: ["restart_required"],
  }),
  text({
    key: "HOSTNAME",
    title: "Listen address",
    description: "Address the server binds to (set at launch).",
    category: "system",
    rule: { kind: "host" },
    default: "0.0.0.0",
    editable: false,
    order: 91,
    warningCodes: ["restart_required"],
  }),
  text({
    key: "DATABASE_URL",
    title: "Database",
    description: 'SQLite database, a "file:" URL (set at launch).',
    category: "system",
    rule: { kind: "sqlite_url" },
    default: "file:./data/dsa.db",
    editable: false,
    order: 92,
    warningCodes: ["restart_required"],
  }),
  secret({
    key: "REDIS_URL",
    title: "Redis",
    description:
      "Redis shared by several replicas, e.g. redis://127.0.0.1:6379/0 (set at launch): task events, rate limits, leader and send locks. Empty: everything stays in this process.",
    category: "system",
    rule: { kind: "url", schemes: REDIS_SCHEMES },
    editable: false,
    order: 94,
    warningCodes: ["restart_required"],
  }),
  text({
    key: "ENV_FILE",
    title: "Env file",
    description: "The env file these settings are stored in (set at launch).",
    category: "system",
    default: "./.env",
    editable: false,
    order: 93,
    warningCodes: ["restart_required"],
  }),
];

const LLM_CHANNEL_FIELDS: readonly ConfigPatternField[] = [
  {
    ...select({
      key: "LLM_<CHANNEL>_PROTOCOL",
      title: "Channel protocol",
      description:
        "API protocol of the channel: openai (any OpenAI-compatible endpoint), deepseek, gemini, anthropic or ollama.",
      category: "ai_model",
      values: LLM_PROTOCOLS,
      rule: { kind: "enum", values: LLM_PROTOCOLS, lenient: true },
      default: "openai",
      order: 20,
    }),
    pattern: /^LLM_(.+?)_PROTOCOL$/,
  },
  {
    ...text({
      key: "LLM_<CHANNEL>_BASE_URL",
      title: "Channel base URL",
      description: "Base URL of the channel's API.",
      category: "ai_model",
      rule: { kind: "url", schemes: URL_SCHEMES },
      order: 21,
    }),
    pattern: /^LLM_(.+?)_BASE_URL$/,
  },
  {
    ...secret({
      key: "LLM_<CHANNEL>_API_KEY",
      title: "Channel API key",
      description: "API key of the channel.",
      category: "ai_model",
      order: 22,
    }),
    pattern: /^LLM_(.+?)_API_KEY$/,
  },
  {
    ...keyList({
      key: "LLM_<CHANNEL>_API_KEYS",
      title: "Channel API keys",
      description: "Comma-separated API keys of the channel (rotated).",
      category: "ai_model",
      order: 23,
    }),
    pattern: /^LLM_(.+?)_API_KEYS$/,
  },
  {
    ...text({
      key: "LLM_<CHANNEL>_MODELS",
      title: "Channel models",
      description: "Comma-separated models offered by the channel; the first is the default.",
      category: "ai_model",
      rule: { kind: "list", item: "text" },
      order: 24,
    }),
    pattern: /^LLM_(.+?)_MODELS$/,
  },
  {
    ...flag({
      key: "LLM_<CHANNEL>_ENABLED",
      title: "Channel enabled",
      description: "Turn the channel off without deleting it.",
      category: "ai_model",
      default: "true",
      order: 25,
    }),
    pattern: /^LLM_(.+?)_ENABLED$/,
  },
];

const BY_KEY = new Map(FIELDS.map((f) => [f.key, f]));

export function configFields(): readonly ConfigField[] {
  return FIELDS;
}

export function configPatternFields(): readonly ConfigPatternField[] {
  return LLM_CHANNEL_FIELDS;
}

/** The schema entry of a key: exact, then a key family (LLM_<CHANNEL>_…); undefined for unknown keys. */
export function lookupField(key: string): ConfigField | undefined {
  const exact = BY_KEY.get(key);
  if (exact) return exact;
  const family = LLM_CHANNEL_FIELDS.find((f) => f.pattern.test(key));
  if (!family) return undefined;
  const { pattern: _pattern, ...field } = family;
  void _pattern;
  return { ...field, key };
}

/** The channel part of an LLM_<CHANNEL>_… key, if it is one. */
export function llmChannelOf(key: string): string | undefined {
  for (const f of LLM_CHANNEL_FIELDS) {
    const m = f.pattern.exec(key);
    if (m) return m[1];
  }
  return undefined;
}

/** LLM_CHANNELS names as used in keys: "my-proxy" → "MY_PROXY". */
export function channelKeyPart(name: string): string {
  return name
    .trim()
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, "_");
}

export function channelKeys(name: string): string[] {
  const part = channelKeyPart(name);
  return ["PROTOCOL", "BASE_URL", "API_KEY", "MODELS"].map((suffix) => `LLM_${part}_${suffix}`);
}

const SENSITIVE_MARKERS = /(KEY|TOKEN|SECRET|PASSWORD|PASSWD|WEBHOOK|CREDENTIAL)/;

/** Metadata of a key the schema does not know, inferred from its name the way the reference does. */
export function inferField(key: string): ConfigField {
  const upper = key.toUpperCase();
  const sensitive = SENSITIVE_MARKERS.test(upper);
  return {
    key,
    title: key,
    description: "Not a setting this service knows; kept in the env file as it is.",
    category: "uncategorized",
    dataType: "string",
    uiControl: sensitive ? "password" : "text",
    sensitive,
    order: 9000,
  };
}

export function fieldFor(key: string): { field: ConfigField; known: boolean } {
  const field = lookupField(key);
  return field ? { field, known: true } : { field: inferField(key), known: false };
}

export function isSensitiveKey(key: string): boolean {
  return Boolean(fieldFor(key).field.sensitive);
}

// ---- validation

export type IssueSeverity = "error" | "warning";

export interface ConfigIssue {
  key: string;
  code: string;
  message: string;
  severity: IssueSeverity;
  expected?: string;
  actual?: string;
}

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
const TIME_RANGE = /^([01]\d|2[0-3]):[0-5]\d-([01]\d|2[0-3]):[0-5]\d$/;
const EMAIL = /^[^\s@,]+@[^\s@,]+\.[^\s@,]+$/;
const CHANNEL_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;
// RFC 1123 labels (underscores tolerated, as DNS does), at most 253 characters, an optional final dot.
const HOST_LABEL = /^(?!-)[A-Za-z0-9_-]{1,63}(?<!-)$/;
const TRUE_WORDS = ["true", "1", "yes", "on"];
const FALSE_WORDS = ["false", "0", "no", "off"];

/**
 * The value as it will be saved: typed values lose surrounding blanks, lists are re-joined with ",",
 * and aliases of strictly-read enums become the canonical value. Free text is kept byte for byte.
 */
export function normalizeValue(key: string, value: string): string {
  const field = lookupField(key);
  const rule = field?.rule;
  if (!field || !rule || rule.kind === "text") return value;
  const trimmed = value.trim();
  if (rule.kind === "list") return splitList(trimmed, rule.looseSeparators).join(",");
  if (rule.kind === "enum" && rule.canonicalize) {
    const lower = trimmed.toLowerCase();
    if (rule.values.includes(lower)) return lower;
    return rule.aliases?.[lower] ?? trimmed;
  }
  return trimmed;
}

function splitList(value: string, loose = false): string[] {
  const separators = loose ? /[,，、;；\s]+/ : /,/;
  return value
    .split(separators)
    .map((s) => s.trim())
    .filter((s) => s !== "");
}

/** Problems with one value of a key (already normalised); an empty value always means "unset". */
export function validateValue(key: string, value: string): ConfigIssue[] {
  const { field } = fieldFor(key);
  if (value === "") {
    return field.required ? [issue(field, "required", `${key} is required`)] : [];
  }
  // A NUL or escape byte in the env file breaks every reader after it (dotenv, shells, editors).
  if (CONTROL_CHARACTER.test(value)) {
    return [
      issue(
        field,
        "control_character",
        `${key} holds a control character; only printable text, tabs and line breaks are allowed`,
      ),
    ];
  }
  const issues = field.rule ? checkRule(field, field.rule, value) : [];
  if (issues.some((i) => i.severity === "error")) return issues;
  return [...issues, ...checkAgainstSettings(field, key, value)];
}

function issue(
  field: ConfigField,
  code: string,
  message: string,
  extra: { expected?: string; actual?: string } = {},
  severity: IssueSeverity = "error",
): ConfigIssue {
  const out: ConfigIssue = { key: field.key, code, message, severity };
  if (extra.expected !== undefined) out.expected = extra.expected;
  // Never echo a secret back.
  if (extra.actual !== undefined && !field.sensitive) out.actual = extra.actual;
  return out;
}

function checkRule(field: ConfigField, rule: ConfigRule, value: string): ConfigIssue[] {
  const key = field.key;
  switch (rule.kind) {
    case "text": {
      if (rule.minLength !== undefined && value.length < rule.minLength) {
        return [
          issue(field, "too_short", `${key} must be at least ${rule.minLength} characters`, {
            expected: `>= ${rule.minLength} characters`,
            actual: `${value.length} characters`,
          }),
        ];
      }
      if (rule.pattern && !rule.pattern.test(value)) {
        return [
          issue(field, "invalid_format", `${key} does not have the expected format`, {
            expected: rule.patternHint ?? rule.pattern.source,
            actual: value,
          }),
        ];
      }
      return [];
    }
    case "enum":
      return checkEnum(field, rule, value);
    case "integer": {
      if (!/^[+-]?\d+$/.test(value))
        return [
          issue(field, "invalid_integer", `${key} must be a whole number`, { expected: "integer", actual: value }),
        ];
      return checkRange(field, Number(value), rule.min, rule.max, false);
    }
    case "number": {
      const n = Number(value);
      if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(value) || !Number.isFinite(n)) {
        return [issue(field, "invalid_number", `${key} must be a number`, { expected: "number", actual: value })];
      }
      return checkRange(field, n, rule.min, rule.max, Boolean(rule.exclusiveMin));
    }
    case "boolean": {
      const lower = value.toLowerCase();
      if (TRUE_WORDS.includes(lower) || FALSE_WORDS.includes(lower)) return [];
      return [
        issue(field, "invalid_boolean", `${key} must be true or false`, { expected: "true | false", actual: value }),
      ];
    }
    case "url":
      return isUrl(value, rule.schemes ?? URL_SCHEMES)
        ? []
        : [invalidUrl(field, key, rule.schemes ?? URL_SCHEMES, value)];
    case "sqlite_url":
      return value.startsWith("file:")
        ? []
        : [
            issue(field, "invalid_format", `${key} must be a SQLite "file:" URL`, {
              expected: "file:<path>",
              actual: value,
            }),
          ];
    case "email":
      return EMAIL.test(value)
        ? []
        : [
            issue(field, "invalid_email", `${key} must be an email address`, {
              expected: "name@example.com",
              actual: value,
            }),
          ];
    case "host":
      return isHost(value)
        ? []
        : [
            issue(field, "invalid_host", `${key} must be a host name or IP address, without scheme, port or path`, {
              expected: "smtp.example.com | 192.0.2.10 | 2001:db8::1",
              actual: value,
            }),
          ];
    case "time":
      return TIME.test(value)
        ? []
        : [issue(field, "invalid_time", `${key} must be a time HH:MM (24 h)`, { expected: "HH:MM", actual: value })];
    case "time_range":
      return TIME_RANGE.test(value)
        ? []
        : [
            issue(field, "invalid_time_range", `${key} must be a range HH:MM-HH:MM`, {
              expected: "HH:MM-HH:MM",
              actual: value,
            }),
          ];
    case "timezone":
      return isTimeZone(value)
        ? []
        : [
            issue(field, "invalid_timezone", `${key} must be an IANA time zone such as Asia/Shanghai`, {
              expected: "IANA time zone",
              actual: value,
            }),
          ];
    case "list":
      return checkList(field, rule, value);
  }
}

function checkEnum(field: ConfigField, rule: Extract<ConfigRule, { kind: "enum" }>, value: string): ConfigIssue[] {
  const lower = value.toLowerCase();
  if (rule.values.includes(value)) return [];
  if (rule.aliases?.[lower] !== undefined || (!rule.canonicalize && rule.values.includes(lower))) return [];
  const expected = rule.values.join(" | ");
  if (rule.lenient) {
    return [
      issue(
        field,
        "unsupported_value",
        `${field.key}=${value} is not supported here; ${field.default ? `the default ${field.default} is used` : "it is ignored"}`,
        { expected, actual: value },
        "warning",
      ),
    ];
  }
  return [
    issue(field, "invalid_enum", `${field.key} must be one of ${rule.values.join(", ")}`, { expected, actual: value }),
  ];
}

function checkRange(
  field: ConfigField,
  n: number,
  min: number | undefined,
  max: number | undefined,
  exclusiveMin: boolean,
): ConfigIssue[] {
  const tooLow = min !== undefined && (exclusiveMin ? n <= min : n < min);
  const tooHigh = max !== undefined && n > max;
  if (!tooLow && !tooHigh) return [];
  const low = min === undefined ? "" : exclusiveMin ? `> ${min}` : `>= ${min}`;
  const high = max === undefined ? "" : `<= ${max}`;
  const expected = [low, high].filter(Boolean).join(" and ");
  return [issue(field, "out_of_range", `${field.key} must be ${expected}`, { expected, actual: String(n) })];
}

function checkList(field: ConfigField, rule: Extract<ConfigRule, { kind: "list" }>, value: string): ConfigIssue[] {
  const items = splitList(value, rule.looseSeparators);
  const issues: ConfigIssue[] = [];
  for (const item of items) {
    const problem = listItemProblem(rule, item);
    if (problem) {
      issues.push(
        issue(field, "invalid_list_item", `${field.key}: "${field.sensitive ? "…" : item}" ${problem}`, {
          expected: listExpectation(rule),
          actual: item,
        }),
      );
      continue;
    }
    if (rule.allowed && !rule.allowed.includes(item.toLowerCase())) {
      const severity = rule.lenient ? "warning" : "error";
      const code = rule.lenient ? "unsupported_list_item" : "invalid_list_item";
      issues.push(
        issue(
          field,
          code,
          `${field.key}: "${item}" is not one of ${rule.allowed.join(", ")}`,
          { expected: rule.allowed.join(","), actual: item },
          severity,
        ),
      );
    }
  }
  return issues;
}

function listItemProblem(rule: Extract<ConfigRule, { kind: "list" }>, item: string): string | null {
  if (rule.maxItemLength !== undefined && item.length > rule.maxItemLength)
    return `is longer than ${rule.maxItemLength} characters`;
  switch (rule.item) {
    case "url":
      return isUrl(item, URL_SCHEMES) ? null : "is not an http(s) URL";
    case "email":
      return EMAIL.test(item) ? null : "is not an email address";
    case "time":
      return TIME.test(item) ? null : "is not a time HH:MM";
    case "name":
      return CHANNEL_NAME.test(item) ? null : "may only contain letters, digits, - and _";
    default:
      return null;
  }
}

function listExpectation(rule: Extract<ConfigRule, { kind: "list" }>): string {
  const what = {
    url: "http(s) URLs",
    email: "email addresses",
    time: "HH:MM times",
    name: "names (letters, digits, -, _)",
    text: "values",
  }[rule.item ?? "text"];
  return `comma-separated ${what}`;
}

function invalidUrl(field: ConfigField, key: string, schemes: readonly string[], value: string): ConfigIssue {
  const http = schemes.every((s) => (URL_SCHEMES as readonly string[]).includes(s));
  const expected = http ? "http(s)://…" : `${schemes.join(" | ")}://…`;
  return issue(field, "invalid_url", `${key} must be ${http ? "an http(s)" : `a ${schemes.join(" or ")}`} URL`, {
    expected,
    actual: value,
  });
}

function isUrl(value: string, schemes: readonly string[]): boolean {
  try {
    const u = new URL(value);
    return schemes.includes(u.protocol.replace(/:$/, "")) && u.hostname !== "";
  } catch {
    return false;
  }
}

function isHost(value: string): boolean {
  const bare = value.replace(/^\[(.*)\]$/, "$1");
  if (net.isIP(bare)) return true;
  const name = value.endsWith(".") ? value.slice(0, -1) : value;
  // All-numeric names are malformed addresses (999.1.1.1), not host names.
  if (name.length === 0 || name.length > 253 || /^[\d.]+$/.test(name)) return false;
  return name.split(".").every((label) => HOST_LABEL.test(label));
}

function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

// Keys the settings accessor types (ZSettings) must also pass its schema, or the next settings load would
// fail for the whole service; this catches any rule above that is looser than ZSettings.
function checkAgainstSettings(field: ConfigField, key: string, value: string): ConfigIssue[] {
  const shape = ZSettings.shape as Record<
    string,
    { safeParse: (v: unknown) => { success: boolean; error?: { issues: { message: string }[] } } }
  >;
  const setting = Object.hasOwn(shape, key) ? shape[key] : undefined;
  if (!setting) return [];
  const parsed = setting.safeParse(value.trim() === "" ? undefined : value);
  if (parsed.success) return [];
  const reason = parsed.error?.issues[0]?.message ?? "invalid value";
  return [issue(field, "invalid_value", `${key}: ${reason}`, { actual: value })];
}

// ---- wire form of the schema (docs/api.md §3 field schema)

export interface FieldSchemaWire {
  key: string;
  title?: string;
  description?: string;
  category: ConfigCategory;
  data_type: ConfigDataType;
  ui_control: ConfigUiControl;
  is_sensitive: boolean;
  is_required: boolean;
  is_editable: boolean;
  default_value?: string | null;
  options: ConfigOption[];
  validation: Record<string, unknown>;
  display_order: number;
  examples: string[];
  warning_codes: string[];
}

export function fieldSchemaWire(field: ConfigField): FieldSchemaWire {
  return {
    key: field.key,
    title: field.title,
    description: field.description,
    category: field.category,
    data_type: field.dataType,
    ui_control: field.uiControl,
    is_sensitive: Boolean(field.sensitive),
    is_required: Boolean(field.required),
    is_editable: field.editable !== false,
    default_value: field.default ?? null,
    options: [...(field.options ?? [])],
    validation: validationHints(field.rule),
    display_order: field.order,
    examples: [...(field.examples ?? [])],
    warning_codes: [...(field.warningCodes ?? [])],
  };
}

/** The rule as JSON hints, in the reference service's vocabulary (enum, min/max, pattern, multi_value…). */
export function validationHints(rule: ConfigRule | undefined): Record<string, unknown> {
  if (!rule) return {};
  switch (rule.kind) {
    case "text":
      return {
        ...(rule.minLength !== undefined ? { min_length: rule.minLength } : {}),
        ...(rule.pattern ? { pattern: rule.pattern.source } : {}),
      };
    case "enum":
      return {
        enum: [...rule.values],
        ...(rule.aliases ? { aliases: { ...rule.aliases } } : {}),
        ...(rule.lenient ? { unknown_values: "warning" } : {}),
      };
    case "integer":
    case "number":
      return {
        ...(rule.min !== undefined ? { min: rule.min } : {}),
        ...(rule.max !== undefined ? { max: rule.max } : {}),
        ...(rule.kind === "number" && rule.exclusiveMin ? { exclusive_min: true } : {}),
        ...(rule.kind === "integer" ? { integer: true } : {}),
      };
    case "boolean":
      return { enum: ["true", "false"] };
    case "url":
      return { format: "url", allowed_schemes: [...(rule.schemes ?? URL_SCHEMES)] };
    case "sqlite_url":
      return { pattern: "^file:" };
    case "email":
      return { format: "email" };
    case "host":
      return { format: "hostname" };
    case "time":
      return { pattern: TIME.source };
    case "time_range":
      return { pattern: TIME_RANGE.source };
    case "timezone":
      return { timezone: true };
    case "list":
      return {
        multi_value: true,
        delimiter: ",",
        ...(rule.item && rule.item !== "text" ? { item_type: rule.item } : {}),
        ...(rule.allowed ? { allowed_values: [...rule.allowed] } : {}),
        ...(rule.lenient ? { unknown_values: "warning" } : {}),
        ...(rule.maxItemLength !== undefined ? { max_item_length: rule.maxItemLength } : {}),
      };
  }
}

export interface CategorySchemaWire extends ConfigCategoryInfo {
  fields: FieldSchemaWire[];
}

export interface SchemaWire {
  schema_version: string;
  categories: CategorySchemaWire[];
  key_patterns: (FieldSchemaWire & { pattern: string })[];
}

export function sortFields<T extends { category: ConfigCategory; order: number; key: string }>(fields: T[]): T[] {
  const rank = new Map(CONFIG_CATEGORIES.map((c) => [c.category, c.display_order]));
  return [...fields].sort(
    (a, b) =>
      (rank.get(a.category) ?? 99) - (rank.get(b.category) ?? 99) || a.order - b.order || a.key.localeCompare(b.key),
  );
}

let cachedSchema: SchemaWire | null = null;

export function configSchemaWire(): SchemaWire {
  if (cachedSchema) return cachedSchema;
  const categories = CONFIG_CATEGORIES.map((c) => ({
    ...c,
    fields: sortFields(FIELDS.filter((f) => f.category === c.category)).map(fieldSchemaWire),
  }));
  const keyPatterns = LLM_CHANNEL_FIELDS.map((f) => ({ ...fieldSchemaWire(f), pattern: f.pattern.source }));
  const digest = createHash("sha256").update(JSON.stringify({ categories, keyPatterns })).digest("hex").slice(0, 12);
  cachedSchema = { schema_version: `dsa-config-${digest}`, categories, key_patterns: keyPatterns };
  return cachedSchema;
}
