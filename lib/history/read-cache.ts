import { LRUCache } from "lru-cache";
import { db, type Db } from "@/lib/db/client";

// Issue 23 §2: the history lists' database reads, kept per query and served again while analysis_history has not
// changed. Every change to it raises history_version in the same transaction (database triggers, so every write
// path and every replica counts), and a kept answer is served only while the version it was read at is still
// current: one primary-key read instead of the list's queries. The rows are kept, not the wire records, so what
// serialising adds per request (stock names from the current name list) stays current.

const MAX_QUERIES = 64;

interface Kept {
  version: number;
  rows: unknown;
}

// Per database client (a test file, or a process that switched databases, must not see another's rows).
const holder = globalThis as typeof globalThis & { dsaHistoryReads?: WeakMap<Db, LRUCache<string, Kept>> };

function keptFor(client: Db): LRUCache<string, Kept> {
  const all = (holder.dsaHistoryReads ??= new WeakMap());
  let kept = all.get(client);
  if (!kept) {
    kept = new LRUCache<string, Kept>({ max: MAX_QUERIES });
    all.set(client, kept);
  }
  return kept;
}

/** The current history version; null when its row is missing (then nothing is served from memory). */
export async function historyVersion(client: Db = db()): Promise<number | null> {
  const [row] = await client.$queryRawUnsafe<{ version: number | bigint }[]>("SELECT version FROM history_version WHERE id = 1");
  return row ? Number(row.version) : null;
}

/**
 * `read()`'s rows for `key` (which must name the statements and every parameter): kept from an earlier call while
 * the history version is unchanged, else read now. The version is read first, so rows read after a concurrent
 * change are kept under the older version and read again on the next call: never served past a change.
 */
export async function readHistoryRows<T>(key: string, read: () => Promise<T>): Promise<T> {
  const client = db();
  const version = await historyVersion(client);
  if (version === null) return read();
  const kept = keptFor(client);
  const hit = kept.get(key);
  if (hit && hit.version === version) return hit.rows as T;
  const rows = await read();
  kept.set(key, { version, rows });
  return rows;
}
