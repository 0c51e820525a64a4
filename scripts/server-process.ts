import { execFile, spawn, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";

// Starting the real built service in a child process, as `npm start` runs it, for API tests and benchmarks.

export const ROOT = path.resolve(import.meta.dirname, "..");

export interface ServerProcess {
  baseUrl: string;
  dataDir: string;
  /** The DATABASE_URL the server runs on (a SQLite file in dataDir, or a PostgreSQL database). */
  databaseUrl: string;
  /** The launcher's pid; it leads a process group that holds the Next server too. */
  pid: number;
  stop(): Promise<void>;
  /** kill -9 of the whole process tree (launcher and Next server), as a crash or power loss would. */
  kill(): Promise<void>;
}

export interface ServiceProcessOptions {
  /** Reuse a data folder (database, env file) of an earlier server: a restart instead of a fresh install. */
  dataDir?: string;
  /** The database kind; default DSA_TEST_DATABASE's (the suites' PostgreSQL pass), else SQLite. */
  database?: "sqlite" | "postgres";
}

/**
 * The server's database: a SQLite file in the data folder, or (PostgreSQL) a database of its own, created here
 * and named in the data folder so a restart on the same folder finds it again. A new server's database starts
 * as a copy of a migrated template when there is one (the launcher then finds nothing to apply); otherwise the
 * launcher migrates it, as `npm start` would. PostgreSQL test databases share a prefix the test run drops at its end.
 */
async function serverDatabaseUrl(dataDir: string, kind: "sqlite" | "postgres"): Promise<string> {
  const existing = dataDirDatabaseUrl(dataDir);
  if (existing.startsWith("postgres")) return existing;
  if (kind === "sqlite") {
    const file = path.join(dataDir, SQLITE_FILE);
    if (!fs.existsSync(file)) fs.copyFileSync(await migratedSqliteTemplate(), file);
    return existing;
  }
  const { copyTemplateDatabase, createEmptyDatabase, databaseExists, testDatabasePrefix } = await import(
    "@/tests/kits/db/postgres-test-databases"
  );
  const prefix = testDatabasePrefix();
  const template = `${prefix}_server`;
  const url = (await databaseExists(template))
    ? await copyTemplateDatabase(template, prefix)
    : await createEmptyDatabase(`${prefix}_srv_${process.pid}_${Math.random().toString(36).slice(2, 8)}`);
  fs.writeFileSync(path.join(dataDir, POSTGRES_MARKER), url);
  return url;
}

const SQLITE_FILE = "api.db";

/**
 * A SQLite file migrated by `npm run db:migrate` (the launcher's own code), made once per set of migrations and
 * kept in the temporary folder: copying it is far cheaper than a start running the Prisma CLI on an empty file.
 */
async function migratedSqliteTemplate(): Promise<string> {
  const migrations = path.join(ROOT, "prisma", "migrations");
  const hash = createHash("sha256");
  for (const name of fs.readdirSync(migrations).sort()) {
    const sql = path.join(migrations, name, "migration.sql");
    if (fs.existsSync(sql)) hash.update(name).update(fs.readFileSync(sql));
  }
  const template = path.join(os.tmpdir(), `dsa-sqlite-template-${hash.digest("hex").slice(0, 16)}.db`);
  if (fs.existsSync(template)) return template;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dsa-sqlite-template-"));
  try {
    const file = path.join(dir, "template.db");
    await promisify(execFile)(path.join(ROOT, "node_modules", ".bin", "tsx"), ["scripts/migrate.ts"], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: `file:${file}`, ENV_FILE: path.join(dir, "missing.env"), LOG_LEVEL: "warn" },
    });
    // Whole or not at all: several test workers may make it at once, and each rename replaces it with a complete file.
    fs.renameSync(file, template);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return template;
}

const POSTGRES_MARKER = "postgres-url";

/** The database a server on this data folder uses: the PostgreSQL database named in the folder, else the folder's SQLite file. */
export function dataDirDatabaseUrl(dataDir: string): string {
  const marker = path.join(dataDir, POSTGRES_MARKER);
  return fs.existsSync(marker) ? fs.readFileSync(marker, "utf8").trim() : `file:${path.join(dataDir, SQLITE_FILE)}`;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export async function waitForUrl(
  url: string,
  child: ChildProcess,
  log: () => string = () => "",
  timeoutMs = 90_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${url}: process exited early (${child.exitCode}):\n${log()}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms:\n${log()}`);
}

export function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

/**
 * The built service (migrations, then next start) on a free port with a throw-away database and env file
 * in a new data folder; its output goes to <dataDir>/server.log.
 */
export async function startServiceProcess(
  extraEnv: Record<string, string> = {},
  options: ServiceProcessOptions = {},
): Promise<ServerProcess> {
  const distDir = process.env.NEXT_DIST_DIR || ".next";
  if (
    !fs.existsSync(path.join(ROOT, distDir, "BUILD_ID")) ||
    !fs.existsSync(path.join(ROOT, distDir, "dsa-server", "start.mjs"))
  ) {
    throw new Error(`No production build in ${distDir}: run \`npm run build\` first (npm test does it for you)`);
  }
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), "dsa-srv-"));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const databaseUrl =
    extraEnv.DATABASE_URL ??
    (await serverDatabaseUrl(
      dataDir,
      options.database ?? (process.env.DSA_TEST_DATABASE === "postgres" ? "postgres" : "sqlite"),
    ));
  const child = spawn(process.execPath, ["scripts/start.mjs"], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOSTNAME: "127.0.0.1",
      DATABASE_URL: databaseUrl,
      ENV_FILE: path.join(dataDir, ".env"),
      LOG_LEVEL: "info",
      NEXT_TELEMETRY_DISABLED: "1",
      ...extraEnv,
    },
    stdio: ["ignore", "pipe", "pipe"],
    // Its own process group, so kill() reaches the Next server the launcher started, not only the launcher.
    detached: true,
  });
  let recent = "";
  const sink = fs.createWriteStream(path.join(dataDir, "server.log"), { flags: "a" });
  const keep = (chunk: Buffer) => {
    sink.write(chunk);
    recent = (recent + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  // 'close' comes after 'exit', once the output pipes have been read to their end: a test reading server.log right
  // after stop() must find the last lines the server wrote (its log is written in batches). Bounded, in case a
  // process the server started outlives it still holding the pipes.
  const outputClosed = new Promise<void>((resolve) => child.once("close", () => resolve()));
  const finishLog = async () => {
    await Promise.race([outputClosed, new Promise((resolve) => setTimeout(resolve, 5_000).unref())]);
    // A process that outlived the server may still write: nothing more goes to the ended log.
    child.stdout?.off("data", keep);
    child.stderr?.off("data", keep);
    child.stdout?.destroy();
    child.stderr?.destroy();
    await new Promise<void>((resolve) => sink.end(() => resolve()));
  };
  await waitForUrl(`${baseUrl}/api/v1/health`, child, () => recent);
  return {
    baseUrl,
    dataDir,
    databaseUrl,
    pid: child.pid!,
    stop: async () => {
      await stopChild(child);
      await finishLog();
    },
    kill: async () => {
      const exited = new Promise<void>((resolve) =>
        child.exitCode !== null || child.signalCode !== null ? resolve() : child.once("exit", () => resolve()),
      );
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        // the group is already gone
      }
      await exited;
      await finishLog();
    },
  };
}
