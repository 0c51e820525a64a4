import fs from "node:fs";
import path from "node:path";
import { defineConfig } from "vitest/config";

// The PostgreSQL pass (issue 20 §1) re-runs on PostgreSQL every unit test file that opens a database through
// the test helpers (withTempDatabase, freshDatabaseUrl), and every API test file, each server on a database of
// its own; unit files that never touch the database would only repeat themselves. `*.sqlite.test.ts` files
// test SQLite itself (its migrations, its write lock, its file) and run in the SQLite pass only; API files
// still reading the server's SQLite file directly (better-sqlite3) are left to the SQLite pass until they use
// tests/setup/server-database.ts.
function testFiles(dirs: string[], wanted: (text: string) => boolean): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (entry.name.endsWith(".test.ts") && !entry.name.endsWith(".sqlite.test.ts") && wanted(fs.readFileSync(file, "utf8"))) found.push(file);
    }
  };
  for (const dir of dirs) walk(dir);
  return found.sort();
}

// One name prefix for this run's PostgreSQL databases, set here in the main process so the workers, the
// servers they start and the global teardown that drops them agree.
process.env.DSA_TEST_PG_PREFIX ??= `dsa_test_${process.pid}_${Date.now().toString(36)}`;
const postgres = { DSA_TEST_DATABASE: "postgres", DSA_TEST_PG_PREFIX: process.env.DSA_TEST_PG_PREFIX };

const unit = { environment: "node" as const, setupFiles: ["./tests/setup/unit.ts"] };

export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    projects: [
      {
        extends: true,
        test: { name: "unit", include: ["lib/**/*.test.ts", "scripts/**/*.test.ts", "bench/**/*.test.ts"], exclude: ["**/*.postgres.test.ts", "**/node_modules/**"], ...unit, env: { LOG_LEVEL: "silent" } },
      },
      {
        extends: true,
        test: {
          name: "unit-pg",
          include: [...testFiles(["lib", "scripts"], (text) => /\b(withTempDatabase|freshDatabaseUrl)\(/.test(text)), "lib/**/*.postgres.test.ts"],
          ...unit,
          globalSetup: ["./tests/setup/postgres.ts"],
          env: { LOG_LEVEL: "silent", ...postgres },
        },
      },
      {
        extends: true,
        test: {
          name: "api",
          include: ["tests/api/**/*.test.ts"],
          environment: "node",
          globalSetup: ["./tests/setup/api-server.ts"],
          testTimeout: 30_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          name: "api-pg",
          include: testFiles(["tests/api"], (text) => !text.includes("better-sqlite3")),
          environment: "node",
          globalSetup: ["./tests/setup/api-server-postgres.ts"],
          testTimeout: 30_000,
          hookTimeout: 120_000,
          env: postgres,
        },
      },
      {
        extends: true,
        // Issue 20 §5: two replicas on one PostgreSQL database and a Redis of their own, behind a proxy; each
        // file starts its own servers, so the waits (lease expiry, server starts) need long timeouts.
        test: {
          name: "replica",
          include: ["tests/replica/**/*.test.ts"],
          environment: "node",
          testTimeout: 240_000,
          hookTimeout: 240_000,
          env: postgres,
        },
      },
    ],
  },
});
