import { ApiError } from "@/lib/http/api-error";
import { newId } from "@/lib/ids";
import { ensureStockListNameSource } from "@/lib/market/stock-list";
import { sanitizeText } from "./sanitize";
import { AnalysisFailedError, runAnalysis } from "./pipeline";
import { planAnalysis } from "./request";
import type { TAnalysisResultResponse, TAnalyzeRequest } from "./schemas";

/**
 * POST /api/v1/analysis/analyze, sync mode (spec 4.2 rule 6): exactly one target, analysed inline.
 * Async mode (rules 7–9) queues tasks; until the task queue lands it answers 503.
 */
export async function analyzeRequest(request: TAnalyzeRequest, traceId: string, signal?: AbortSignal): Promise<TAnalysisResultResponse> {
  await ensureStockListNameSource();
  const plan = planAnalysis(request);
  if (request.async_mode) {
    throw ApiError.of("service_unavailable", "async_mode is not available on this server yet; send one code with async_mode false");
  }
  const target = plan.targets[0]!;
  const queryId = newId();
  try {
    const { record, report, diagnostics } = await runAnalysis({
      target,
      reportType: request.report_type,
      language: request.report_language,
      phase: request.analysis_phase,
      stockName: plan.single ? request.stock_name : null,
      queryId,
      traceId,
      triggerSource: "api",
      signal,
    });
    return {
      query_id: record.queryId,
      trace_id: traceId,
      stock_code: record.displayCode,
      stock_name: record.stockName,
      report,
      diagnostic_summary: diagnostics,
      created_at: record.createdAt.toISOString(),
    };
  } catch (error) {
    if (error instanceof AnalysisFailedError) throw ApiError.of("analysis_failed", sanitizeText(error.message));
    throw error;
  }
}
