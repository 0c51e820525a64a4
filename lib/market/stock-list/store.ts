import { now } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { placeholders } from "@/lib/db/raw-sql";
import type { TMarket } from "@/lib/market/symbols";
import type { StockListRow } from "./eastmoney-clist";

// The stock_listing table (prisma/schema.prisma StockListing). Rows are upserted in one transaction per
// market, with chunked multi-row INSERT … ON CONFLICT (as lib/market/bars/daily-bars.ts stores bars): a
// full A-share list is ~5 500 rows and per-row Prisma upserts would take seconds. Rows the provider did not
// return this time are kept: a refresh never deletes, so a partial answer cannot shrink the list.

const CHUNK = 500; // 8 columns × 500 = 4 000 bound parameters, far below SQLite's limit
const COLUMNS = ["market", "code", "name_zh", "name_en", "kind", "exchange", "source", "updated_at"];
// A provider without an English name or exchange does not erase one stored earlier.
const UPDATED = [
  `"name_zh" = excluded."name_zh"`,
  `"name_en" = COALESCE(excluded."name_en", "stock_listing"."name_en")`,
  `"kind" = excluded."kind"`,
  `"exchange" = COALESCE(excluded."exchange", "stock_listing"."exchange")`,
  `"source" = excluded."source"`,
  `"updated_at" = excluded."updated_at"`,
].join(", ");

export interface StoreResult {
  market: TMarket;
  /** Rows written (inserted or updated). */
  written: number;
  /** Rows of the market in the table afterwards (includes rows kept from earlier refreshes). */
  stored: number;
}

/** Upserts one market's rows in a single transaction. Rows must all belong to `market`. */
export async function storeListings(
  market: TMarket,
  rows: readonly StockListRow[],
  source: string,
): Promise<StoreResult> {
  const foreign = rows.find((row) => row.market !== market);
  if (foreign)
    throw new Error(`storeListings(${market}): row ${foreign.market} ${foreign.code} belongs to another market`);
  // Same text form the Prisma SQLite adapter writes for DateTime columns; PostgreSQL reads it as the UTC time.
  const updatedAt = now().toISOString().replace("Z", "+00:00");
  const statements = [];
  for (let i = 0; i < rows.length; i += CHUNK) {
    const chunk = rows.slice(i, i + CHUNK);
    const tuples = chunk.map(() => `(${COLUMNS.map(() => "?").join(", ")})`).join(", ");
    const values = chunk.flatMap((r) => [market, r.code, r.nameZh, r.nameEn, r.kind, r.exchange, source, updatedAt]);
    const sql =
      `INSERT INTO "stock_listing" (${COLUMNS.map((c) => `"${c}"`).join(", ")}) VALUES ${tuples} ` +
      `ON CONFLICT ("market", "code") DO UPDATE SET ${UPDATED}`;
    statements.push(db().$executeRawUnsafe(placeholders(sql), ...values));
  }
  if (statements.length > 0) await db().$transaction(statements);
  const stored = await db().stockListing.count({ where: { market } });
  return { market, written: rows.length, stored };
}

/** Row counts per market currently in the table. */
export async function countListings(): Promise<Record<TMarket, number>> {
  const groups = await db().stockListing.groupBy({ by: ["market"], _count: { _all: true } });
  const counts: Record<TMarket, number> = { cn: 0, hk: 0, us: 0 };
  for (const group of groups) {
    if (group.market === "cn" || group.market === "hk" || group.market === "us")
      counts[group.market] = group._count._all;
  }
  return counts;
}
