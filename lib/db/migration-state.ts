import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { projectRoot } from "@/lib/project-root";

export const MIGRATIONS_DIR = path.join(projectRoot(import.meta.dirname), "prisma", "migrations");

/**
 * The repository's migrations the database file has not applied (Prisma's `_prisma_migrations` ledger:
 * finished, not rolled back, same SHA-256 checksum), read-only. Empty means the schema is current and
 * `prisma migrate deploy` can be skipped: it needs the file to itself, which fails while another process
 * serves from it.
 */
export function pendingMigrations(file: string, dir = MIGRATIONS_DIR): string[] {
  const wanted = fs
    .readdirSync(dir)
    .filter((name) => /^\d{14}_/.test(name))
    .sort()
    .map((name) => ({
      name,
      checksum: createHash("sha256")
        .update(fs.readFileSync(path.join(dir, name, "migration.sql")))
        .digest("hex"),
    }));
  if (!fs.existsSync(file) || fs.statSync(file).size === 0) return wanted.map((m) => m.name);
  const sqlite = new Database(file, { readonly: true, fileMustExist: true });
  try {
    sqlite.pragma("busy_timeout = 10000");
    const ledger = sqlite
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = '_prisma_migrations'")
      .get();
    if (!ledger) return wanted.map((m) => m.name);
    const rows = sqlite
      .prepare(
        "SELECT migration_name AS name, checksum FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL",
      )
      .all() as { name: string; checksum: string }[];
    const applied = new Map(rows.map((r) => [r.name, r.checksum]));
    return wanted.filter((m) => applied.get(m.name) !== m.checksum).map((m) => m.name);
  } finally {
    sqlite.close();
  }
}

/**
 * The database holds the admin password hash and sessions: its folder (when created here) and the file are
 * owner-only. SQLite gives the -wal and -shm files the main file's mode; existing ones are tightened too.
 */
export function prepareOwnerOnlyDatabase(file: string): void {
  const folder = path.dirname(file);
  if (!fs.existsSync(folder)) fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
  fs.closeSync(fs.openSync(file, "a", 0o600));
  for (const f of [file, `${file}-wal`, `${file}-shm`, `${file}-journal`]) {
    if (fs.existsSync(f)) fs.chmodSync(f, 0o600);
  }
}
