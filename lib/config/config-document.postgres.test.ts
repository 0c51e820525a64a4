import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Redis from "ioredis";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { disconnectDb } from "@/lib/db/client";
import { freshDatabaseUrl } from "@/tests/kits/db/temp-database";
import { ApiError } from "@/lib/errors/api-error";
import { logger } from "@/lib/log/logger";
import { closeRedisConnections, redisConnection, scopedChannel } from "@/lib/redis/connection";
import { dropTestNamespace, REDIS_TEST_URL, useTestNamespace } from "@/tests/kits/redis-test";
import { configChangedChannel, importEnvFileOnce, readConfigDocument, writeConfigDocument } from "./config-document";
import { ConfigDocumentSync, startConfigSync, stopConfigSync } from "./config-sync";
import { readConfigSnapshot, updateEnvFile } from "./env-store";
import { getSettings, installedConfigDocument, setEnvironmentForTests } from "@/lib/settings/settings";
import { exportSystemConfig, getSystemConfig, importSystemConfig, updateSystemConfig } from "./system-config";

// On PostgreSQL only (this file runs in the unit-pg project): the configuration as one row with a
// revision. Every test gets a database of its own (a copy of the run's migrated template) and an env file in
// a new folder; "replicas" are ConfigDocumentSync instances with caches of their own, on the same database.

const SECRET = "sk-live-TOPSECRET-42";
const START = [
  "# DSA settings (hand-written)\r",
  "LOG_LEVEL=info\r",
  `OPENAI_API_KEY=${SECRET} # rotated monthly\r`,
  "export STOCK_LIST='600519,AAPL'\r",
  "\r",
  "# 备注: not ours\r",
  'SOME_VENDOR_TOKEN="vt 999"\r',
  "PORT=4999\r",
  "",
].join("\n");

let dir: string;
let envFile: string;
let databaseUrl: string;
let env: Record<string, string>;
const syncs: ConfigDocumentSync[] = [];

function useEnv(extra: Record<string, string> = {}): void {
  env = { ENV_FILE: envFile, DATABASE_URL: databaseUrl, LOG_LEVEL: "silent", ADMIN_AUTH_ENABLED: "true", ...extra };
  setEnvironmentForTests(env);
}

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "dsa-config-document-"));
  envFile = path.join(dir, "dsa.env");
  await disconnectDb();
  databaseUrl = await freshDatabaseUrl(path.join(dir, "unused.db"));
  useEnv();
});

afterEach(async () => {
  for (const sync of syncs.splice(0)) sync.stop();
  stopConfigSync();
  vi.restoreAllMocks();
  closeRedisConnections();
  await disconnectDb();
  setEnvironmentForTests(process.env);
  fs.rmSync(dir, { recursive: true, force: true });
});

function replica(options: { pollMs?: number; redis?: boolean } = {}): ConfigDocumentSync {
  const sync = new ConfigDocumentSync({
    pollMs: options.pollMs ?? 1000,
    redis: options.redis ? redisConnection() : null,
    apply: () => {},
  });
  syncs.push(sync);
  return sync;
}

async function waitFor(check: () => boolean, timeoutMs: number): Promise<number> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return Date.now() - started;
}

const set = (updates: Record<string, string>, expectedVersion?: string) =>
  updateEnvFile({ expectedVersion }, () => ({ updates, result: null }));

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe("20 §3: first start imports the env file", () => {
  it("byte for byte, exactly once when 3 replicas start at once", async () => {
    fs.writeFileSync(envFile, START);
    const info = vi.spyOn(logger, "info");
    const starters = [replica(), replica(), replica()];
    await Promise.all(starters.map((s) => s.start()));
    const imports = info.mock.calls.filter((call) => String(call[1]).includes("imported"));
    expect(imports).toHaveLength(1);
    for (const s of starters) expect(s.current()).toMatchObject({ text: START, revision: 1 });
    const row = await readConfigDocument();
    expect(Buffer.from(row.text, "utf8").equals(fs.readFileSync(envFile))).toBe(true);
  });

  it("an existing row is never replaced by the env file again", async () => {
    fs.writeFileSync(envFile, "LOG_LEVEL=info\n");
    expect(await importEnvFileOnce()).toBe(true);
    await set({ LOG_LEVEL: "warn" });
    fs.writeFileSync(envFile, "LOG_LEVEL=debug\n");
    expect(await Promise.all([importEnvFileOnce(), importEnvFileOnce(), importEnvFileOnce()])).toEqual([
      false,
      false,
      false,
    ]);
    expect((await readConfigDocument()).text).toBe("LOG_LEVEL=warn\n");
  });

  it("without an env file the document starts empty", async () => {
    const snapshot = await readConfigSnapshot();
    expect(snapshot).toMatchObject({ store: "database", content: "", values: {} });
    expect(snapshot.version).toMatch(/^r1:[0-9a-f]{64}$/);
  });
});

