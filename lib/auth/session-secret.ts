import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { getSettings } from "@/lib/settings/settings";
import { databaseFilePath, databaseKind, resolveDatabaseUrl } from "@/lib/db/database-url";
import { db } from "@/lib/db/client";
import { isUniqueViolation } from "@/lib/db/errors";

let cached: { key: string; secret: string } | null = null;

/**
 * The key that seals session cookies: SESSION_SECRET when set, otherwise a random one generated on first
 * use and kept, so sessions survive restarts without any setup. SQLite: a file (mode 0600) beside the
 * database. PostgreSQL: a row of the shared database, so every replica seals and opens the same cookies.
 */
export async function sessionSecret(): Promise<string> {
  const known = knownSessionSecret();
  if (known !== null) return known;
  const url = resolveDatabaseUrl(getSettings().DATABASE_URL);
  const secret =
    databaseKind(url) === "postgres"
      ? await readOrCreateRow()
      : readOrCreateFile(path.join(path.dirname(databaseFilePath(url)), "session-secret"));
  cached = { key: url, secret };
  return secret;
}

/** The key, when it is known without reading anything (set, or read before): lets a request's check stay synchronous. */
export function knownSessionSecret(): string | null {
  const configured = getSettings().SESSION_SECRET;
  if (configured) return configured;
  return cached?.key === resolveDatabaseUrl(getSettings().DATABASE_URL) ? cached.secret : null;
}

const SECRET_KEY = "session_secret";

async function readOrCreateRow(): Promise<string> {
  const existing = await db().appState.findUnique({ where: { key: SECRET_KEY } });
  if (existing) return existing.value;
  const secret = randomBytes(48).toString("base64url");
  try {
    await db().appState.create({ data: { key: SECRET_KEY, value: secret } });
    return secret;
  } catch (error) {
    // Two replicas starting at once: the first row wins and the other reads it.
    if (!isUniqueViolation(error)) throw error;
    return (await db().appState.findUniqueOrThrow({ where: { key: SECRET_KEY } })).value;
  }
}

function readOrCreateFile(file: string): string {
  try {
    return fs.readFileSync(file, "utf8").trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const secret = randomBytes(48).toString("base64url");
  try {
    // "wx": when two processes race, the first file wins and the other reads it.
    fs.writeFileSync(file, `${secret}\n`, { flag: "wx", mode: 0o600 });
    return secret;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return fs.readFileSync(file, "utf8").trim();
    throw error;
  }
}
