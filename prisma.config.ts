import path from "node:path";
import { defineConfig } from "prisma/config";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { ensureDatabaseFolder, resolveDatabaseUrl } from "./lib/db/database-url";

// The Prisma CLI needs the variable set with the right scheme, or it tries to download a native engine.
const url = resolveDatabaseUrl(process.env.DATABASE_URL);
process.env.DATABASE_URL = url;

// Prisma 6.19 replays each migration on the shadow database with executeRaw(whole script), which
// better-sqlite3's prepare() rejects for multi-statement SQL (P3006). Route parameterless scripts to exec.
class SqliteWithShadowFix extends PrismaBetterSQLite3 {
  override async connectToShadowDb() {
    const shadow = await super.connectToShadowDb();
    const raw = shadow.executeRaw.bind(shadow);
    shadow.executeRaw = async (query) => {
      if (query.args.length > 0) return raw(query);
      await shadow.executeScript(query.sql);
      return 0;
    };
    return shadow;
  }
}

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: path.join("prisma", "schema.prisma"),
  async adapter() {
    ensureDatabaseFolder(url);
    return new SqliteWithShadowFix({ url });
  },
});
