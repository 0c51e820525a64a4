import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { getSettings } from "@/lib/config/settings";
import { databaseFilePath, resolveDatabaseUrl } from "@/lib/db/database-url";

let cached: { key: string; secret: string } | null = null;

/**
 * The key that seals session cookies: SESSION_SECRET when set, otherwise a random one generated on first
 * use and kept (mode 0600) beside the database, so sessions survive restarts without any setup.
 */
export function sessionSecret(): string {
  const configured = getSettings().SESSION_SECRET;
  if (configured) return configured;
  const file = path.join(path.dirname(databaseFilePath(resolveDatabaseUrl(getSettings().DATABASE_URL))), "session-secret");
  if (cached?.key === file) return cached.secret;
  const secret = readOrCreate(file);
  cached = { key: file, secret };
  return secret;
}

function readOrCreate(file: string): string {
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
