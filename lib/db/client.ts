import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaClient } from "@/generated/prisma/client";
import { PrismaClient as PostgresPrismaClient } from "@/generated/prisma-pg/client";
import { getSettings } from "@/lib/settings/settings";
import { logger } from "@/lib/log/logger";
import { databaseFilePath, databaseKind, ensureDatabaseFolder, resolveDatabaseUrl } from "./database-url";
import { openSqliteReader, poolReader, type DirectReader } from "./direct-read";
import { gatedSqlite } from "./sqlite-gate";

export const BUSY_TIMEOUT_MS = 5000;

// Each client's way around Prisma for hot one-row reads (direct-read.ts): a SQLite file, opened on first use, or the
// PostgreSQL pool its adapter uses.
interface DirectRead {
  open: () => DirectReader;
  reader?: DirectReader;
}
// One client per process; dev-mode reloads re-evaluate modules, and Next bundles this module more than once, so the
// client and its direct reader live on globalThis.
const holder = globalThis as typeof globalThis & {
  dsaPrisma?: PrismaClient;
  dsaDirectRead?: WeakMap<PrismaClient, DirectRead>;
};
const directReads = (holder.dsaDirectRead ??= new WeakMap());

export function db(): PrismaClient {
  holder.dsaPrisma ??= createClient();
  return holder.dsaPrisma;
}

function createClient(): PrismaClient {
  const url = resolveDatabaseUrl(getSettings().DATABASE_URL);
  if (databaseKind(url) === "postgres") {
    // Both clients come from one set of models (prisma/postgres/schema.prisma is generated from the SQLite
    // schema), so the PostgreSQL client has the same API and the code is typed against one of them. The pool is
    // made here so the direct reads share it; the adapter ends it when the client disconnects.
    const pool = new pg.Pool({ connectionString: url });
    // A pooled connection the server drops while idle emits "error" on the pool; unheard, that ends the process. The
    // adapter listens once Prisma connects, but a direct read may come first.
    pool.on("error", (error) => logger.warn({ err: error }, "PostgreSQL dropped an idle pooled connection"));
    const client = new PostgresPrismaClient({
      adapter: new PrismaPg(pool, { disposeExternalPool: true }),
    }) as unknown as PrismaClient;
    directReads.set(client, { open: () => poolReader(pool) });
    return client;
  }
  ensureDatabaseFolder(url);
  // `timeout` is better-sqlite3's busy timeout: a writer waits for another process's lock instead of failing.
  // The gate keeps statements outside a transaction from running inside another request's open one (sqlite-gate.ts).
  const client = new PrismaClient({ adapter: gatedSqlite(new PrismaBetterSQLite3({ url, timeout: BUSY_TIMEOUT_MS })) });
  const file = databaseFilePath(url);
  if (file !== ":memory:") directReads.set(client, { open: () => openSqliteReader(file, BUSY_TIMEOUT_MS) });
  // WAL lets readers run beside the single writer; NORMAL sync is durable across process crashes in WAL mode.
  void client.$queryRawUnsafe("PRAGMA journal_mode = WAL").catch(() => undefined);
  void client.$queryRawUnsafe("PRAGMA synchronous = NORMAL").catch(() => undefined);
  return client;
}

export type Db = PrismaClient;
export type Tx = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];

/** Several writes that must hold together: one transaction, with `tx` passed down (timeoutMs for long ones; default 5 s). */
export function inTransaction<T>(work: (tx: Tx) => Promise<T>, options: { timeoutMs?: number } = {}): Promise<T> {
  return options.timeoutMs
    ? db().$transaction(work, { timeout: options.timeoutMs, maxWait: 10_000 })
    : db().$transaction(work);
}

/**
 * The client's database read around Prisma (direct-read.ts) for hot one-row reads; null for an in-memory SQLite
 * database, or a SQLite file that cannot be opened yet (then the caller reads through Prisma).
 */
export function directReader(client: Db = db()): DirectReader | null {
  const direct = directReads.get(client);
  if (!direct) return null;
  try {
    return (direct.reader ??= direct.open());
  } catch {
    return null; // the file is not there yet (Prisma creates it on its first query): tried again on the next read
  }
}

export async function disconnectDb(): Promise<void> {
  const client = holder.dsaPrisma;
  holder.dsaPrisma = undefined;
  if (client) {
    directReads.get(client)?.reader?.close();
    directReads.delete(client);
  }
  await client?.$disconnect();
}
