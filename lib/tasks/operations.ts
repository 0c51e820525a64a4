import { ZRunFlowSnapshot } from "@/lib/analysis/run-schemas";
import { ZErrorResponse } from "@/lib/errors/schemas";
import { defineOperation, type Operation } from "@/lib/operation/operation";
import {
  ZMarketReviewAccepted,
  ZMarketReviewRequest,
  ZTaskIdParams,
  ZTaskListQuery,
  ZTaskListResponse,
  ZTaskStatus,
} from "./schemas";

const TAGS = ["Analysis"];
const RETENTION =
  "Finished tasks stay in the queue view for TASK_RETENTION_MINUTES (default 10); after that the task id is read as " +
  "the query_id of the stored history record. Tasks are stored in the database: a restart re-queues pending and " +
  "processing ones. Status values: pending, processing, completed, failed; cancel_requested and cancelled belong to " +
  "the vocabulary of spec 3.1 but no operation of this service cancels a task.";

export const listTasksOp = defineOperation({
  method: "GET",
  path: "/api/v1/analysis/tasks",
  operationId: "listAnalysisTasks",
  summary: "The task queue: newest first, limit applied before the status filter",
  description: `total counts the whole queue view, pending and processing the whole queue. ${RETENTION}`,
  tags: TAGS,
  query: ZTaskListQuery,
  responses: { 200: { description: "Queue counters and tasks", schema: ZTaskListResponse } },
});

export const taskStreamOp = defineOperation({
  method: "GET",
  path: "/api/v1/analysis/tasks/stream",
  operationId: "streamAnalysisTasks",
  summary: "Server-Sent Events of the task queue",
  description:
    "Events: connected ({message}); task_created once per pending or processing task, then for each new task; " +
    "task_started, task_progress, task_completed, task_failed (data: TaskInfo); heartbeat ({timestamp}) after " +
    "SSE_HEARTBEAT_SECONDS (default 30) without events. Wire format per event: `event: <type>`, `data: <JSON>`, blank " +
    "line. A client that leaves more than 1000 events unread is disconnected (EventSource reconnects).",
  tags: TAGS,
  responses: { 200: { description: "text/event-stream", contentType: "text/event-stream" } },
});

export const getTaskFlowOp = defineOperation({
  method: "GET",
  path: "/api/v1/analysis/tasks/{task_id}/flow",
  operationId: "getAnalysisTaskFlow",
  summary: "Run flow of a task: live skeleton, the stored flow once completed, or history by query_id",
  tags: TAGS,
  params: ZTaskIdParams,
  responses: {
    200: { description: "Run flow snapshot", schema: ZRunFlowSnapshot },
    404: { description: "not_found: no such task and no history record with that query_id", schema: ZErrorResponse },
  },
});

export const getTaskStatusOp = defineOperation({
  method: "GET",
  path: "/api/v1/analysis/status/{task_id}",
  operationId: "getAnalysisTaskStatus",
  summary: "Status of a task; a completed stock task carries its result, a market review its text and payload",
  description: RETENTION,
  tags: TAGS,
  params: ZTaskIdParams,
  responses: {
    200: { description: "Task status", schema: ZTaskStatus },
    404: { description: "not_found", schema: ZErrorResponse },
  },
});

export const marketReviewOp = defineOperation({
  method: "POST",
  path: "/api/v1/analysis/market-review",
  operationId: "runMarketReview",
  summary: "Queue a market review (indices, breadth, sectors, news) as a background task",
  description:
    "The task's stock_code is market_review; the result is stored as a history record with report_type market_review " +
    "and code MARKET whose query_id is the task id. One review at a time: a second request while one is pending or " +
    "running gets 409 duplicate_market_review. Runs on non-trading days too.",
  tags: TAGS,
  body: ZMarketReviewRequest,
  bodyRequired: false,
  responses: {
    202: { description: "Accepted", schema: ZMarketReviewAccepted },
    409: { description: "duplicate_market_review", schema: ZErrorResponse },
    500: { description: "internal_error: the task could not be stored", schema: ZErrorResponse },
  },
});

export const TASK_OPERATIONS: readonly Operation[] = [
  listTasksOp,
  taskStreamOp,
  getTaskFlowOp,
  getTaskStatusOp,
  marketReviewOp,
];
