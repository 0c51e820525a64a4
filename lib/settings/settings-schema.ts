import { z } from "zod";
import { DEFAULT_DATABASE_URL } from "@/lib/db/database-url";

const flag = z
  .union([z.boolean(), z.string()])
  .transform((v) => (typeof v === "boolean" ? v : ["1", "true", "yes", "on"].includes(v.trim().toLowerCase())));

// The reference service's .env uses Python's level names (INFO, WARNING, CRITICAL): accept them as they are.
function logLevelAlias(value: unknown): unknown {
  if (typeof value !== "string") return value;
  const level = value.trim().toLowerCase();
  return ({ warning: "warn", critical: "fatal" } as Record<string, string>)[level] ?? level;
}

// Every setting the service reads, typed once. Later domains add their keys here (and to the config
// schema of the settings API), never by reading process.env themselves.
export const ZSettings = z.object({
  ENV_FILE: z.string().min(1).default("./.env"),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  HOSTNAME: z.string().min(1).default("0.0.0.0"),
  DATABASE_URL: z.string().min(1).default(DEFAULT_DATABASE_URL),
  // Redis shared by the replicas (task events, rate limits, leader and send locks). Unset: all of it
  // stays inside this process, as with one replica.
  REDIS_URL: z
    .string()
    .trim()
    .default("")
    .refine((v) => v === "" || /^rediss?:\/\/[^\s]+$/.test(v), "REDIS_URL must be a redis:// or rediss:// URL"),
  LOG_LEVEL: z
    .preprocess(logLevelAlias, z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]))
    .default("info"),
  // Default report language (docs/api.md §7); requests may ask for another one.
  REPORT_LANGUAGE: z.string().default("zh"),
  // Spec 5: when true every /api/v1/* route but login, auth status, health and docs needs the admin session.
  ADMIN_AUTH_ENABLED: flag.default(false),
  ADMIN_SESSION_MAX_AGE_HOURS: z.coerce
    .number()
    .positive()
    .max(24 * 365)
    .default(24),
  // Requests per minute one API token may make (429 with Retry-After beyond it).
  API_TOKEN_RATE_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(120),
  // Seals the session cookie; when unset one is generated once and kept in the data folder.
  SESSION_SECRET: z.string().min(32, "SESSION_SECRET must be at least 32 characters").optional(),
  // Behind a TLS-terminating proxy: trust its X-Forwarded-* headers (client address, https).
  TRUST_X_FORWARDED_FOR: flag.default(false),
  // Host names served besides IP literals, localhost, this machine's name and PUBLIC_BASE_URL's host
  // (lib/http/host-policy.ts: DNS rebinding). `.example.com` takes its subdomains too, `*` every name.
  ALLOWED_HOSTS: z
    .string()
    .default("")
    .transform((v) =>
      v
        .split(/[,\s]+/)
        .map((s) => s.trim().toLowerCase().replace(/\.$/, ""))
        .filter((s) => s !== ""),
    ),
  // Outbound URLs (webhooks, LLM and news base URLs) may reach this machine or its private network only
  // when this is on (lib/net/outbound-policy.ts); off, a settings change cannot probe internal services.
  OUTBOUND_ALLOW_PRIVATE: flag.default(false),
  // Market data: providers tried in order. Names are kept as given (lower-cased) so a name
  // the config API allows but no provider implements yet is skipped by the chain instead of failing the load.
  MARKET_DATA_SOURCES: z
    .string()
    .default("eastmoney,tencent,yahoo")
    .transform((v) =>
      v
        .split(",")
        .map((s) => s.trim().toLowerCase())
        .filter((s) => s !== ""),
    )
    .pipe(
      z
        .array(z.string().regex(/^[a-z0-9_]+$/, "provider names are letters, digits and _"))
        .min(1, "name at least one provider"),
    ),
  // Artificial delay of the offline sample provider (demos, progress and duplicate tests).
  SAMPLE_LATENCY_MS: z.coerce.number().int().min(0).max(60_000).default(0),
  // CSV data source (docs/api.md §10): folder of <code>.csv files, relative to the working directory.
  CSV_DATA_DIR: z.string().trim().min(1).default("./data/csv"),
  // Per-provider budget for one bars/quote call, retries included; past it the chain falls through.
  MARKET_DATA_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(8000),
  // News search: API keys per provider, comma separated and rotated; an empty list disables
  // that provider. Split leniently (spaces, full-width commas: keys never contain them) and never failing,
  // so a pasted list cannot break the settings load.
  TAVILY_API_KEYS: z
    .string()
    .default("")
    .transform((v) => v.split(/[,\uFF0C\s]+/).filter((s) => s !== "")),
  SERPAPI_API_KEYS: z
    .string()
    .default("")
    .transform((v) => v.split(/[,\uFF0C\s]+/).filter((s) => s !== "")),
  BOCHA_API_KEYS: z
    .string()
    .default("")
    .transform((v) => v.split(/[,\uFF0C\s]+/).filter((s) => s !== "")),
  BRAVE_API_KEYS: z
    .string()
    .default("")
    .transform((v) => v.split(/[,\uFF0C\s]+/).filter((s) => s !== "")),
  // IANA zone of the service's calendar (usage periods today/month, docs/api.md §6). Kept as text here so a bad
  // hand edit cannot break the settings load: lib/time/zoned-time.ts falls back to Asia/Shanghai and logs it.
  SERVICE_TIMEZONE: z.string().trim().default("Asia/Shanghai"),
  // Task queue: workers per process, how long finished tasks stay in the queue view, the stream's
  // heartbeat, and a per-market cap on task starts so a batch cannot hammer one market's providers.
  MAX_WORKERS: z.coerce.number().int().min(1).max(20).default(3),
  TASK_RETENTION_MINUTES: z.coerce.number().int().min(0).max(1440).default(10),
  SSE_HEARTBEAT_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  TASK_MARKET_RATE_PER_MINUTE: z.coerce.number().int().min(1).max(60_000).default(120),
  // Alerts: evaluator period, and whether quote rules are checked only while their market trades.
  ALERT_EVAL_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  ALERT_TRADING_HOURS_ONLY: flag.default(true),
  // Portfolio risk: the report currency of a multi-account report, and the FX rates to CNY used to
  // add up positions of different currencies (no FX feed is wired).
  PORTFOLIO_BASE_CURRENCY: z.enum(["CNY", "HKD", "USD"]).catch("CNY").default("CNY"),
  // Manual FX override (CUR=rate to CNY); empty: the rates POST /portfolio/fx/refresh stored.
  PORTFOLIO_FX_RATES: z.string().default(""),
  // Daily schedule (lib/schedule): the watchlist, the report depth of scheduled runs, the slot (HH:MM in
  // SERVICE_TIMEZONE; a malformed value disables the schedule rather than failing the load), how late a missed
  // slot still runs (a restart across the slot), the market review in the same run, and whether markets whose
  // exchange is closed on its local day (weekend or exchange holiday, lib/market/calendar.ts) are skipped.
  STOCK_LIST: z
    .string()
    .default("")
    .transform((v) => v.split(/[,\uFF0C\s]+/).filter((s) => s !== "")),
  REPORT_TYPE: z
    .string()
    .default("simple")
    .transform((v) => v.trim().toLowerCase())
    .transform((v) =>
      v === "detailed"
        ? "full"
        : ["simple", "full", "brief"].includes(v)
          ? (v as "simple" | "full" | "brief")
          : "simple",
    ),
  SCHEDULE_ENABLED: flag.default(false),
  // Stock screening (lib/screening): SCREENING_ENABLED, or the reference's older name ALPHASIFT_ENABLED when only it
  // is set (screeningEnabled() reads them).
  SCREENING_ENABLED: flag.optional(),
  // The MCP endpoint /mcp (lib/mcp): off until switched on; every request needs an API token.
  MCP_ENABLED: flag.default(false),
  ALPHASIFT_ENABLED: flag.optional(),
  // The daily run also queues these screening strategies (ids, comma separated; none when empty) over one market.
  SCREENING_SCHEDULE_STRATEGIES: z
    .string()
    .default("")
    .transform((v) =>
      v
        .split(",")
        .map((s) => s.trim())
        .filter((s) => s !== ""),
    ),
  SCREENING_SCHEDULE_MARKET: z.enum(["cn", "hk", "us"]).catch("cn").default("cn"),
  SCHEDULE_TIME: z.string().trim().default("18:00"),
  SCHEDULE_CATCH_UP_MINUTES: z.coerce.number().int().min(0).max(1440).default(180),
  MARKET_REVIEW_ENABLED: flag.default(true),
  // Scheduled runs send one merged report when all their analyses are done (the reference's daily push), or each
  // stock's report as soon as it is ready with SINGLE_STOCK_NOTIFY; REPORT_SUMMARY_ONLY keeps the merged one to a
  // line per stock.
  SINGLE_STOCK_NOTIFY: flag.default(false),
  REPORT_SUMMARY_ONLY: flag.default(false),
  TRADING_DAY_CHECK_ENABLED: flag.default(true),
  // Agent chat (lib/agent): tool steps per turn, the turn's time limit (seconds), the token budget of
  // one turn (input + output over all its steps), the channel/model the chat uses (empty: the report channels in
  // order), and a folder of the user's own strategy files (Markdown with front matter) beside the built-in ones.
  AGENT_MAX_STEPS: z.coerce.number().int().min(1).max(30).default(8),
  AGENT_TURN_TIMEOUT_SEC: z.coerce.number().int().min(5).max(1800).default(120),
  AGENT_TOKEN_BUDGET: z.coerce.number().int().min(1000).max(2_000_000).default(60_000),
  AGENT_MODEL: z.string().trim().default(""),
  SKILLS_DIR: z.string().trim().default(""),
  // Market review (docs/api.md §7): the region used when a request names none; "both" = cn + us.
  MARKET_REVIEW_REGION: z
    .string()
    .default("cn")
    .transform((v) => v.trim().toLowerCase())
    .transform((v) => (["cn", "hk", "us", "both"].includes(v) ? (v as "cn" | "hk" | "us" | "both") : "cn")),
  // Share image (spec 4.3 rules 5-6, docs/api.md §8): the longest Markdown report (characters) drawn as a share
  // card; unset falls back to the reference's MARKDOWN_TO_IMAGE_MAX_CHARS, then 15000 (lib/history/share).
  SHARE_IMAGE_MAX_CHARS: z.coerce.number().int().min(1).max(1_000_000).optional(),
  MARKDOWN_TO_IMAGE_MAX_CHARS: z.coerce.number().int().min(1).max(1_000_000).optional(),
  // false turns the PNG renderer (satori + resvg, ~300 MB resident once used) off: share-image answers 503.
  SHARE_IMAGE_PNG_ENABLED: flag.default(true),
  // true draws warm-up cards on the renderer threads after start-up (a fast first share image); false
  // spares a start those few CPU-seconds on every core, and the first share image pays them instead.
  SHARE_IMAGE_WARMUP: flag.default(true),
  // true draws each new report's share PNG in the background when it is stored, so asking for it is a read.
  SHARE_IMAGE_PRERENDER: flag.default(true),
  // Testing aid: seconds added to the decision-signal clock (creation, default expiry, lazy expiry), so
  // API tests can move signal time without touching the market-data clock. 0 (the default) in production.
  SIGNAL_CLOCK_OFFSET_SECONDS: z.coerce
    .number()
    .int()
    .min(-3_650 * 86_400)
    .max(3_650 * 86_400)
    .default(0),
  // Notifications (lib/notify). A channel is on when its settings are filled, off when empty.
  // Kept as plain text (never failing the settings load); the config API checks URL shapes on save.
  PUBLIC_BASE_URL: z
    .string()
    .trim()
    .default("")
    .transform((v) => v.replace(/\/+$/, "")),
  WECHAT_WEBHOOK_URL: z.string().trim().default(""),
  FEISHU_WEBHOOK_URL: z.string().trim().default(""),
  FEISHU_WEBHOOK_SECRET: z.string().trim().default(""),
  FEISHU_WEBHOOK_KEYWORD: z.string().trim().default(""),
  DINGTALK_WEBHOOK_URL: z.string().trim().default(""),
  DINGTALK_SECRET: z.string().trim().default(""),
  TELEGRAM_BOT_TOKEN: z.string().trim().default(""),
  TELEGRAM_CHAT_ID: z.string().trim().default(""),
  TELEGRAM_MESSAGE_THREAD_ID: z.string().trim().default(""),
  TELEGRAM_API_BASE_URL: z
    .string()
    .trim()
    .default("https://api.telegram.org")
    .transform((v) => v.replace(/\/+$/, "")),
  DISCORD_WEBHOOK_URL: z.string().trim().default(""),
  SLACK_WEBHOOK_URL: z.string().trim().default(""),
  CUSTOM_WEBHOOK_URLS: z
    .string()
    .default("")
    .transform((v) => v.split(/[,\uFF0C\s]+/).filter((s) => s !== "")),
  CUSTOM_WEBHOOK_BEARER_TOKEN: z.string().trim().default(""),
  CUSTOM_WEBHOOK_BODY_TEMPLATE: z.string().trim().default(""),
  EMAIL_SENDER: z.string().trim().default(""),
  EMAIL_PASSWORD: z.string().default(""),
  EMAIL_RECEIVERS: z
    .string()
    .default("")
    .transform((v) => v.split(/[,\uFF0C;\s]+/).filter((s) => s !== "")),
  EMAIL_SMTP_HOST: z.string().trim().default(""),
  // 0: derived from the sender's domain (465 with TLS for the known providers).
  EMAIL_SMTP_PORT: z.coerce.number().int().min(0).max(65535).default(0),
  // Bot modes of Feishu, Discord and Slack (an app/bot token and a chat or channel id instead of a webhook).
  FEISHU_APP_ID: z.string().trim().default(""),
  FEISHU_APP_SECRET: z.string().trim().default(""),
  FEISHU_CHAT_ID: z.string().trim().default(""),
  DISCORD_BOT_TOKEN: z.string().trim().default(""),
  DISCORD_MAIN_CHANNEL_ID: z.string().trim().default(""),
  SLACK_BOT_TOKEN: z.string().trim().default(""),
  SLACK_CHANNEL_ID: z.string().trim().default(""),
  // Push services.
  PUSHOVER_USER_KEY: z.string().trim().default(""),
  PUSHOVER_API_TOKEN: z.string().trim().default(""),
  NTFY_URL: z.string().trim().default(""),
  NTFY_TOKEN: z.string().trim().default(""),
  GOTIFY_URL: z
    .string()
    .trim()
    .default("")
    .transform((v) => v.replace(/\/+$/, "")),
  GOTIFY_TOKEN: z.string().trim().default(""),
  PUSHPLUS_TOKEN: z.string().trim().default(""),
  PUSHPLUS_TOPIC: z.string().trim().default(""),
  SERVERCHAN3_SENDKEY: z.string().trim().default(""),
  ASTRBOT_URL: z.string().trim().default(""),
  ASTRBOT_TOKEN: z.string().trim().default(""),
  // Web Push (lib/push): the VAPID key pair is generated once, at the first subscription, and kept here.
  WEB_PUSH_VAPID_PUBLIC_KEY: z.string().trim().default(""),
  WEB_PUSH_VAPID_PRIVATE_KEY: z.string().trim().default(""),
  WEB_PUSH_SUBJECT: z.string().trim().default(""),
  // Two-way chat bots (lib/bots): each platform has its own switch; BOT_ALLOWLIST says who may command them.
  BOT_ALLOWLIST: z
    .string()
    .default("")
    .transform((v) => v.split(/[,\uFF0C\s]+/).filter((s) => s !== "")),
  BOT_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(120).default(6),
  TELEGRAM_BOT_MODE: z.enum(["off", "webhook", "polling"]).catch("off").default("off"),
  TELEGRAM_WEBHOOK_SECRET: z.string().trim().default(""),
  FEISHU_BOT_ENABLED: flag.default(false),
  FEISHU_VERIFICATION_TOKEN: z.string().trim().default(""),
  FEISHU_ENCRYPT_KEY: z.string().trim().default(""),
  FEISHU_API_BASE_URL: z
    .string()
    .trim()
    .default("https://open.feishu.cn")
    .transform((v) => v.replace(/\/+$/, "")),
  DINGTALK_BOT_ENABLED: flag.default(false),
  DINGTALK_APP_SECRET: z.string().trim().default(""),
  WECOM_BOT_ENABLED: flag.default(false),
  WECOM_CORP_ID: z.string().trim().default(""),
  WECOM_CORP_SECRET: z.string().trim().default(""),
  WECOM_AGENT_ID: z.string().trim().default(""),
  WECOM_TOKEN: z.string().trim().default(""),
  WECOM_ENCODING_AES_KEY: z.string().trim().default(""),
  WECOM_API_BASE_URL: z
    .string()
    .trim()
    .default("https://qyapi.weixin.qq.com")
    .transform((v) => v.replace(/\/+$/, "")),
  NOTIFICATION_REPORT_CHANNELS: z
    .string()
    .default("")
    .transform((v) =>
      v
        .toLowerCase()
        .split(/[,\uFF0C\s]+/)
        .filter((s) => s !== ""),
    ),
  NOTIFICATION_ALERT_CHANNELS: z
    .string()
    .default("")
    .transform((v) =>
      v
        .toLowerCase()
        .split(/[,\uFF0C\s]+/)
        .filter((s) => s !== ""),
    ),
  NOTIFICATION_SYSTEM_ERROR_CHANNELS: z
    .string()
    .default("")
    .transform((v) =>
      v
        .toLowerCase()
        .split(/[,\uFF0C\s]+/)
        .filter((s) => s !== ""),
    ),
  NOTIFICATION_DEDUP_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(0)
    .max(30 * 86_400)
    .default(0),
  // Noise control (lib/notify/noise.ts): quiet hours "HH:MM-HH:MM" (may cross midnight) in NOTIFICATION_TIMEZONE
  // (empty: SERVICE_TIMEZONE), the lowest severity sent, and a per-channel cooldown per subject (stock or rule).
  // Kept as text so a bad hand edit turns the feature off instead of failing the settings load.
  NOTIFICATION_QUIET_HOURS: z.string().trim().default(""),
  NOTIFICATION_TIMEZONE: z.string().trim().default(""),
  NOTIFICATION_MIN_SEVERITY: z
    .string()
    .default("")
    .transform((v) => v.trim().toLowerCase())
    .transform((v) =>
      ["info", "warning", "error", "critical"].includes(v) ? (v as "info" | "warning" | "error" | "critical") : null,
    ),
  NOTIFICATION_COOLDOWN_SECONDS: z.coerce
    .number()
    .int()
    .min(0)
    .max(30 * 86_400)
    .catch(0)
    .default(0),
  NOTIFICATION_RETRY_ATTEMPTS: z.coerce.number().int().min(1).max(10).default(3),
  NOTIFICATION_RETRY_BASE_DELAY_MS: z.coerce.number().int().min(0).max(60_000).default(1000),
  NOTIFICATION_TIMEOUT_MS: z.coerce.number().int().min(500).max(120_000).default(10_000),
});

export type TSettings = z.infer<typeof ZSettings>;

// Keys the launcher owns: they decide where the file, the port, the database and Redis are, so the process
// environment wins over the env file for them (a test or a supervisor must be able to point elsewhere).
export const LAUNCH_KEYS = ["ENV_FILE", "PORT", "HOSTNAME", "DATABASE_URL", "REDIS_URL"] as const;
