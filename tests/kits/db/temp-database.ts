import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, inject } from "vitest";
import { setClock } from "@/lib/clock";
import { setEnvironmentForTests } from "@/lib/settings/settings";
import { disconnectDb } from "@/lib/db/client";
import { applyMigrations } from "./apply-migrations";
import { copyTemplateDatabase } from "./postgres-test-databases";

/** Which database the suite runs on: SQLite, or PostgreSQL in the suites' second pass (vitest.config.ts). */
export function testDatabaseKind(): "sqlite" | "postgres" {
  return process.env.DSA_TEST_DATABASE === "postgres" ? "postgres" : "sqlite";
}

/**
 * A new migrated database for a test file; returns its DATABASE_URL. SQLite: `file`, migrated. PostgreSQL:
 * a copy of the run's migrated template (dropped with the others when the run ends).
 */
export async function freshDatabaseUrl(file: string): Promise<string> {
  if (testDatabaseKind() === "sqlite") {
    applyMigrations(file);
    return `file:${file}`;
  }
  return copyTemplateDatabase(inject("pgTemplate"), inject("pgPrefix"));
}

export interface TempDatabase {
  dir: string;
  file: string;
  /** The settings the file runs with: the temporary database (its URL set before the tests), no env file, plus the extra keys given. */
  env: Record<string, string>;
  /** Replace the extra settings (the database stays). */
  useSettings(extra: Record<string, string>): void;
}

/**
 * Test support for a test file that needs the database: a migrated database (SQLite file in a new temporary
 * folder, or a PostgreSQL copy in the PostgreSQL pass),
 * settings pointing at it for the whole file, and everything (client, settings, clock, folder) put back after.
 */
export function withTempDatabase(prefix: string, extra: Record<string, string> = {}): TempDatabase {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `dsa-${prefix}-`));
  const file = path.join(dir, "test.db");
  // No share image drawn in the background when a test stores a report: it would outlive the test file.
  const env = {
    ENV_FILE: path.join(dir, "missing.env"),
    DATABASE_URL: `file:${file}`,
    SHARE_IMAGE_PRERENDER: "false",
    ...extra,
  };
  beforeAll(async () => {
    env.DATABASE_URL = await freshDatabaseUrl(file);
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