describe("20 §3: versioned writes (spec 4.4: a stale config_version is 409)", () => {
  it("a stale revision gets 409 config_version_conflict with the current version, as the env file does", async () => {
    fs.writeFileSync(envFile, "A=1\n");
    const stale = (await readConfigSnapshot()).version;
    await set({ A: "2" }, stale);
    const current = (await readConfigSnapshot()).version;
    const error = await failure(set({ A: "3" }, stale));
    expect(error).toMatchObject({
      status: 409,
      code: "config_version_conflict",
      extra: { current_config_version: current },
    });
    expect((await readConfigDocument()).text).toBe("A=2\n");

    // The same through the config service (PUT /api/v1/system/config).
    const viaApi = await failure(
      updateSystemConfig({
        config_version: stale,
        mask_token: "******",
        reload_now: true,
        items: [{ key: "LOG_LEVEL", value: "warn" }],
      }),
    );
    expect(viaApi).toMatchObject({
      status: 409,
      code: "config_version_conflict",
      extra: { current_config_version: current },
    });
  });

  it("concurrent writers from the same revision: exactly one wins, the others get the conflict", async () => {
    fs.writeFileSync(envFile, "VALUE=0\n");
    const version = (await readConfigSnapshot()).version;
    const results = await Promise.allSettled([1, 2, 3, 4, 5].map((n) => set({ VALUE: String(n) }, version)));
    const winners = results.filter((r) => r.status === "fulfilled");
    const conflicts = results.filter(
      (r) => r.status === "rejected" && (r.reason as ApiError).code === "config_version_conflict",
    );
    expect(winners).toHaveLength(1);
    expect(conflicts).toHaveLength(4);
    const row = await readConfigDocument();
    expect(row.revision).toBe(2);
    expect(row.text).toMatch(/^VALUE=[1-5]\n$/);
  });

  it("the conditional UPDATE itself lets exactly one of several writers from one revision through", async () => {
    const { revision } = await readConfigDocument();
    const written = await Promise.all([1, 2, 3, 4, 5, 6].map((n) => writeConfigDocument(revision, `N=${n}\n`)));
    expect(written.filter((w) => w !== null)).toHaveLength(1);
    expect((await readConfigDocument()).revision).toBe(revision + 1);
  });

  it("writers without a version (watchlist, auth switch) retry and all land", async () => {
    await Promise.all(["A", "B", "C", "D", "E"].map((key) => set({ [key]: "1" })));
    const row = await readConfigDocument();
    expect(row.revision).toBe(6);
    expect(row.text).toMatch(/^(?=[\s\S]*A=1)(?=[\s\S]*B=1)(?=[\s\S]*C=1)(?=[\s\S]*D=1)(?=[\s\S]*E=1)/);
  });
});

describe("20 §3: replicas follow the document", () => {
  it("with Redis, a change on replica A reaches replica B within 2 s (poll off)", async () => {
    const namespace = useTestNamespace();
    try {
      useEnv({ REDIS_URL: REDIS_TEST_URL });
      const a = replica({ pollMs: 600_000, redis: true });
      const b = replica({ pollMs: 600_000, redis: true });
      await Promise.all([a.start(), b.start()]);
      await Promise.all([a.subscribed(), b.subscribed()]);
      await redisConnection()!.usableClient();
      const outcome = await set({ LOG_LEVEL: "warn" });
      const revision = Number(/^r(\d+):/.exec(outcome.after.version)?.[1]);
      const waited = await waitFor(() => b.current()?.revision === revision, 2000);
      expect(waited).toBeLessThan(2000);
      expect(b.current()?.text).toContain("LOG_LEVEL=warn");
      await waitFor(() => a.current()?.revision === revision, 2000);
    } finally {
      closeRedisConnections();
      await dropTestNamespace(namespace);
    }
  });

  it("without Redis, the 1 s revision poll alone brings the change within 2 s", async () => {
    const a = replica();
    const b = replica();
    await Promise.all([a.start(), b.start()]);
    const outcome = await set({ LOG_LEVEL: "error" });
    const revision = Number(/^r(\d+):/.exec(outcome.after.version)?.[1]);
    const waited = await waitFor(() => b.current()?.revision === revision, 2000);
    expect(waited).toBeLessThan(2000);
    expect(a.current()?.revision).toBeLessThanOrEqual(revision);
  });

  it("the writer's own settings change at once; another replica's write reaches getSettings() through the sync", async () => {
    fs.writeFileSync(envFile, "LOG_LEVEL=info\n");
    await startConfigSync();
    expect(getSettings().LOG_LEVEL).toBe("info");
    await set({ LOG_LEVEL: "debug" });
    expect(getSettings().LOG_LEVEL).toBe("debug"); // no wait: the writer installs its own write

    // Another replica writes the row directly (this process's settings do not know about it yet).
    const { revision, text } = await readConfigDocument();
    await writeConfigDocument(revision, text.replace("LOG_LEVEL=debug", "LOG_LEVEL=warn"));
    expect(getSettings().LOG_LEVEL).toBe("debug");
    await waitFor(() => getSettings().LOG_LEVEL === "warn", 5000);
    expect(getSystemConfig({ includeSchema: false }).config_version).toBe((await readConfigSnapshot()).version);
  });

  it("launch keys (PORT, DATABASE_URL, REDIS_URL) are never read from the row; other keys beat the environment", async () => {
    fs.writeFileSync(envFile, "PORT=4999\nLOG_LEVEL=info\n");
    useEnv({ LOG_LEVEL: "warn" });
    await startConfigSync();
    const { revision, text } = await readConfigDocument();
    await writeConfigDocument(
      revision,
      `${text}PORT=5111\nDATABASE_URL=file:/tmp/elsewhere.db\nREDIS_URL=redis://elsewhere:6379\nLOG_LEVEL=error\n`,
    );
    await waitFor(() => installedConfigDocument()?.revision === revision + 1, 5000);
    const settings = getSettings();
    expect(settings.LOG_LEVEL).toBe("error");
    expect(settings.PORT).toBe(4999); // the env file, not the row
    expect(settings.DATABASE_URL).toBe(databaseUrl);
    expect(settings.REDIS_URL).toBe("");
    stopConfigSync();
    useEnv({ PORT: "5055" });
    await startConfigSync();
    expect(getSettings().PORT).toBe(5055); // the process environment wins, as today
  });
});

