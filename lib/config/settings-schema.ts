import { z } from "zod";
import { DEFAULT_DATABASE_URL } from "@/lib/db/database-url";

const flag = z
  .union([z.boolean(), z.string()])
  .transform((v) => (typeof v === "boolean" ? v : ["1", "true", "yes", "on"].includes(v.trim().toLowerCase())));

// Every setting the service reads, typed once. Later domains add their keys here (and to the config
// schema of the settings API), never by reading process.env themselves.
export const ZSettings = z.object({
  ENV_FILE: z.string().min(1).default("./.env"),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  HOSTNAME: z.string().min(1).default("0.0.0.0"),
  DATABASE_URL: z.string().min(1).default(DEFAULT_DATABASE_URL),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  // Spec 5: when true every /api/v1/* route but login, auth status, health and docs needs the admin session.
  ADMIN_AUTH_ENABLED: flag.default(false),
  ADMIN_SESSION_MAX_AGE_HOURS: z.coerce.number().positive().max(24 * 365).default(24),
  // Seals the session cookie; when unset one is generated once and kept in the data folder.
  SESSION_SECRET: z.string().min(32, "SESSION_SECRET must be at least 32 characters").optional(),
  // Behind a TLS-terminating proxy: trust its X-Forwarded-* headers (client address, https).
  TRUST_X_FORWARDED_FOR: flag.default(false),
});

export type TSettings = z.infer<typeof ZSettings>;

// Keys the launcher owns: they decide where the file, the port and the database are, so the process
// environment wins over the env file for them (a test or a supervisor must be able to point elsewhere).
export const LAUNCH_KEYS = ["ENV_FILE", "PORT", "HOSTNAME", "DATABASE_URL"] as const;
