import { db } from "@/lib/db/client";

/**
 * The record a task already stored, if any: a task whose process died between storing its report and marking the
 * task done is done, and running it again would write a second record for the same query_id.
 */
export async function recordStoredByTask(queryId: string): Promise<{ stockName: string | null } | null> {
  return db().analysisHistory.findUnique({ where: { queryId }, select: { stockName: true } });
}
