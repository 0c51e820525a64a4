import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { getSettings } from "@/lib/settings/settings";
import { databaseFilePath, databaseKind, redactedDatabaseUrl, resolveDatabaseUrl } from "@/lib/db/database-url";
import { pendingMigrations, prepareOwnerOnlyDatabase } from "@/lib/db/migration-state";
import { migratePostgres } from "@/lib/db/postgres-migrate";
import { projectRoot } from "@/lib/project-root";

const root = projectRoot(import.meta.dirname);
const bin = (name: string) => path.join(root, "node_modules", ".bin", name);

/**
 * Applies the migrations to the configured database; returns the absolute database URL. SQLite: when the
 * schema is already current (another process may be serving from the file) nothing is run: `migrate deploy`
 * wants the file to itself and would time out. PostgreSQL: prisma/postgres/migrations under an advisory
 * lock, so replicas starting together apply each migration once.
 */
export async function migrateDatabase(): Promise<string> {
  const url = resolveDatabaseUrl(getSettings().DATABASE_URL);
  if (databaseKind(url) === "postgres") {
    const applied = await migratePostgres(url);
    console.log(
      `PostgreSQL ${redactedDatabaseUrl(url)}: ${applied.length > 0 ? `applied ${applied.join(", ")}` : "schema up to date"}`,
    );
    return url;
  }
  const file = databaseFilePath(url);
  if (file === ":memory:") return url;
  prepareOwnerOnlyDatabase(file);
  if (pendingMigrations(file).length > 0) {
    const result = spawnSync(bin("prisma"), ["migrate", "deploy"], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: url, PRISMA_HIDE_UPDATE_MESSAGE: "1" },
      stdio: ["ignore", "inherit", "inherit"],
    });
    if (result.status !== 0) throw new Error(`prisma migrate deploy failed (exit ${result.status ?? result.signal})`);
  }
  // WAL is a property of the database file: set once here so every later connection reads beside writers.
  const sqlite = new Database(file);
  sqlite.pragma("busy_timeout = 10000");
  if (sqlite.pragma("journal_mode", { simple: true }) !== "wal") sqlite.pragma("journal_mode = WAL");
  sqlite.close();
  return url;
}

/**
 * Runs Next (production or dev) behind scripts/http-server.ts on PORT/HOSTNAME and forwards stop signals
 * so it shuts down cleanly. Production runs the build's bundle of it on plain Node (scripts/build-server.mjs);
 * dev runs the source through tsx.
 */
export function serve(mode: "production" | "dev", databaseUrl: string): void {
  const bundle = path.join(root, process.env.NEXT_DIST_DIR || ".next", "dsa-server", "http-server.mjs");
  if (mode === "production" && !fs.existsSync(bundle))
    throw new Error(`No server build at ${bundle}: run \`npm run build\` first`);
  const [command, args] =
    mode === "dev" ? [bin("tsx"), ["scripts/http-server.ts", "--dev"]] : [process.execPath, [bundle]];
  const child = spawn(command, args, {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      NEXT_TELEMETRY_DISABLED: "1",
      NODE_ENV: mode === "dev" ? "development" : "production",
    },
    stdio: "inherit",
  });
  for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) {
    process.on(signal, () => child.kill(signal));
  }
  child.on("exit", (code, signal) => {
    process.exit(code ?? (signal === "SIGTERM" || signal === "SIGINT" ? 0 : 1));
  });
}