describe("20 §3: export and import keep the env-file format byte for byte", () => {
  // The same edits against the env file store (SQLite install) and the config document (PostgreSQL).
  async function edits(): Promise<string> {
    const read = await readConfigSnapshot();
    const put = await updateSystemConfig({
      config_version: read.version,
      mask_token: "******",
      reload_now: true,
      items: [
        { key: "LOG_LEVEL", value: "warn" },
        { key: "OPENAI_API_KEY", value: "******" },
        { key: "STOCK_LIST", value: "600519,MSFT" },
        { key: "MY_PLUGIN_SETTING", value: "a # b 'c'" },
      ],
    });
    await importSystemConfig({
      config_version: put.config_version,
      content: 'LOG_LEVEL=error\nNEW_KEY="x y"\nSOME_VENDOR_TOKEN=vt-1000\n',
      reload_now: true,
    });
    return (await exportSystemConfig()).content;
  }

  it("after the same update and import, the export equals the env file's bytes", async () => {
    const sqliteFile = path.join(dir, "sqlite.env");
    fs.writeFileSync(sqliteFile, START);
    setEnvironmentForTests({
      ENV_FILE: sqliteFile,
      DATABASE_URL: `file:${path.join(dir, "never-opened.db")}`,
      LOG_LEVEL: "silent",
      ADMIN_AUTH_ENABLED: "true",
    });
    const fromFile = await edits();
    expect(fromFile).toBe(fs.readFileSync(sqliteFile, "utf8"));

    fs.writeFileSync(envFile, START);
    useEnv();
    const fromRow = await edits();
    expect((await readConfigSnapshot()).store).toBe("database");
    expect(Buffer.from(fromRow, "utf8").equals(fs.readFileSync(sqliteFile))).toBe(true);
    expect(fs.readFileSync(envFile, "utf8")).toBe(START); // the env file itself is left alone
  });
});

describe("20 §3: secrets stay out of logs and Redis messages", () => {
  it("import, writes, replica refreshes and a refused revision log no value; Redis carries the revision only", async () => {
    const namespace = useTestNamespace();
    const listener = new Redis(REDIS_TEST_URL);
    try {
      const logged: unknown[] = [];
      for (const level of ["trace", "debug", "info", "warn", "error", "fatal"] as const) {
        vi.spyOn(logger, level).mockImplementation(((...args: unknown[]) => void logged.push(args)) as never);
      }
      const consoled: unknown[] = [];
      for (const method of ["log", "info", "warn", "error"] as const)
        vi.spyOn(console, method).mockImplementation((...args) => void consoled.push(args));
      const messages: string[] = [];
      await listener.subscribe(scopedChannel(configChangedChannel(), listener.options.db ?? 0));
      listener.on("message", (_channel: string, message: string) => messages.push(message));

      fs.writeFileSync(envFile, START);
      useEnv({ REDIS_URL: REDIS_TEST_URL });
      await redisConnection()!.usableClient();
      const b = replica({ redis: true });
      await b.start();
      await startConfigSync();
      await set({ OPENAI_API_KEY: `${SECRET}-2`, LOG_LEVEL: "debug" });
      // A revision whose settings do not parse (written behind the service's back) is refused, and logged.
      const { revision, text } = await readConfigDocument();
      await writeConfigDocument(revision, `${text}LOG_LEVEL=${SECRET}\n`);
      await waitFor(() => b.current()?.revision === revision + 1, 2000);
      await waitFor(() => logged.some((args) => JSON.stringify(args).includes("does not parse")), 3000);
      expect(getSettings().LOG_LEVEL).toBe("debug");
      await waitFor(() => messages.length > 0, 2000);

      const everything = JSON.stringify([logged, consoled]);
      expect(everything).toContain("imported");
      expect(everything).not.toContain(SECRET);
      expect(messages.every((m) => /^\d+$/.test(m))).toBe(true);
    } finally {
      listener.disconnect();
      closeRedisConnections();
      await dropTestNamespace(namespace);
    }
  });
});
