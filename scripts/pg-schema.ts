import fs from "node:fs";
import { POSTGRES_SCHEMA, generatedPostgresSchema } from "@/lib/db/postgres-schema";

// npm run db:pg-schema: rewrite prisma/postgres/schema.prisma from prisma/schema.prisma (after a model change;
// then add the PostgreSQL migration as docs/architecture.md, "Database", says).
fs.writeFileSync(POSTGRES_SCHEMA, generatedPostgresSchema());
console.log(`written ${POSTGRES_SCHEMA}`);
