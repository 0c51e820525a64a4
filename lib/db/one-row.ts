import { db, directReader, type Db } from "./client";
import { placeholders } from "./raw-sql";

/**
 * The first row of a small hot read (written with SQLite's `?` placeholders): on SQLite through the client's direct
 * reader (direct-read.ts: what is committed, without Prisma's per-query cost), else through Prisma. Column values
 * come as the database holds them, which differs between the two paths (a date may be a Date or its stored number or
 * text): for comparing a read with a later one of the same process, not for showing.
 */
export async function readOneRow<T>(sql: string, params: readonly unknown[] = [], client: Db = db()): Promise<T | undefined> {
  const direct = directReader(client);
  if (direct) return direct.one<T>(sql, params);
  const [row] = await client.$queryRawUnsafe<T[]>(placeholders(sql), ...params);
  return row;
}

/** A stored time as a raw read answers it (a Date, or SQLite's text or milliseconds), in ms; NaN when it is none of those. */
export function storedTime(value: unknown): number {
  if (value instanceof Date) return value.getTime();
  if (typeof value === "number" || typeof value === "bigint") return Number(value);
  return typeof value === "string" ? Date.parse(value) : Number.NaN;
}
