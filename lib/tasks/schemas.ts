import { z } from "zod";
import { ANALYSIS_PHASES, SELECTION_SOURCES, ZAnalysisResultResponse } from "@/lib/analysis/schemas";
import { ZRejectionCode, ZResolvedSymbol } from "@/lib/market/symbols/schemas";

// Spec 3.1: the task-info schema enumerates only the first four; the cancel states exist in the spec's
// vocabulary but no operation of ours moves a task into them (documented in OpenAPI).
export const TASK_STATUSES = ["pending", "processing", "completed", "failed", "cancel_requested", "cancelled"] as const;
export type TTaskStatusValue = (typeof TASK_STATUSES)[number];
export const ACTIVE_STATUSES = ["pending", "processing"] as const;
export const TASK_LIST_LIMIT = { min: 1, max: 100, default: 20 } as const;

export const MARKET_REVIEW_CODE = "market_review";
export const TASK_KINDS = ["analysis", "market_review", "backtest", "screening", "bot"] as const;
export type TTaskKind = (typeof TASK_KINDS)[number];
export const REVIEW_REGIONS = ["cn", "hk", "us", "both"] as const;
export type TReviewRegion = (typeof REVIEW_REGIONS)[number];

const ZAssetType = z.enum(["stock", "index"]);

// Spec 2.4 TaskInfo.
export const ZTaskInfo = z
  .object({
    task_id: z.string(),
    stock_code: z.string(),
    status: z.enum(TASK_STATUSES),
    created_at: z.string(),
    trace_id: z.string().nullish(),
    stock_name: z.string().nullish(),
    progress: z.number().int().min(0).max(100),
    message: z.string().nullish(),
    report_type: z.enum(["simple", "detailed"]).nullish(),
    started_at: z.string().nullish(),
    completed_at: z.string().nullish(),
    error: z.string().nullish(),
    error_code: z
      .string()
      .nullish()
      .describe(
        "Why it failed, as a code a UI words in its language (market_data_unavailable, not_in_local_data, ...)",
      ),
    error_params: z.record(z.string(), z.string()).nullish().describe("The values the error_code's sentence names"),
    original_query: z.string().nullish(),
    selection_source: z.string().nullish(),
    analysis_phase: z.enum(ANALYSIS_PHASES).default("auto"),
    skills: z.array(z.string()).nullish(),
    region: z.string().nullish(),
    asset_type: ZAssetType.nullish(),
    task_kind: z
      .enum(TASK_KINDS)
      .nullish()
      .describe("Ours: what the task runs (a backtest's task id is its backtest_id)"),
    stock_names: z
      .object({ zh: z.string().nullable(), en: z.string().nullable() })
      .nullish()
      .describe("Ours: the target's Chinese and English names from the symbol tables, for a UI in either language"),
  })
  .meta({ id: "TaskInfo" });
export type TTaskInfo = z.infer<typeof ZTaskInfo>;

export const ZTaskListResponse = z
  .object({
    total: z
      .number()
      .int()
      .describe("Tasks in the queue view: pending, processing, and finished within the retention window"),
    pending: z.number().int(),
    processing: z.number().int(),
    tasks: z.array(ZTaskInfo),
  })
  .meta({ id: "TaskListResponse" });
export type TTaskListResponse = z.infer<typeof ZTaskListResponse>;

export const ZTaskStatus = z
  .object({
    task_id: z.string(),
    trace_id: z.string().nullish(),
    status: z.enum(TASK_STATUSES),
    progress: z.number().int().min(0).max(100),
    result: ZAnalysisResultResponse.nullable(),
    market_review_report: z.string().nullable(),
    market_review_payload: z.record(z.string(), z.unknown()).nullable(),
    region: z.string().nullish(),
    error: z.string().optional().describe("Only when failed"),
    stock_name: z.string().nullish(),
    original_query: z.string().nullish(),
    selection_source: z.string().nullish(),
    analysis_phase: z.enum(ANALYSIS_PHASES).nullish(),
    skills: z.array(z.string()).nullish(),
  })
  .meta({ id: "TaskStatus" });
export type TTaskStatus = z.infer<typeof ZTaskStatus>;

// Spec 2.3 async responses.
export const ZTaskAccepted = z
  .object({
    task_id: z.string(),
    trace_id: z.string().nullish(),
    status: z.enum(ACTIVE_STATUSES),
    message: z.string().nullish(),
    analysis_phase: z.enum(ANALYSIS_PHASES).default("auto"),
  })
  .meta({ id: "TaskAccepted" });
