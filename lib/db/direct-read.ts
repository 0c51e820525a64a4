import Database from "better-sqlite3";
import pg from "pg";
import type { Soon } from "@/lib/soon";
import { placeholders } from "./raw-sql";

// The reads every cached answer or signed-in request starts with (history_version, the share card's
// stamp, the admin session, the API token) are one row by key, yet through Prisma each costs its query compiler, its
// driver adapter, a fresh prepare and, on SQLite, the gate's queue: a profile of GET /api/v1/history under load put
// ~200 µs of CPU per request there, for a read SQLite does in a few microseconds. These reads go around Prisma: on
// SQLite through a second connection of the process's own, each statement prepared once; on PostgreSQL through the
// pool Prisma's adapter uses (a query on a pool connection, outside any transaction). Both see what is committed (on
// SQLite in WAL mode a reader never waits for the writer), which is what those reads want: a transaction that changes
// history raises the version in the same commit, so the old version is read until the new rows are there to read.

const MAX_STATEMENTS = 32;

export interface DirectReader {
  /**
   * The first row of `sql` (written with SQLite's `?` placeholders), or undefined: at once on SQLite (its driver
   * reads synchronously), as a promise on PostgreSQL.
   */
  one<T>(sql: string, params?: readonly unknown[]): Soon<T | undefined>;
  close(): void;
}

export function openSqliteReader(file: string, busyTimeoutMs: number): DirectReader {
  const connection = new Database(file, { fileMustExist: true, timeout: busyTimeoutMs });
  const statements = new Map<string, Database.Statement>();
  return {
    one<T>(sql: string, params: readonly unknown[] = []): T | undefined {
      let statement = statements.get(sql);
      if (!statement) {
        if (statements.size >= MAX_STATEMENTS) statements.clear(); // only a handful of shapes are ever read
        statement = connection.prepare(sql);
        statements.set(sql, statement);
      }
      return statement.get(...params) as T | undefined;
    },
    close: () => connection.close(),
  };
}

// Prisma keeps a DateTime in a PostgreSQL `timestamp` (without time zone) as UTC; pg's own parser of that type reads
// it in the process's local zone, which moved every stored time by the zone's offset in a service not run in UTC.
const TIMESTAMP_OID = 1114;
const UTC_TIMESTAMPS = {
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    oid === TIMESTAMP_OID
      ? (value: string) => new Date(`${value.replace(" ", "T")}Z`)
      : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/** Reads on the pool the Prisma client's adapter owns (it ends the pool when the client disconnects). */
export function poolReader(pool: pg.Pool): DirectReader {
  const numbered = new Map<string, string>(); // each statement's `$1, $2, …` text, made once
  return {
    async one<T>(sql: string, params: readonly unknown[] = []): Promise<T | undefined> {
      let text = numbered.get(sql);
      if (text === undefined) {
        if (numbered.size >= MAX_STATEMENTS) numbered.clear();
        text = placeholders(sql, "postgres");
        numbered.set(sql, text);
      }
      const result = await pool.query({ text, values: params as unknown[], types: UTC_TIMESTAMPS });
      return result.rows[0] as T | undefined;
    },
    close: () => undefined,
  };
}
