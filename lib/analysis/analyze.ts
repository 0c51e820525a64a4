import { ApiError } from "@/lib/errors/api-error";
import { newId } from "@/lib/ids";
import { prerenderShareImage } from "@/lib/history/share/prerender";
import { notifyAnalysisCompleted } from "@/lib/notify";
import { ensureStockListNameSource } from "@/lib/market/stock-list";
import type { TBatchTaskAcceptedResponse, TTaskAccepted } from "@/lib/tasks/schemas";
import { submitAnalysisTasks } from "@/lib/tasks/submit";
import { sanitizeText } from "@/lib/log/sanitize";
import { AnalysisFailedError, runAnalysis } from "./pipeline";
import { planAnalysis } from "./request";
import type { TAnalysisResultResponse, TAnalyzeRequest } from "./schemas";

/**
 * POST /api/v1/analysis/analyze. Sync mode (spec 4.2 rule 6): exactly one target, analysed inline → 200.
 * Async mode (rules 7–9): one queued task per target → 202 TaskAccepted or BatchTaskAcceptedResponse.
 */
export type AnalyzeOutcome =
  | { status: 200; body: TAnalysisResultResponse }
  | { status: 202; body: TTaskAccepted | TBatchTaskAcceptedResponse };

export async function analyzeRequest(
  request: TAnalyzeRequest,
  traceId: string,
  signal?: AbortSignal,
): Promise<AnalyzeOutcome> {
  await ensureStockListNameSource();
  const plan = planAnalysis(request);
  if (request.async_mode) {
    const submission = await submitAnalysisTasks(request, plan, traceId);
    return { status: 202, body: submission.body };
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
      forceRefresh: request.force_refresh,
      skills: request.skills,
      signal,
    });
    // Fire-and-forget: the response never waits on, or fails with, a notification.
    if (request.notify) notifyAnalysisCompleted(record, report);
    prerenderShareImage(record.id);
    return {
      status: 200,
      body: {
        query_id: record.queryId,
        trace_id: traceId,
        stock_code: record.displayCode,
        stock_name: record.stockName,
        report,
        diagnostic_summary: diagnostics,
        created_at: record.createdAt.toISOString(),
      },
    };
  } catch (error) {
    if (error instanceof AnalysisFailedError) {
      // The reason's code and params let a client word the failure in its own language (as for a rejected token).
      const reason = error.reason
        ? { stock_code: target.displayCode, reason_code: error.reason.code, reason_params: error.reason.params }
        : {};
      throw ApiError.of("analysis_failed", sanitizeText(error.message), reason);
    }
    throw error;
  }
}
