import Database from "better-sqlite3";

// Issue 23 §2: the reads every cached answer starts with (history_version, the share card's stamp) are one row by
// primary key, yet through Prisma each costs its query compiler, its driver adapter, a fresh prepare and the
// SQLite gate's queue: a profile of GET /api/v1/history under load put ~200 µs of CPU per request there, for a
// read SQLite does in a few microseconds. On SQLite these reads go through a second connection of the process's
// own, with each statement prepared once. It sees what is committed (WAL: a reader never waits for the writer),
// which is what those reads want: a transaction that changes history raises the version in the same commit, so
// the old version is read until the new rows are there to read.

const MAX_STATEMENTS = 32;

export interface DirectReader {
  /** The first row of `sql` (SQLite's `?` placeholders), or undefined. */
  one<T>(sql: string, params?: readonly unknown[]): T | undefined;
  close(): void;
}

export function openDirectReader(file: string, busyTimeoutMs: number): DirectReader {
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
