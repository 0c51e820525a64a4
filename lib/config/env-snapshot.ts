import { createHash } from "node:crypto";
import { ApiError } from "@/lib/errors/api-error";
import { parseEnv } from "./env-file";
import { envFilePath } from "@/lib/settings/settings";

// What both config stores (the env file, and with PostgreSQL the config document row) hand to their callers:
// the env text, its parsed values and a version token, and the outcome of a versioned write.

export const MISSING_VERSION = "missing:0";

export interface EnvSnapshot {
  /** Where the text lives: the env file, or (PostgreSQL) the config document row. */
  store: "file" | "database";
  /** The env file (for the database store: the file its first revision was imported from). */
  file: string;
  exists: boolean;
  /** The env text ("" when there is none). */
  content: string;
  values: Record<string, string>;
  /**
   * Changes whenever the text changes. File: `<mtime ns>:<sha256 of the bytes>`, or "missing:0".
   * Database: `r<revision>:<sha256 of the text>`.
   */
  version: string;
  /** When the text was last written (ISO 8601), when it exists. */
  updatedAt: string | null;
}

export interface EnvUpdatePlan<T> {
  updates: Record<string, string>;
  result: T;
}

export interface EnvUpdateOutcome<T> {
  before: EnvSnapshot;
  after: EnvSnapshot;
  /** False when the updates left the text unchanged (nothing was written). */
  written: boolean;
  /** The rename was refused (bind-mounted file) and the file was rewritten in place. */
  inPlace: boolean;
  /** Settings were re-read after the write. */
  reloaded: boolean;
  reloadError?: string;
  result: T;
}

export interface EnvUpdateOptions {
  /** An env file of its own; defaults to the live store (ENV_FILE, or the config document with PostgreSQL). */
  file?: string;
  /** Reject with 409 config_version_conflict unless the store still has this version. */
  expectedVersion?: string;
  /** Re-read settings after a write (default true); only done for the live store. */
  reload?: boolean;
  /**
   * How long the env-file lock may go without its holder refreshing it before another writer breaks it
   * (a killed holder stops refreshing). Default 5 s; proper-lockfile's floor is 2 s.
   */
  lockStaleMs?: number;
}

export function versionConflict(currentVersion: string): ApiError {
  return ApiError.of("config_version_conflict", "The configuration changed since it was read; reload and try again", {
    current_config_version: currentVersion,
  });
}

/** The snapshot of a config document revision (PostgreSQL). */
export function documentSnapshot(document: { text: string; revision: number; updatedAt: Date }): EnvSnapshot {
  return {
    store: "database",
    file: envFilePath(),
    exists: true,
    content: document.text,
    values: parseEnv(document.text),
    version: `r${document.revision}:${createHash("sha256").update(document.text).digest("hex")}`,
    updatedAt: document.updatedAt.toISOString(),
  };
}
