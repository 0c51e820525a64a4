import { LRUCache } from "lru-cache";
import { db, type Db } from "@/lib/db/client";
import { readOneRow } from "@/lib/db/one-row";
import { perClient } from "@/lib/db/per-client";
import { JsonBody } from "@/lib/operation/json-body";
import { nameSourcesGeneration } from "@/lib/market/symbols";

// The history lists' answers, kept per query and served again while analysis_history has not
// changed. Every change to it raises history_version in the same transaction (database triggers, so every write
// path and every replica counts), and a kept answer is served only while the version it was read at is still
// current: one primary-key read instead of the list's queries, the mapping to wire records and the JSON encoding.
// The rows are kept apart from the answer built from them: an answer shows stock names from the current name list,
// so a changed list (a stock-list refresh) rebuilds the answer from the kept rows.

const MAX_QUERIES = 64;

interface Kept {
  version: number;
  rows: unknown;
  answer: { names: number; body: JsonBody } | null;
}

// Per database client, and per copy of this module: Next bundles the pages and the route handlers with their own
// copies of this module, of JsonBody and of the name list, so an answer is only ever served to the copy that built it.
const keptFor = perClient(() => new LRUCache<string, Kept>({ max: MAX_QUERIES }));

/** The current history version; null when its row is missing (then nothing is served from memory). */
export async function historyVersion(client: Db = db()): Promise<number | null> {
  const row = await readOneRow<{ version: number | bigint | string }>(
    "SELECT version FROM history_version WHERE id = 1",
    [],
    client,
  );
  return row ? Number(row.version) : null;
}

// Shared by every request that gets it: frozen, so a caller that changed it would fail instead of changing the others'.
function answerOf<R, T>(rows: R, build: (rows: R) => T): { names: number; body: JsonBody<T> } {
  const names = nameSourcesGeneration();
  const value = build(rows);
  for (const part of Object.values(value as object)) {
    if (!Array.isArray(part)) continue;
    for (const item of part as unknown[]) if (typeof item === "object" && item !== null) Object.freeze(item);
    Object.freeze(part);
  }
  return { names, body: new JsonBody(Object.freeze(value)) };
}

/**
 * The answer `build()` makes of `read()`'s rows for `key` (which must name the statements and every parameter):
 * kept from an earlier call while the history version is unchanged (and the name list, else rebuilt from the kept
 * rows), else read now. The version is read first, so rows read after a concurrent change are kept under the older
 * version and read again on the next call: never served past a change.
 */
export async function readHistoryAnswer<R, T>(
  key: string,
  read: () => Promise<R>,
  build: (rows: R) => T,
): Promise<JsonBody<T>> {
  const client = db();
  const version = await historyVersion(client);
  if (version === null) return new JsonBody(build(await read()));
  const kept = keptFor(client);
  const hit = kept.get(key);
  if (hit && hit.version === version) {
    if (hit.answer?.names !== nameSourcesGeneration()) hit.answer = answerOf(hit.rows as R, build);
    return hit.answer.body as JsonBody<T>;
  }
  const rows = await read();
  const answer = answerOf(rows, build);
  kept.set(key, { version, rows, answer });
  return answer.body;
}
