import fs from "node:fs";
import path from "node:path";
import { projectRoot } from "@/lib/project-root";

const ROOT = projectRoot(import.meta.dirname);
export const SQLITE_SCHEMA = path.join(ROOT, "prisma/schema.prisma");
export const POSTGRES_SCHEMA = path.join(ROOT, "prisma/postgres/schema.prisma");
export const POSTGRES_MIGRATIONS_DIR = path.join(ROOT, "prisma/postgres/migrations");

const HEADER =
  "// GENERATED from prisma/schema.prisma by `npm run db:pg-schema`; do not edit. The models are the SQLite\n" +
  "// schema's, so one code base serves both databases; lib/db/postgres-schema.postgres.test.ts fails when they drift.\n";

/**
 * The PostgreSQL schema is the SQLite one with another datasource and client output: the models, their
 * column names and indexes stay identical, so the application code and raw SQL see the same tables.
 */
export function postgresSchemaFrom(sqlite: string): string {
  const replace = (text: string, from: RegExp, to: string): string => {
    if (!from.test(text))
      throw new Error(`prisma/schema.prisma no longer matches ${from}: update lib/db/postgres-schema.ts`);
    return text.replace(from, to);
  };
  let schema = replace(sqlite, /output(\s+)= "\.\.\/generated\/prisma"/, 'output$1= "../../generated/prisma-pg"');
  schema = replace(schema, /provider = "sqlite"/, 'provider = "postgresql"');
  schema = schema.replace(
    /^\/\/ SQLite is the embedded default\.[^\n]*\n/,
    "// PostgreSQL: the scale-out database (several replicas on one database).\n",
  );
  return HEADER + schema;
}

export function generatedPostgresSchema(): string {
  return postgresSchemaFrom(fs.readFileSync(SQLITE_SCHEMA, "utf8"));
}
