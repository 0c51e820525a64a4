import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { migratePostgres } from "./postgres-migrate";
import { POSTGRES_SCHEMA, generatedPostgresSchema, postgresSchemaFrom } from "./postgres-schema";
import { POSTGRES_ADMIN_URL, databaseUrl, testDatabasePrefix } from "@/tests/kits/db/postgres-test-databases";

// Under the run's prefix, so the pass's teardown drops them: a DROP in an afterAll hook outran its 10 s limit
// on a loaded machine.
const PREFIX = `${testDatabasePrefix()}_schema_${process.pid}`;

async function query<T extends pg.QueryResultRow>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

async function newDatabase(suffix: string): Promise<string> {
  await query(POSTGRES_ADMIN_URL, `CREATE DATABASE "${PREFIX}_${suffix}"`);
  return databaseUrl(`${PREFIX}_${suffix}`);
}

/** Tables, columns (type, nullability, default), indexes and constraints: what the schema decides. */
async function catalog(url: string): Promise<unknown> {
  const columns = await query(
    url,
    `SELECT table_name, column_name, data_type, is_nullable, column_default FROM information_schema.columns
     WHERE table_schema = 'public' AND table_name <> '_prisma_migrations' ORDER BY table_name, column_name`,
  );
  const indexes = await query(
    url,
    `SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' AND tablename <> '_prisma_migrations' ORDER BY indexname`,
  );
  const constraints = await query(
    url,
    `SELECT conrelid::regclass::text AS tbl, conname, pg_get_constraintdef(oid) AS def FROM pg_constraint
     WHERE connamespace = 'public'::regnamespace AND conrelid::regclass::text <> '_prisma_migrations'
     AND contype <> 't' ORDER BY conname`,
  );
  return { columns, indexes, constraints };
}

describe("the PostgreSQL schema and its migrations", () => {
  it("prisma/postgres/schema.prisma is the SQLite schema's models, regenerated (npm run db:pg-schema after a model change)", () => {
    expect(fs.readFileSync(POSTGRES_SCHEMA, "utf8")).toBe(generatedPostgresSchema());
    const pgSchema = postgresSchemaFrom(
      'generator client {\n  output       = "../generated/prisma"\n}\ndatasource db {\n  provider = "sqlite"\n}\nmodel A {\n  id Int @id\n}\n',
    );
    expect(pgSchema).toContain('provider = "postgresql"');
    expect(pgSchema).toContain('output       = "../../generated/prisma-pg"');
    expect(pgSchema).toContain("model A {\n  id Int @id\n}");
    expect(() => postgresSchemaFrom("model A {}")).toThrow(/no longer matches/);
  });

  it("the migrations build exactly the database the schema describes (no drift)", async () => {
    const migrated = await newDatabase("migrated");
    await migratePostgres(migrated);
    // The schema's own DDL from Prisma, applied to an empty database. The diff of two datamodels needs no
    // database; it runs under the root config (SQLite adapter), which works offline.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dsa-pg-schema-"));
    const script = path.join(dir, "schema.sql");
    execFileSync(
      path.resolve("node_modules/.bin/prisma"),
      ["migrate", "diff", "--from-empty", "--to-schema-datamodel", POSTGRES_SCHEMA, "--script", "-o", script],
      {
        stdio: "pipe",
        env: { ...process.env, DATABASE_URL: `file:${path.join(dir, "unused.db")}`, PRISMA_HIDE_UPDATE_MESSAGE: "1" },
      },
    );
    const fromSchema = await newDatabase("fromschema");
    await query(fromSchema, fs.readFileSync(script, "utf8"));
    fs.rmSync(dir, { recursive: true, force: true });
    const [a, b] = await Promise.all([catalog(migrated), catalog(fromSchema)]);
    expect((a as { columns: unknown[] }).columns.length).toBeGreaterThan(100);
    expect(a).toEqual(b);
  }, 60_000);

  it("replicas starting at once apply each migration once; a second start applies nothing", async () => {
    const url = await newDatabase("race");
    const results = await Promise.all([migratePostgres(url), migratePostgres(url), migratePostgres(url)]);
    const names = fs
      .readdirSync("prisma/postgres/migrations")
      .filter((n) => /^\d{14}_/.test(n))
      .sort();
    expect(results.flat().sort()).toEqual(names);
    expect(await migratePostgres(url)).toEqual([]);
    const ledger = await query<{ migration_name: string }>(
      url,
      `SELECT migration_name FROM "_prisma_migrations" ORDER BY migration_name`,
    );
    expect(ledger.map((r) => r.migration_name)).toEqual(names);
  }, 60_000);

  it("a migration edited after it was applied, or a failing one, stops start-up with its name, and a failure leaves nothing half-applied", async () => {
    const url = await newDatabase("edited");
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dsa-pg-migrations-"));
    const write = (name: string, sql: string) => {
      fs.mkdirSync(path.join(dir, name), { recursive: true });
      fs.writeFileSync(path.join(dir, name, "migration.sql"), sql);
    };
    write("20260101000000_one", `CREATE TABLE one (id INT); INSERT INTO one VALUES (1); -- a ';' in a comment`);
    expect(await migratePostgres(url, dir)).toEqual(["20260101000000_one"]);
    write("20260102000000_two", `CREATE TABLE two (id INT); INSERT INTO missing VALUES (1);`);
    await expect(migratePostgres(url, dir)).rejects.toThrow(/20260102000000_two failed/);
    expect(await query(url, `SELECT to_regclass('two') AS t`)).toEqual([{ t: null }]);
    write("20260101000000_one", `CREATE TABLE one (id BIGINT);`);
    await expect(migratePostgres(url, dir)).rejects.toThrow(/20260101000000_one was changed/);
    fs.rmSync(dir, { recursive: true, force: true });
  }, 60_000);
});
