import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { POSTGRES_MIGRATIONS_DIR } from "./postgres-schema";

// Any fixed 64-bit key: every replica starting at once queues on it, so each migration runs exactly once.
const MIGRATION_LOCK = 7_236_101_154_031_129;

// Prisma's own ledger, so `prisma migrate status` and a later switch to `migrate deploy` read the same rows.
const LEDGER = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id" VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum" VARCHAR(64) NOT NULL,
  "finished_at" TIMESTAMPTZ,
  "migration_name" VARCHAR(255) NOT NULL,
  "logs" TEXT,
  "rolled_back_at" TIMESTAMPTZ,
  "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

function migrationsIn(dir: string): Migration[] {
  return fs
    .readdirSync(dir)
    .filter((name) => /^\d{14}_/.test(name))
    .sort()
    .map((name) => {
      const sql = fs.readFileSync(path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    });
}

/**
 * Applies prisma/postgres/migrations to a PostgreSQL database; returns the names applied now. Prisma 6.19's
 * `migrate deploy` cannot run offline on PostgreSQL (its adapter fails to read the catalog), so this does
 * what it does: under a session advisory lock, each pending migration in its own transaction with its
 * ledger row. A migration changed after it was applied, or one that failed earlier, stops start-up.
 */
export async function migratePostgres(url: string, dir = POSTGRES_MIGRATIONS_DIR): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK]);
    await client.query(LEDGER);
    const { rows } = await client.query<{ migration_name: string; checksum: string; finished_at: Date | null }>(
      `SELECT migration_name, checksum, finished_at FROM "_prisma_migrations" WHERE rolled_back_at IS NULL`,
    );
    const ledger = new Map(rows.map((r) => [r.migration_name, r]));
    const applied: string[] = [];
    for (const migration of migrationsIn(dir)) {
      const row = ledger.get(migration.name);
      if (row && !row.finished_at)
        throw new Error(`migration ${migration.name} failed earlier; fix the database, then mark it rolled back`);
      if (row && row.checksum !== migration.checksum)
        throw new Error(`migration ${migration.name} was changed after it was applied`);
      if (row) continue;
      await client.query("BEGIN");
      try {
        // One simple-protocol query: a migration file holds several statements.
        await client.query(migration.sql);
        await client.query(
          `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, finished_at, applied_steps_count) VALUES ($1, $2, $3, now(), now(), 1)`,
          [randomUUID(), migration.checksum, migration.name],
        );
        await client.query("COMMIT");
      } catch (error) {
        await client.query("ROLLBACK");
        throw new Error(`migration ${migration.name} failed: ${(error as Error).message}`);
      }
      applied.push(migration.name);
    }
    return applied;
  } finally {
    await client.query("SELECT pg_advisory_unlock_all()").catch(() => undefined);
    await client.end();
  }
}
