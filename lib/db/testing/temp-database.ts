import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { setClock } from "@/lib/clock";
import { setEnvironmentForTests } from "@/lib/config/settings";
import { disconnectDb } from "@/lib/db/client";
import { applyMigrations } from "./apply-migrations";

export interface TempDatabase {
  dir: string;
  file: string;
  /** The settings the file runs with: the temporary database, no env file, plus the extra keys given. */
  env: Record<string, string>;
  /** Replace the extra settings (the database stays). */
  useSettings(extra: Record<string, string>): void;
}

/**
 * Test support for a test file that needs the database: a migrated SQLite file in a new temporary folder,
 * settings pointing at it for the whole file, and everything (client, settings, clock, folder) put back after.
 */
export function withTempDatabase(prefix: string, extra: Record<string, string> = {}): TempDatabase {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `dsa-${prefix}-`));
  const file = path.join(dir, "test.db");
  const env = { ENV_FILE: path.join(dir, "missing.env"), DATABASE_URL: `file:${file}`, ...extra };
  beforeAll(() => {
    applyMigrations(file);
    setEnvironmentForTests(env);
  });
  afterAll(async () => {
    await disconnectDb();
    setEnvironmentForTests(process.env);
    setClock(null);
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return { dir, file, env, useSettings: (more) => setEnvironmentForTests({ ...env, ...more }) };
}
