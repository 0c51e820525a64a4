import type { Prisma } from "@/generated/prisma/client";
import { db } from "@/lib/db/client";
import { placeholders } from "@/lib/db/raw-sql";
import type { JsonBody } from "@/lib/operation/json-body";
import { createdAtRange } from "./dates";
import type { THistoryStocksQuery, TStockBarResponse } from "./schemas";
import { countOf, HISTORY_ITEM_SQL, toSqlCondition, whereClause } from "./list-sql";
import { readHistoryAnswer } from "./read-cache";
import { toStockBarItem, type HistoryItemRow } from "./serialize";

/**
 * Only rows whose target_key names a stock ("stock:<market>:<code>") or a registered index
 * ("index:<canonical id>") are stocks: market reviews (code MARKET) never are. The condition reads
 * target_key alone, so grouping stays on the [targetKey, id] index.
 */
function stockRowsWhere(query: THistoryStocksQuery): Prisma.AnalysisHistoryWhereInput {
  const where: Prisma.AnalysisHistoryWhereInput = {
    OR: [{ targetKey: { startsWith: "stock:" } }, { targetKey: { startsWith: "index:" } }],
  };
  const created = createdAtRange(query.start_date, query.end_date);
  if (created) where.createdAt = created;
  return where;
}

/**
 * GET /api/v1/history/stocks (spec 4.3 rule 3): one row per target – the dedup key is the stored
 * target_key (normalised code for stocks, canonical identity for indices), so 600519 and 600519.SH
 * records are one row – showing its latest record (highest id), with the number of its records.
 * Grouping in SQL fills the limit exactly: the over-fetching the spec asks for, without guessing a factor.
 * The answer is kept while history is unchanged (read-cache.ts).
 */
export function listHistoryStocksBody(query: THistoryStocksQuery): Promise<JsonBody<TStockBarResponse>> {
  const where = stockRowsWhere(query);
  const condition = toSqlCondition(where);
  const filter = whereClause(condition);
  // Without a date range every target's latest record and count are in history_target (kept by triggers),
  // read off its [latestId] index (a target whose records were all deleted keeps a row with a count of 0);
  // a date range has to group the records themselves.
  const sql = where.createdAt
    ? {
        groups: `SELECT MAX(id) AS latest, COUNT(*) AS n FROM analysis_history${filter} GROUP BY target_key ORDER BY latest DESC LIMIT ?`,
        count: `SELECT COUNT(DISTINCT target_key) AS n FROM analysis_history${filter}`,
      }
    : {
        groups: `SELECT latest_id AS latest, record_count AS n FROM history_target${filter} AND record_count > 0 ORDER BY latest_id DESC LIMIT ?`,
        count: `SELECT COUNT(*) AS n FROM history_target${filter} AND record_count > 0`,
      };
  const read = async () => {
    const groups = await db().$queryRawUnsafe<{ latest: number; n: bigint }[]>(
      placeholders(sql.groups),
      ...condition.params,
      query.limit,
    );
    const latestIds = groups.map((g) => Number(g.latest));
    const rows = latestIds.length
      ? await db().$queryRawUnsafe<HistoryItemRow[]>(
          placeholders(
            `SELECT ${HISTORY_ITEM_SQL} FROM analysis_history WHERE id IN (${latestIds.map(() => "?").join(", ")})`,
          ),
          ...latestIds,
        )
      : [];
    const total =
      groups.length < query.limit
        ? groups.length
        : countOf(await db().$queryRawUnsafe<{ n: bigint }[]>(placeholders(sql.count), ...condition.params));
    return { groups, byId: new Map(rows.map((row) => [Number(row.id), row])), total };
  };
  return readHistoryAnswer(
    JSON.stringify(["stocks", sql, condition.params, query.limit]),
    read,
    ({ groups, byId, total }) => ({
      total,
      items: groups.flatMap((group) => {
        const row = byId.get(Number(group.latest));
        return row ? [toStockBarItem(row, Number(group.n))] : [];
      }),
    }),
  );
}

export async function listHistoryStocks(query: THistoryStocksQuery): Promise<TStockBarResponse> {
  return (await listHistoryStocksBody(query)).value;
}
