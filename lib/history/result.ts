import type { AnalysisHistory } from "@/generated/prisma/client";
import type { TAnalysisResultResponse } from "@/lib/analysis/schemas";
import { toAnalysisReport } from "./report";
import { parseJsonObject } from "./serialize";

/** The AnalysisResultResponse of a stored record: what sync analyze returned, rebuilt for task readers. */
export function toAnalysisResult(row: AnalysisHistory): TAnalysisResultResponse {
  return {
    query_id: row.queryId,
    trace_id: row.traceId,
    stock_code: row.displayCode,
    stock_name: row.stockName,
    report: toAnalysisReport(row),
    diagnostic_summary: parseJsonObject(row.diagnostics),
    created_at: row.createdAt.toISOString(),
  };
}
