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
  LOG_LEVEL: z
    .preprocess(logLevelAlias, z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]))
    .default("info"),
  // Default report language (CONTRACT.md §7); requests may ask for another one.
  REPORT_LANGUAGE: z.string().default("zh"),
  // Spec 5: when true every /api/v1/* route but login, auth status, health and docs needs the admin session.
  ADMIN_AUTH_ENABLED: flag.default(false),
  ADMIN_SESSION_MAX_AGE_HOURS: z.coerce.number().positive().max(24 * 365).default(24),
  // Seals the session cookie; when unset one is generated once and kept in the data folder.
  SESSION_SECRET: z.string().min(32, "SESSION_SECRET must be at least 32 characters").optional(),
  // Behind a TLS-terminating proxy: trust its X-Forwarded-* headers (client address, https).
  TRUST_X_FORWARDED_FOR: flag.default(false),
  // Market data (issue 3 item 5): providers tried in order. Names are kept as given (lower-cased) so a name
  // the config API allows but no provider implements yet is skipped by the chain instead of failing the load.
  MARKET_DATA_SOURCES: z
    .string()
    .default("eastmoney,tencent,yahoo")
    .transform((v) => v.split(",").map((s) => s.trim().toLowerCase()).filter((s) => s !== ""))
    .pipe(z.array(z.string().regex(/^[a-z0-9_]+$/, "provider names are letters, digits and _")).min(1, "name at least one provider")),
  // Artificial delay of the offline sample provider (demos, progress and duplicate tests).
  SAMPLE_LATENCY_MS: z.coerce.number().int().min(0).max(60_000).default(0),
  // Per-provider budget for one bars/quote call, retries included; past it the chain falls through.
  MARKET_DATA_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(8000),
  // News search (issue 3 item 9): API keys per provider, comma separated and rotated; an empty list disables
  // that provider. Split leniently (spaces, full-width commas: keys never contain them) and never failing,
  // so a pasted list cannot break the settings load.
  TAVILY_API_KEYS: z.string().default("").transform((v) => v.split(/[,\uFF0C\s]+/).filter((s) => s !== "")),
  SERPAPI_API_KEYS: z.string().default("").transform((v) => v.split(/[,\uFF0C\s]+/).filter((s) => s !== "")),
  BOCHA_API_KEYS: z.string().default("").transform((v) => v.split(/[,\uFF0C\s]+/).filter((s) => s !== "")),
  BRAVE_API_KEYS: z.string().default("").transform((v) => v.split(/[,\uFF0C\s]+/).filter((s) => s !== "")),
  // IANA zone of the service's calendar (usage periods today/month, CONTRACT.md §6). Kept as text here so a bad
  // hand edit cannot break the settings load: lib/usage/time-zone.ts falls back to Asia/Shanghai and logs it.
  SERVICE_TIMEZONE: z.string().trim().default("Asia/Shanghai"),
  // Task queue (issue 5): workers per process, how long finished tasks stay in the queue view, the stream's
  // heartbeat, and a per-market cap on task starts so a batch cannot hammer one market's providers.
  MAX_WORKERS: z.coerce.number().int().min(1).max(20).default(3),
  TASK_RETENTION_MINUTES: z.coerce.number().int().min(0).max(1440).default(10),
  SSE_HEARTBEAT_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  TASK_MARKET_RATE_PER_MINUTE: z.coerce.number().int().min(1).max(60_000).default(120),
  // Market review (CONTRACT.md §7): the region used when a request names none; "both" = cn + us.
  MARKET_REVIEW_REGION: z
    .string()
    .default("cn")
    .transform((v) => v.trim().toLowerCase())
    .transform((v) => (["cn", "hk", "us", "both"].includes(v) ? (v as "cn" | "hk" | "us" | "both") : "cn")),
});

export type TSettings = z.infer<typeof ZSettings>;

// Keys the launcher owns: they decide where the file, the port and the database are, so the process
// environment wins over the env file for them (a test or a supervisor must be able to point elsewhere).
export const LAUNCH_KEYS = ["ENV_FILE", "PORT", "HOSTNAME", "DATABASE_URL"] as const;
