import { redactedDatabaseUrl } from "@/lib/db/database-url";
import { migrateDatabase } from "./launch";

// npm run db:migrate: apply pending migrations to DATABASE_URL without starting the server.
const url = await migrateDatabase();
console.log(`database ready: ${redactedDatabaseUrl(url)}`);
