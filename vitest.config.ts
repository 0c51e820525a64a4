import fs from "node:fs";
import path from "node:path";
import { defineConfig } from "vitest/config";

// The suite's passes (scripts/run-tests.mjs runs them and skips those whose service does not answer):
// - unit: plain Node, SQLite files where a test needs a database; needs no service. Its files run one after another
//   in one process without isolation (a fresh module graph per file cost 6 of the pass's 6.3 CPU-minutes); the order
//   is fixed (by file size on a clean clone), so a file that leaves state behind fails the same way every run. Files
//   that replace modules with vi.mock run isolated (unit-isolated): a module another file loaded first would
//   otherwise stay unmocked.
// - unit-redis: unit files that talk to a real Redis (they use tests/kits/redis-test.ts).
// - unit-pg: every unit file that opens a database through the test helpers (withTempDatabase,
//   freshDatabaseUrl), again on PostgreSQL, plus `*.postgres.test.ts`; `*.sqlite.test.ts` files test SQLite
//   itself and stay in the SQLite passes. Some of these files use Redis too.
// - api: the HTTP suite against the real built server on SQLite.
// - api-pg: the API files whose behaviour depends on the database dialect (they say so in a line starting
//   `// Both databases:`), on PostgreSQL. HTTP shapes do not depend on it and run once, in `api`.
// - replica: two replicas on one PostgreSQL database and a redis-server of the test's own.
function testFiles(dirs: string[], wanted: (text: string, file: string) => boolean): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (entry.name.endsWith(".test.ts") && wanted(fs.readFileSync(file, "utf8"), file)) found.push(file);
    }
  };
  for (const dir of dirs) walk(dir);
  return found.sort();
}

const UNIT_DIRS = ["lib", "scripts", "bench"];
const usesRedis = (text: string) => /kits\/redis-test"/.test(text);
const usesDatabase = (text: string) => /\b(withTempDatabase|freshDatabaseUrl)\(/.test(text);
const mocksModules = (text: string) => text.includes("vi.mock(");
const isPostgresOnly = (file: string) => file.endsWith(".postgres.test.ts");
const isSqliteOnly = (file: string) => file.endsWith(".sqlite.test.ts");

const unitFiles = testFiles(
  UNIT_DIRS,
  (text, file) => !usesRedis(text) && !isPostgresOnly(file) && !mocksModules(text),
);
const unitIsolatedFiles = testFiles(
  UNIT_DIRS,
  (text, file) => !usesRedis(text) && !isPostgresOnly(file) && mocksModules(text),
);
const unitRedisFiles = testFiles(UNIT_DIRS, (text, file) => usesRedis(text) && !isPostgresOnly(file));
const unitPgFiles = testFiles(
  UNIT_DIRS,
  (text, file) => isPostgresOnly(file) || (usesDatabase(text) && !isSqliteOnly(file)),
);
const apiPgFiles = testFiles(
  ["tests/api"],
  (text, file) => /^\/\/ Both databases: /m.test(text) && !isSqliteOnly(file),
);

// One name prefix for this run's PostgreSQL databases, set here in the main process so the workers, the
// servers they start and the global teardown that drops them agree.
process.env.DSA_TEST_PG_PREFIX ??= `dsa_test_${process.pid}_${Date.now().toString(36)}`;
const postgres = { DSA_TEST_DATABASE: "postgres", DSA_TEST_PG_PREFIX: process.env.DSA_TEST_PG_PREFIX };

const unit = { environment: "node" as const, setupFiles: ["./tests/setup/unit.ts"] };
// Two API files at a time even on two cores (Vitest's default there is one): a file mostly waits on its servers
// (starts, sample latency, polls), so one file's start overlaps another's requests.
const api = { environment: "node" as const, testTimeout: 30_000, hookTimeout: 120_000, maxWorkers: 2 };

export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: unitFiles,
          ...unit,
          isolate: false,
          maxWorkers: 1,
          env: { LOG_LEVEL: "silent" },
        },
      },
      {
        extends: true,
        test: { name: "unit-isolated", include: unitIsolatedFiles, ...unit, env: { LOG_LEVEL: "silent" } },
      },
      { extends: true, test: { name: "unit-redis", include: unitRedisFiles, ...unit, env: { LOG_LEVEL: "silent" } } },
      {
        extends: true,
        test: {
          name: "unit-pg",
          include: unitPgFiles,
          ...unit,
          maxWorkers: 2,
          globalSetup: ["./tests/setup/postgres.ts"],
          env: { LOG_LEVEL: "silent", ...postgres },
        },
      },
      {
        extends: true,
        test: {
          name: "api",
          include: ["tests/api/**/*.test.ts"],
          ...api,
          globalSetup: ["./tests/setup/api-server.ts"],
        },
      },
      {
        extends: true,
        test: {
          name: "api-pg",
          include: apiPgFiles,
          ...api,
          globalSetup: ["./tests/setup/api-server-postgres.ts"],
          env: postgres,
        },
      },
      {
        extends: true,
        // Each file starts its own servers, so the waits (lease expiry, server starts) need long timeouts.
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
