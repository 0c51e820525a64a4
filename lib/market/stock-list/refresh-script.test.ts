import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyMigrations } from "@/tests/kits/db/apply-migrations";

// scripts/stocks-refresh.ts run as `npm run stocks:refresh` would run it (tsx, a child process), with
// DATABASE_URL pointing at a temporary file and the network blocked: fetch is replaced before the script
// loads by a preload module that fails every request like a refused connection.
const root = process.cwd();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dsa-stocks-refresh-"));
const migrated = path.join(dir, "migrated.db");
const blocker = path.join(dir, "block-fetch.mjs");

beforeAll(() => {
  applyMigrations(migrated);
  const sqlite = new Database(migrated);
  sqlite
    .prepare(
      `INSERT INTO stock_listing (market, code, name_zh, kind, exchange, source, updated_at) VALUES ('cn', '600107', '美尔雅', 'stock', 'SH', 'eastmoney', '2026-11-20T08:00:00.000+00:00')`,
    )
    .run();
  sqlite.close();
  fs.writeFileSync(
    blocker,
    'globalThis.fetch = async () => { throw new TypeError("fetch failed (blocked by test)"); };\n',
  );
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function runScript(databaseFile: string): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(
    path.join(root, "node_modules/.bin/tsx"),
    ["--import", blocker, "scripts/stocks-refresh.ts"],
    {
      cwd: root,
      encoding: "utf8",
      timeout: 60_000,
      env: {
        NODE_ENV: "test",
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        ENV_FILE: path.join(dir, "missing.env"),
        DATABASE_URL: `file:${databaseFile}`,
        MARKET_DATA_TIMEOUT_MS: "2000",
        LOG_LEVEL: "silent",
      },
    },
  );
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe("npm run stocks:refresh (child process)", () => {
  it("offline → exit 1 with a clear message; the stored listings are untouched", () => {
    const run = runScript(migrated);
    expect(run.status, run.stderr).toBe(1);
    expect(run.stderr).toMatch(/could not reach Eastmoney .* offline or the host is blocked/);
    expect(run.stderr).toMatch(/No listing was changed/);
    expect(run.stdout).toMatch(
      /cn: FAILED: 0 of 0 listings written, 1 in the table — page 1: network error: fetch failed/,
    );
    expect(run.stdout).toMatch(/hk: FAILED/);
    expect(run.stdout).toMatch(/us: FAILED/);
    const sqlite = new Database(migrated, { readonly: true });
    try {
      expect(sqlite.prepare("SELECT market, code, name_zh FROM stock_listing").all()).toEqual([
        { market: "cn", code: "600107", name_zh: "美尔雅" },
      ]);
    } finally {
      sqlite.close();
    }
  }, 90_000);

  it("a database without the stock_listing table → exit 2, telling to run db:migrate", () => {
    const run = runScript(path.join(dir, "fresh.db"));
    expect(run.status, run.stderr).toBe(2);
    expect(run.stderr).toMatch(/has no stock_listing table; run `npm run db:migrate` first/);
  }, 90_000);
});
