import { db, type Tx } from "@/lib/db/client";
import { placeholders } from "@/lib/db/raw-sql";
import { ApiError } from "@/lib/errors/api-error";
import { toSqlCondition, type SqlCondition } from "./list-sql";
import { historyTargetFilter } from "./target-filter";

/** Spec 8: delete-by-code removes at most this many records per pass (one transaction each). */
export const DELETE_BATCH_SIZE = 10_000;
// Ids per statement, well under SQLite's bound-parameter limit.
const IDS_PER_STATEMENT = 500;
const TRANSACTION_TIMEOUT_MS = 120_000;

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** News rows go first and explicitly: the cascade does not depend on SQLite's foreign_keys pragma. */
async function deleteIds(tx: Tx, ids: readonly number[]): Promise<number> {
  let deleted = 0;
  for (const part of chunks(ids, IDS_PER_STATEMENT)) {
    await tx.analysisNews.deleteMany({ where: { historyId: { in: part } } });
    // Decision signals outlive their report; the link becomes null in the same transaction.
    await tx.decisionSignal.updateMany({ where: { sourceReportId: { in: part } }, data: { sourceReportId: null } });
    deleted += (await tx.analysisHistory.deleteMany({ where: { id: { in: part } } })).count;
  }
  return deleted;
}

// DELETE /api/v1/history – spec 4.3 rule 1: each distinct id once, with its news, in one transaction.
export async function deleteHistoryRecords(recordIds: readonly number[]): Promise<number> {
  if (recordIds.length === 0) throw ApiError.of("invalid_request", "record_ids must name at least one record");
  const ids = [...new Set(recordIds)];
  return db().$transaction((tx) => deleteIds(tx, ids), { timeout: TRANSACTION_TIMEOUT_MS });
}

/**
 * DELETE /api/v1/history/by-code/{stock_code} – spec 4.3 rule 1: every variant of the code, in passes of
 * DELETE_BATCH_SIZE records, each pass one transaction (a crash leaves whole records, never half of one),
 * repeated until a pass finds nothing. Returns the total removed; 0 when nothing matched.
 */
export async function deleteHistoryByCode(stockCode: string, batchSize = DELETE_BATCH_SIZE): Promise<number> {
  const where = historyTargetFilter(stockCode);
  if (!where) throw ApiError.of("invalid_request", "stock_code must not be empty");
  const condition = toSqlCondition(where);
  let total = 0;
  for (;;) {
    const removed = await db().$transaction((tx) => deleteBatch(tx, condition, batchSize), {
      timeout: TRANSACTION_TIMEOUT_MS,
    });
    if (removed === 0) return total;
    total += removed;
  }
}

/**
 * One pass: the code's oldest `batchSize` records, named by the id bound of the pass (ids ascend), so news,
 * signal links and records each go in one statement over an index instead of thousands of bound ids.
 */
async function deleteBatch(tx: Tx, condition: SqlCondition, batchSize: number): Promise<number> {
  const bound = await tx.$queryRawUnsafe<{ id: number }[]>(
    placeholders(`SELECT id FROM analysis_history WHERE ${condition.sql} ORDER BY id LIMIT 1 OFFSET ?`),
    ...condition.params,
    batchSize - 1,
  );
  // Fewer than batchSize records left: this pass takes them all.
  const scope = bound.length ? `${condition.sql} AND id <= ?` : condition.sql;
  const params = bound.length ? [...condition.params, Number(bound[0]!.id)] : condition.params;
  const records = `SELECT id FROM analysis_history WHERE ${scope}`;
  await tx.$executeRawUnsafe(placeholders(`DELETE FROM analysis_news WHERE history_id IN (${records})`), ...params);
  // Decision signals outlive their report; the link becomes null in the same transaction.
  await tx.$executeRawUnsafe(
    placeholders(`UPDATE decision_signal SET source_report_id = NULL WHERE source_report_id IN (${records})`),
    ...params,
  );
  return tx.$executeRawUnsafe(placeholders(`DELETE FROM analysis_history WHERE ${scope}`), ...params);
}
