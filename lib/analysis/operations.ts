import { ZErrorResponse } from "@/lib/http/schemas";
import { defineOperation } from "@/lib/openapi/operation";
import { ZAnalysisResultResponse, ZAnalyzeRequest } from "./schemas";

export const analyzeOp = defineOperation({
  method: "POST",
  path: "/api/v1/analysis/analyze",
  operationId: "analyze",
  summary: "Analyse one code synchronously (the report is returned) or queue several asynchronously",
  description:
    "Tokens come from stock_code then stock_codes (at most 50 non-blank, counted before dedup). Each is resolved " +
    "(codes of A-share/HK/US stocks, registered indices, names), deduplicated keeping the first occurrence. " +
    "Sync mode accepts exactly one target. report_type brief/simple returns the conclusion and price levels; " +
    "detailed/full add the dashboard, indicators and checklist.",
  tags: ["Analysis"],
  body: ZAnalyzeRequest,
  responses: {
    200: { description: "Sync analysis finished: the stored report", schema: ZAnalysisResultResponse },
    400: { description: "validation_error: no code, more than 50 tokens, unresolvable or unsupported target, several codes in sync mode", schema: ZErrorResponse },
    500: { description: "analysis_failed (with the failure text) or internal_error", schema: ZErrorResponse },
    503: { description: "async_mode is not available on this server yet", schema: ZErrorResponse },
  },
});
