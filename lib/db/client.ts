import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@/generated/prisma/client";
import { PrismaClient as PostgresPrismaClient } from "@/generated/prisma-pg/client";
import { getSettings } from "@/lib/config/settings";
import { databaseKind, ensureDatabaseFolder, resolveDatabaseUrl } from "./database-url";
import { gatedSqlite } from "./sqlite-gate";

export const BUSY_TIMEOUT_MS = 5000;

// One client per process; dev-mode reloads re-evaluate modules, so it lives on globalThis.
const holder = globalThis as typeof globalThis & { dsaPrisma?: PrismaClient };

export function db(): PrismaClient {
  holder.dsaPrisma ??= createClient();
  return holder.dsaPrisma;
}

function createClient(): PrismaClient {
  const url = resolveDatabaseUrl(getSettings().DATABASE_URL);
  if (databaseKind(url) === "postgres") {
    // Both clients come from one set of models (prisma/postgres/schema.prisma is generated from the SQLite
    // schema), so the PostgreSQL client has the same API and the code is typed against one of them.
    return new PostgresPrismaClient({ adapter: new PrismaPg({ connectionString: url }) }) as unknown as PrismaClient;
  }
  ensureDatabaseFolder(url);
  // `timeout` is better-sqlite3's busy timeout: a writer waits for another process's lock instead of failing.
  // The gate keeps statements outside a transaction from running inside another request's open one (sqlite-gate.ts).
  const client = new PrismaClient({ adapter: gatedSqlite(new PrismaBetterSQLite3({ url, timeout: BUSY_TIMEOUT_MS })) });
  // WAL lets readers run beside the single writer; NORMAL sync is durable across process crashes in WAL mode.
  void client.$queryRawUnsafe("PRAGMA journal_mode = WAL").catch(() => undefined);
  void client.$queryRawUnsafe("PRAGMA synchronous = NORMAL").catch(() => undefined);
  return client;
}

export type Db = PrismaClient;
export type Tx = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];

/** Several writes that must hold together: one transaction, with `tx` passed down (timeoutMs for long ones; default 5 s). */
export function inTransaction<T>(work: (tx: Tx) => Promise<T>, options: { timeoutMs?: number } = {}): Promise<T> {
  return options.timeoutMs ? db().$transaction(work, { timeout: options.timeoutMs, maxWait: 10_000 }) : db().$transaction(work);
}

export async function disconnectDb(): Promise<void> {
  const client = holder.dsaPrisma;
  holder.dsaPrisma = undefined;
  await client?.$disconnect();
}
