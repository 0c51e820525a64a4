import { migrateDatabase } from "./launch";

// npm run db:migrate: apply pending migrations to DATABASE_URL without starting the server.
const url = migrateDatabase();
console.log(`database ready: ${url}`);
