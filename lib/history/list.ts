import type { Prisma } from "@/generated/prisma/client";
import { db } from "@/lib/db/client";
import type { JsonBody } from "@/lib/operation/json-body";
import { placeholders } from "@/lib/db/raw-sql";
import { createdAtRange } from "./dates";
import type { THistoryListQuery, THistoryListResponse } from "./schemas";
import { countOf, HISTORY_ITEM_SQL, toSqlCondition, UNFILTERED_TOTAL_SQL, whereClause } from "./list-sql";
import { toHistoryItem, type HistoryItemRow } from "./serialize";
import { readHistoryAnswer } from "./read-cache";
import { historyTargetFilter } from "./target-filter";

/**
 * The filters of GET /api/v1/history. Each has an index: target_key → [targetKey, id], stock_code →
 * [stockCode, id], report_type → [reportType, createdAt], dates → [createdAt].
 */
export function historyWhere(
  query: Pick<THistoryListQuery, "stock_code" | "report_type" | "start_date" | "end_date">,
): Prisma.AnalysisHistoryWhereInput {
  const where: Prisma.AnalysisHistoryWhereInput = {};
  const target = historyTargetFilter(query.stock_code);
  if (target) Object.assign(where, target);
  const reportType = query.report_type?.trim();
  // Spec 4.3 rule 4: nothing is hidden by type unless report_type is given.
  if (reportType) where.reportType = reportType;
  const created = createdAtRange(query.start_date, query.end_date);
  if (created) where.createdAt = created;
  return where;
}

// GET /api/v1/history – newest first (created_at, then id), one page. That order reads straight off the
// [createdAt] and [reportType, createdAt] indexes (SQLite keeps the rowid as their last column); a code
// filter sorts only that one stock's records. The answer is kept while history is unchanged (read-cache.ts).
export function listHistoryBody(query: THistoryListQuery): Promise<JsonBody<THistoryListResponse>> {
  const condition = toSqlCondition(historyWhere(query));
  const where = whereClause(condition);
  const countSql = where ? `SELECT COUNT(*) AS n FROM analysis_history${where}` : UNFILTERED_TOTAL_SQL;
  const pageSql = `SELECT ${HISTORY_ITEM_SQL} FROM analysis_history${where} ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`;
  const pageParams = [...condition.params, query.limit, (query.page - 1) * query.limit];
  return readHistoryAnswer(
    JSON.stringify(["list", countSql, pageSql, pageParams]),
    () =>
      Promise.all([
        db().$queryRawUnsafe<{ n: bigint }[]>(placeholders(countSql), ...condition.params),
        db().$queryRawUnsafe<HistoryItemRow[]>(placeholders(pageSql), ...pageParams),
      ]),
    ([counted, rows]) => ({
      total: countOf(counted),
      page: query.page,
      limit: query.limit,
      items: rows.map(toHistoryItem),
    }),
  );
}

export async function listHistory(query: THistoryListQuery): Promise<THistoryListResponse> {
  return (await listHistoryBody(query)).value;
}
