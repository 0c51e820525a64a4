import { ZErrorResponse } from "@/lib/errors/schemas";
import { defineOperation } from "@/lib/operation/operation";
import { ZBatchTaskAcceptedResponse, ZDuplicateTaskError, ZTaskAccepted } from "@/lib/tasks/schemas";
import { z } from "zod";
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
    400: {
      description:
        "validation_error: no code, more than 50 tokens, unresolvable or unsupported target, several codes in sync mode. A rejected token also gives stock_code, reason_code and reason_params (beyond the spec)",
      schema: ZErrorResponse,
    },
    202: {
      description:
        "async_mode: TaskAccepted when exactly one target remains and nothing was rejected, else BatchTaskAcceptedResponse " +
        "(accepted, duplicates, and rejected only when any; batch duplicates never give 409)",
      schema: z.union([ZTaskAccepted, ZBatchTaskAcceptedResponse]),
    },
    409: {
      description: "duplicate_task: the single async target already has a pending or processing task (body sent flat)",
      schema: ZDuplicateTaskError,
    },
    500: { description: "analysis_failed (with the failure text) or internal_error", schema: ZErrorResponse },
  },
});
