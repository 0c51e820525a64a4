import { migrateDatabase, serve } from "./launch";

// npm start: apply migrations to DATABASE_URL, then serve the built app (npm run dev: the dev server).
const mode = process.argv.includes("--dev") ? "dev" : "production";
serve(mode, await migrateDatabase());
