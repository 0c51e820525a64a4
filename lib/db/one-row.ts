import { db, directReader, type Db } from "./client";
import type { Soon } from "@/lib/soon";
import { placeholders } from "./raw-sql";

/**
 * The first row of a small hot read (written with SQLite's `?` placeholders, numbered for PostgreSQL): through
 * the client's direct reader (direct-read.ts: what is committed, without Prisma's per-query cost), else through
 * Prisma. Column values come as the database driver gives them (a time may be a Date, or SQLite's stored text or
 * number; a PostgreSQL bigint is text): read times with storedTime and numbers with Number.
 */
export async function readOneRow<T>(
  sql: string,
  params: readonly unknown[] = [],
  client: Db = db(),
): Promise<T | undefined> {
  return readOneRowSoon<T>(sql, params, client);
}

/** readOneRow without a promise when the answer is there at once (SQLite's direct reader; lib/soon.ts says why). */
export function readOneRowSoon<T>(
  sql: string,
  params: readonly unknown[] = [],
  client: Db = db(),
): Soon<T | undefined> {
  const direct = directReader(client);
  if (direct) return direct.one<T>(sql, params);
  return client.$queryRawUnsafe<T[]>(placeholders(sql), ...params).then(([row]) => row);
}

/** A stored time as a raw read answers it (a Date, or SQLite's text or milliseconds), in ms; NaN when it is none of those. */
export function storedTime(value: unknown): number {
  if (value instanceof Date) return value.getTime();
  if (typeof value === "number" || typeof value === "bigint") return Number(value);
  return typeof value === "string" ? Date.parse(value) : Number.NaN;
}
