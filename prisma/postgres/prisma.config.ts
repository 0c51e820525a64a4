import path from "node:path";
import { defineConfig } from "prisma/config";
import { PrismaPg } from "@prisma/adapter-pg";

// The PostgreSQL schema's own config, for `prisma generate` (postinstall) and `migrate diff` between
// datamodels, which need no database. Migrations are applied by lib/db/postgres-migrate.ts, not `migrate
// deploy`: Prisma 6.19's PostgreSQL adapter cannot read the catalog it needs (see the README's "Scale-out").
process.env.DATABASE_URL ??= "postgresql://localhost/dsa";

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: path.join(import.meta.dirname, "schema.prisma"),
  async adapter() {
    return new PrismaPg({ connectionString: process.env.DATABASE_URL });
  },
});
