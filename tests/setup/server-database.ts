import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { databaseFilePath, databaseKind, type DatabaseKind } from "@/lib/db/database-url";
import { placeholders } from "@/lib/db/raw-sql";
import { dataDirDatabaseUrl } from "../../scripts/server-process";
import type { TestServer } from "./api-server";

/**
 * A test server's database, read and written beside the service, the same on both databases: SQL with `?`
 * placeholders, rows as SQLite gives them (timestamps as ISO text, booleans as 1/0, counts as numbers), so
 * one test asserts the same values in the SQLite and the PostgreSQL pass.
 */
export interface ServerDatabase {
  kind: DatabaseKind;
  all<T = Record<string, unknown>>(sql: string, ...params: unknown[]): Promise<T[]>;
  get<T = Record<string, unknown>>(sql: string, ...params: unknown[]): Promise<T | undefined>;
  /** Rows changed. */
  run(sql: string, ...params: unknown[]): Promise<number>;
  close(): Promise<void>;
}

const OID = { bool: 16, int8: 20, numeric: 1700, timestamp: 1114, timestamptz: 1184 } as const;

// Timestamps without zone hold UTC (Prisma writes them so); pg would read them as local time.
const PARSERS: Record<number, (text: string) => unknown> = {
  [OID.bool]: (text) => (text === "t" ? 1 : 0),
  [OID.int8]: Number,
  [OID.numeric]: Number,
  [OID.timestamp]: (text) => new Date(`${text.replace(" ", "T")}Z`).toISOString(),
  [OID.timestamptz]: (text) => new Date(text).toISOString(),
};

export async function openServerDatabase(server: Pick<TestServer, "databaseUrl">): Promise<ServerDatabase> {
  const kind = databaseKind(server.databaseUrl);
  if (kind === "sqlite") {
    const sqlite = new Database(databaseFilePath(server.databaseUrl));
    sqlite.pragma("busy_timeout = 5000");
    // better-sqlite3 binds no booleans or Dates; the service stores them as 1/0 and ISO text.
    const bind = (params: unknown[]) =>
      params.map((p) => (typeof p === "boolean" ? (p ? 1 : 0) : p instanceof Date ? p.toISOString() : p));
    return {
      kind,
      all: async <T>(sql: string, ...params: unknown[]) => sqlite.prepare(sql).all(...bind(params)) as T[],
      get: async <T>(sql: string, ...params: unknown[]) => sqlite.prepare(sql).get(...bind(params)) as T | undefined,
      run: async (sql, ...params) => sqlite.prepare(sql).run(...bind(params)).changes,
      close: async () => void sqlite.close(),
    };
  }
  const client = new pg.Client({
    connectionString: server.databaseUrl,
    types: {
      getTypeParser: ((oid: number, format?: string) =>
        PARSERS[oid] ?? pg.types.getTypeParser(oid, format as "text")) as typeof pg.types.getTypeParser,
    },
  });
  await client.connect();
  const query = (sql: string, params: unknown[]) => client.query(placeholders(sql, "postgres"), params);
  return {
    kind,
    all: async <T>(sql: string, ...params: unknown[]) => (await query(sql, params)).rows as T[],
    get: async <T>(sql: string, ...params: unknown[]) => (await query(sql, params)).rows[0] as T | undefined,
    run: async (sql, ...params) => (await query(sql, params)).rowCount ?? 0,
    close: () => client.end(),
  };
}

/** The API suite's shared server (the global setups provide only its baseUrl and dataDir) as the helpers here take it. */
export function sharedTestServer(dataDir: string): Pick<TestServer, "databaseUrl" | "dataDir"> {
  return { databaseUrl: dataDirDatabaseUrl(dataDir), dataDir };
}

/**
 * The server's live configuration text: the env file on SQLite, the config document row on PostgreSQL (where the
 * env file is only imported on the first start).
 */
export async function readLiveConfig(server: Pick<TestServer, "databaseUrl" | "dataDir">): Promise<string> {
  if (databaseKind(server.databaseUrl) === "sqlite") return fs.readFileSync(path.join(server.dataDir, ".env"), "utf8");
  const database = await openServerDatabase(server);
  try {
    return (await database.get<{ text: string }>("SELECT text FROM config_document ORDER BY id LIMIT 1"))?.text ?? "";
  } finally {
    await database.close();
  }
}

/** Replaces the live configuration text outside the service (an operator's edit), as the server would see it. */
export async function writeLiveConfig(
  server: Pick<TestServer, "databaseUrl" | "dataDir">,
  text: string,
): Promise<void> {
  if (databaseKind(server.databaseUrl) === "sqlite") return fs.writeFileSync(path.join(server.dataDir, ".env"), text);
  const database = await openServerDatabase(server);
  try {
    await database.run(
      "UPDATE config_document SET text = ?, revision = revision + 1, updated_at = ?",
      text,
      new Date(),
    );
  } finally {
    await database.close();
  }
}

/** Every byte the database holds as text, to search for what must never be stored (a password, a secret). */
export async function databaseText(server: Pick<TestServer, "databaseUrl">): Promise<string> {
  if (databaseKind(server.databaseUrl) === "sqlite") {
    const file = databaseFilePath(server.databaseUrl);
    const wal = `${file}-wal`;
    return (
      fs.readFileSync(file).toString("latin1") + (fs.existsSync(wal) ? fs.readFileSync(wal).toString("latin1") : "")
    );
  }
  const database = await openServerDatabase(server);
  try {
    const tables = await database.all<{ name: string }>(
      "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public'",
    );
    const parts: string[] = [];
    for (const { name } of tables)
      for (const row of await database.all<{ t: string }>(`SELECT t::text AS t FROM "${name}" t`)) parts.push(row.t);
    return parts.join("\n");
  } finally {
    await database.close();
  }
}
