import pg from "pg";
import { migratePostgres } from "@/lib/db/postgres-migrate";

// Test support for the PostgreSQL pass of the suites: one migrated template per run, and a copy of it per
// test file (CREATE DATABASE … TEMPLATE is a file copy: far faster than migrating each time).

export const POSTGRES_ADMIN_URL = process.env.DSA_TEST_PG_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

/**
 * The name prefix of this test run's databases: vitest.config.ts sets it once in the main process and hands
 * it to the workers, so the run's global teardown can drop every database its tests and servers made.
 */
export function testDatabasePrefix(): string {
  return process.env.DSA_TEST_PG_PREFIX ?? `dsa_test_${process.pid}`;
}

export function databaseUrl(name: string, admin = POSTGRES_ADMIN_URL): string {
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return url.toString();
}

async function withAdmin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

// The "C" collation orders text by bytes, as SQLite does, so both passes see the same ORDER BY results.
const CREATE_OPTIONS = `ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'`;

/** A new migrated database to copy from, named `<prefix>_<kind>`: the run's own (`template` for the unit files, `server` for test servers). */
export async function createTemplateDatabase(
  prefix: string,
  kind: "template" | "server" = "template",
): Promise<string> {
  const name = `${prefix}_${kind}`;
  await withAdmin((c) => c.query(`CREATE DATABASE "${name}" TEMPLATE template0 ${CREATE_OPTIONS}`));
  await migratePostgres(databaseUrl(name));
  return name;
}

/** An empty database (the caller migrates it); returns its URL. */
export async function createEmptyDatabase(name: string): Promise<string> {
  await withAdmin((c) => c.query(`CREATE DATABASE "${name}" TEMPLATE template0 ${CREATE_OPTIONS}`));
  return databaseUrl(name);
}

/** A copy of the run's template for one test file; returns its URL. */
export async function copyTemplateDatabase(template: string, prefix: string): Promise<string> {
  const name = `${prefix}_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  await withAdmin((c) => c.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`));
  return databaseUrl(name);
}

/** Whether a database of that name exists. */
export async function databaseExists(name: string): Promise<boolean> {
  return withAdmin(async (c) => (await c.query(`SELECT 1 FROM pg_database WHERE datname = $1`, [name])).rowCount === 1);
}

/** Drops every database whose name starts with `prefix` (the run's copies and template). */
export async function dropDatabases(prefix: string): Promise<void> {
  await withAdmin(async (c) => {
    const { rows } = await c.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname LIKE $1`, [
      `${prefix}\\_%`,
    ]);
    for (const { datname } of rows) await c.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
  });
}
