import fs from "node:fs";
import path from "node:path";
import { defineConfig } from "vitest/config";

// The PostgreSQL pass (issue 20 §1) re-runs every unit test file that opens a database through the test
// helpers (withTempDatabase, freshDatabaseUrl) on a fresh PostgreSQL database; files that never touch the
// database would only repeat themselves. `*.sqlite.test.ts` files test SQLite itself (its migrations, its
// write lock) and run in the SQLite pass only.
function databaseTestFiles(): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (entry.name.endsWith(".test.ts") && !entry.name.endsWith(".sqlite.test.ts") && /\b(withTempDatabase|freshDatabaseUrl)\(/.test(fs.readFileSync(file, "utf8"))) found.push(file);
    }
  };
  walk("lib");
  walk("scripts");
  return found.sort();
}

const unit = { environment: "node" as const, setupFiles: ["./tests/setup/unit.ts"] };

export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    projects: [
      {
        extends: true,
        test: { name: "unit", include: ["lib/**/*.test.ts", "scripts/**/*.test.ts"], ...unit, env: { LOG_LEVEL: "silent" } },
      },
      {
        extends: true,
        test: {
          name: "unit-pg",
          include: databaseTestFiles(),
          ...unit,
          globalSetup: ["./tests/setup/postgres.ts"],
          env: { LOG_LEVEL: "silent", DSA_TEST_DATABASE: "postgres" },
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
    ],
  },
});
