import type { Prisma } from "@/generated/prisma/client";
import { db, type Tx } from "@/lib/db/client";
import { ApiError } from "@/lib/http/api-error";
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
    // Issue 8 item 6: decision signals outlive their report; the link becomes null in the same transaction.
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
  let total = 0;
  for (;;) {
    const removed = await db().$transaction((tx) => deleteBatch(tx, where, batchSize), { timeout: TRANSACTION_TIMEOUT_MS });
    if (removed === 0) return total;
    total += removed;
  }
}

async function deleteBatch(tx: Tx, where: Prisma.AnalysisHistoryWhereInput, batchSize: number): Promise<number> {
  const rows = await tx.analysisHistory.findMany({ where, select: { id: true }, orderBy: { id: "asc" }, take: batchSize });
  if (rows.length === 0) return 0;
  return deleteIds(
    tx,
    rows.map((row) => row.id),
  );
}
