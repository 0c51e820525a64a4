import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { MIGRATIONS_DIR, pendingMigrations, prepareOwnerOnlyDatabase } from "./migration-state";

const names = fs
  .readdirSync(MIGRATIONS_DIR)
  .filter((n) => /^\d{14}_/.test(n))
  .sort();
const checksum = (name: string) =>
  createHash("sha256")
    .update(fs.readFileSync(path.join(MIGRATIONS_DIR, name, "migration.sql")))
    .digest("hex");

function ledger(file: string, rows: { name: string; checksum: string }[]): void {
  const sqlite = new Database(file);
  sqlite.exec(
    "CREATE TABLE _prisma_migrations (id TEXT PRIMARY KEY, checksum TEXT NOT NULL, finished_at DATETIME, migration_name TEXT NOT NULL, logs TEXT, rolled_back_at DATETIME, started_at DATETIME NOT NULL DEFAULT current_timestamp, applied_steps_count INTEGER NOT NULL DEFAULT 0)",
  );
  const insert = sqlite.prepare(
    "INSERT INTO _prisma_migrations (id, checksum, finished_at, migration_name) VALUES (?, ?, current_timestamp, ?)",
  );
  for (const row of rows) insert.run(row.name, row.checksum, row.name);
  sqlite.close();
}

describe("start-up migration on a database in use", () => {
  it("a fresh or empty file needs every migration; a current ledger needs none; a changed or missing one is pending", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dsa-migration-state-"));
    expect(pendingMigrations(path.join(dir, "none.db"))).toEqual(names);
    const file = path.join(dir, "db.sqlite");
    ledger(
      file,
      names.map((name) => ({ name, checksum: checksum(name) })),
    );
    expect(pendingMigrations(file)).toEqual([]);
    const other = path.join(dir, "older.sqlite");
    ledger(other, [
      ...names.slice(0, -1).map((name) => ({ name, checksum: checksum(name) })),
      { name: names.at(-1)!, checksum: "edited" },
    ]);
    expect(pendingMigrations(other)).toEqual([names.at(-1)]);
  });

  it("the data folder it creates and the database file are owner-only", () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "dsa-owner-only-")), "data", "dsa.db");
    prepareOwnerOnlyDatabase(file);
    expect(fs.statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    fs.chmodSync(file, 0o644);
    fs.writeFileSync(`${file}-wal`, "");
    fs.chmodSync(`${file}-wal`, 0o644);
    prepareOwnerOnlyDatabase(file);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.statSync(`${file}-wal`).mode & 0o777).toBe(0o600);
  });
});