export type TTaskAccepted = z.infer<typeof ZTaskAccepted>;

export const ZBatchTaskAcceptedItem = z
  .object({
    task_id: z.string(),
    trace_id: z.string().nullish(),
    stock_code: z.string(),
    status: z.enum(ACTIVE_STATUSES),
    message: z.string().nullish(),
    analysis_phase: z.enum(ANALYSIS_PHASES).default("auto"),
    asset_type: ZAssetType.nullish(),
  })
  .meta({ id: "BatchTaskAcceptedItem" });

export const ZBatchDuplicateTaskItem = z
  .object({ stock_code: z.string(), existing_task_id: z.string(), message: z.string() })
  .meta({ id: "BatchDuplicateTaskItem" });

export const ZRejectedTaskItem = z
  .object({
    stock_code: z.string(),
    message: z.string().describe("Why, in English"),
    token: z.string().describe("The raw token as sent (the reference's newer client reads token and reason)"),
    reason: z.string().describe("The same as message, under the reference's newer name"),
    reason_code: ZRejectionCode.optional().describe(
      "The same as a code (beyond the spec), for clients that word it in another language",
    ),
    reason_params: z.record(z.string(), z.string()).optional().describe("The values the reason names"),
  })
  .meta({ id: "RejectedTaskItem" });

export const ZBatchTaskAcceptedResponse = z
  .object({
    accepted: z.array(ZBatchTaskAcceptedItem),
    duplicates: z.array(ZBatchDuplicateTaskItem),
    rejected: z.array(ZRejectedTaskItem).nullish().describe("Absent when nothing was rejected"),
    message: z.string(),
  })
  .meta({ id: "BatchTaskAcceptedResponse" });
export type TBatchTaskAcceptedResponse = z.infer<typeof ZBatchTaskAcceptedResponse>;

export const ZDuplicateTaskError = z
  .object({
    error: z.literal("duplicate_task"),
    message: z.string(),
    stock_code: z.string(),
    existing_task_id: z.string(),
  })
  .meta({ id: "DuplicateTaskError" });

// Spec 2.5 with docs/api.md §7 types.
export const ZMarketReviewRequest = z
  .object({
    region: z
      .string()
      .trim()
      .toLowerCase()
      .pipe(z.enum(REVIEW_REGIONS))
      .nullish()
      .describe("cn, hk, us, or both (cn + us); default MARKET_REVIEW_REGION, else cn"),
    send_notification: z.boolean().default(true),
    report_language: z
      .string()
      .max(16)
      .nullish()
      .describe("zh or en (aliases as for analyze); default REPORT_LANGUAGE"),
  })
  .meta({ id: "MarketReviewRequest" });
export type TMarketReviewRequest = z.infer<typeof ZMarketReviewRequest>;

export const ZMarketReviewAccepted = z
  .object({
    status: z.literal("accepted"),
    message: z.string(),
    send_notification: z.boolean(),
    region: z.enum(REVIEW_REGIONS),
    task_id: z.string(),
    trace_id: z.string().nullish(),
  })
  .meta({ id: "MarketReviewAccepted" });
export type TMarketReviewAccepted = z.infer<typeof ZMarketReviewAccepted>;

export const ZTaskListQuery = z.object({
  status: z.string().max(200).optional().describe("Comma-separated statuses, case-insensitive"),
  limit: z.coerce.number().int().min(TASK_LIST_LIMIT.min).max(TASK_LIST_LIMIT.max).default(TASK_LIST_LIMIT.default),
});
export type TTaskListQuery = z.infer<typeof ZTaskListQuery>;

export const ZTaskIdParams = z.object({ task_id: z.string().min(1).max(128) });

/** What a queued analysis needs to run after a restart: the resolved target and the request's options. */
export const ZStoredTaskRequest = z.object({
  target: ZResolvedSymbol.optional(),
  stockName: z.string().nullish(),
  reportType: z.enum(["simple", "detailed", "full", "brief"]).optional(),
  language: z.string().nullish(),
  phase: z.enum(ANALYSIS_PHASES).optional(),
  notify: z.boolean().optional(),
  forceRefresh: z.boolean().optional(),
  region: z.enum(REVIEW_REGIONS).optional(),
  sendNotification: z.boolean().optional(),
});
export type TStoredTaskRequest = z.infer<typeof ZStoredTaskRequest>;

export const ZSelectionSource = z.enum(SELECTION_SOURCES);
