import fs from "node:fs";
import path from "node:path";

export const DEFAULT_DATABASE_URL = "file:./data/dsa.db";

/** The two databases DSA runs on: SQLite embedded (one process), PostgreSQL for several replicas. */
export type DatabaseKind = "sqlite" | "postgres";

export function databaseKind(url: string): DatabaseKind {
  return /^postgres(ql)?:\/\//i.test(url) ? "postgres" : "sqlite";
}

// Relative SQLite paths are resolved against the working directory once, so the CLI (migrations),
// the server and the tests all open the same file whatever folder they later run in. PostgreSQL URLs pass
// through unchanged.
export function resolveDatabaseUrl(raw: string | undefined, cwd = process.cwd()): string {
  const url = raw && raw.trim() !== "" ? raw.trim() : DEFAULT_DATABASE_URL;
  if (databaseKind(url) === "postgres") return url;
  if (!url.startsWith("file:")) {
    throw new Error(
      `DATABASE_URL must be a SQLite "file:" URL or a "postgresql://" URL, got scheme "${url.split(":")[0]}"`,
    );
  }
  const file = url.slice("file:".length);
  if (file === ":memory:") return url;
  return `file:${path.resolve(cwd, file)}`;
}

export function databaseFilePath(url: string): string {
  if (databaseKind(url) === "postgres") throw new Error("a PostgreSQL database has no file path");
  return url.slice("file:".length);
}

export function ensureDatabaseFolder(url: string): void {
  if (databaseKind(url) === "postgres") return;
  const file = databaseFilePath(url);
  if (file === ":memory:") return;
  // Owner-only when created here: the database holds the admin password hash and sessions.
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
}

/** The URL with any password replaced, for logs and messages. */
export function redactedDatabaseUrl(url: string): string {
  return url.replace(/(\/\/[^:/@]+:)[^@]*@/, "$1***@");
}
