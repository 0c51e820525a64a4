import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";

/** Test support: a SQLite file with the repository's migrations applied in order, as `migrate deploy` would. */
export function applyMigrations(file: string): void {
  const sqlite = new Database(file);
  try {
    const root = path.resolve(process.cwd(), "prisma/migrations");
    for (const name of fs
      .readdirSync(root)
      .filter((n) => /^\d{14}_/.test(n))
      .sort()) {
      sqlite.exec(fs.readFileSync(path.join(root, name, "migration.sql"), "utf8"));
    }
  } finally {
    sqlite.close();
  }
}
