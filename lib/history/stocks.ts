import type { Prisma } from "@/generated/prisma/client";
import { db } from "@/lib/db/client";
import { createdAtRange } from "./dates";
import type { THistoryStocksQuery, TStockBarResponse } from "./schemas";
import { HISTORY_ITEM_COLUMNS, toStockBarItem } from "./serialize";

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
 */
export async function listHistoryStocks(query: THistoryStocksQuery): Promise<TStockBarResponse> {
  const where = stockRowsWhere(query);
  const groups = await db().analysisHistory.groupBy({
    by: ["targetKey"],
    where,
    _max: { id: true },
    _count: { _all: true },
    orderBy: { _max: { id: "desc" } },
    take: query.limit,
  });
  const latestIds = groups.map((g) => g._max.id).filter((id): id is number => id !== null);
  const rows = await db().analysisHistory.findMany({ where: { id: { in: latestIds } }, select: HISTORY_ITEM_COLUMNS });
  const byId = new Map(rows.map((row) => [row.id, row]));
  const items = groups.flatMap((group) => {
    const row = group._max.id === null ? undefined : byId.get(group._max.id);
    return row ? [toStockBarItem(row, group._count._all)] : [];
  });
  const total = groups.length < query.limit ? groups.length : await countTargets(where);
  return { total, items };
}

async function countTargets(where: Prisma.AnalysisHistoryWhereInput): Promise<number> {
  const all = await db().analysisHistory.groupBy({ by: ["targetKey"], where });
  return all.length;
}
