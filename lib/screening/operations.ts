import { ZErrorResponse } from "@/lib/errors/schemas";
import { defineOperation, type Operation } from "@/lib/operation/operation";
import {
  ZHistoryQuery,
  ZHistoryResponse,
  ZRunDetail,
  ZRunParams,
  ZScreenTaskAccepted,
  ZScreenTaskParams,
  ZScreenTaskStatus,
  ZScreenRequest,
  ZScreenResponse,
  ZSourceHistoryQuery,
  ZSourceHistoryResponse,
  ZStrategiesQuery,
  ZStrategiesResponse,
} from "./schemas";

const TAGS = ["Screening"];

export const listStrategiesOp = defineOperation({
  method: "GET",
  path: "/api/v1/screening/strategies",
  operationId: "listScreeningStrategies",
  summary: "The screening strategies, each explained in one sentence",
  tags: TAGS,
  query: ZStrategiesQuery,
  responses: { 200: { description: "Every strategy with its filters and ranking", schema: ZStrategiesResponse } },
});

export const screenOp = defineOperation({
  method: "POST",
  path: "/api/v1/screening/screen",
  operationId: "runScreening",
  summary: "Screen a market with one strategy and store the run",
  description:
    "Lists the market's universe from the sources the chain lists (Eastmoney's 300 most-traded, or its last good list; " +
    "the sample catalogue; the CSV folder), reads " +
    "each stock's daily bars through the bar cache, computes the strategy's figures and keeps the stocks that pass " +
    "every filter, ordered by the ranking metric. Each candidate names the figure that passed each filter. A stock " +
    "whose bars cannot be read is left out and named in source_errors; quality_score is the share of the universe read.",
  tags: TAGS,
  body: ZScreenRequest,
  responses: {
    200: { description: "The stored run", schema: ZScreenResponse },
    400: { description: "validation_error: the strategy does not cover the market", schema: ZErrorResponse },
    404: { description: "not_found (reason_code strategy_not_found): no strategy has this id", schema: ZErrorResponse },
    503: {
      description: "service_unavailable (reason_code screening_disabled): SCREENING_ENABLED=false",
      schema: ZErrorResponse,
    },
  },
});

export const screenTaskOp = defineOperation({
  method: "POST",
  path: "/api/v1/screening/screen/tasks",
  operationId: "queueScreening",
  summary: "Queue a screening run on the durable task queue",
  description:
    "The run survives a restart, shows its progress on the task stream (task_kind screening) and is stored under the " +
    "task's id as its run_id, once. GET /screening/screen/tasks/{task_id} follows it.",
  tags: TAGS,
  body: ZScreenRequest,
  responses: {
    202: { description: "Queued", schema: ZScreenTaskAccepted },
    404: { description: "not_found (reason_code strategy_not_found): no strategy has this id", schema: ZErrorResponse },
    503: {
      description: "service_unavailable (reason_code screening_disabled): SCREENING_ENABLED=false",
      schema: ZErrorResponse,
    },
  },
});

export const screenTaskStatusOp = defineOperation({
  method: "GET",
  path: "/api/v1/screening/screen/tasks/{task_id}",
  operationId: "getScreeningTask",
  summary: "A queued screening run: its status, progress and, once completed, its result",
  tags: TAGS,
  params: ZScreenTaskParams,
  responses: {
    200: { description: "The task and, when completed, the stored run", schema: ZScreenTaskStatus },
    404: { description: "not_found: no screening task has this id", schema: ZErrorResponse },
  },
});

export const screeningHistoryOp = defineOperation({
  method: "GET",
  path: "/api/v1/screening/history",
  operationId: "listScreeningRuns",
  summary: "Stored screening runs, newest first",
  tags: TAGS,
  query: ZHistoryQuery,
  responses: { 200: { description: "Run summaries", schema: ZHistoryResponse } },
});

export const screeningRunOp = defineOperation({
  method: "GET",
  path: "/api/v1/screening/history/{run_id}",
  operationId: "getScreeningRun",
  summary: "One stored screening run with its candidates",
  tags: TAGS,
  params: ZRunParams,
  responses: {
    200: { description: "The run summary and its whole answer", schema: ZRunDetail },
    404: { description: "not_found: no run has this id", schema: ZErrorResponse },
  },
});

export const screeningSourceHistoryOp = defineOperation({
  method: "GET",
  path: "/api/v1/screening/source-history",
  operationId: "getScreeningSourceHistory",
  summary: "Per universe source over the latest runs: runs listed from it and its errors",
  tags: TAGS,
  query: ZSourceHistoryQuery,
  responses: { 200: { description: "Per-source counts", schema: ZSourceHistoryResponse } },
});

export const SCREENING_OPERATIONS: readonly Operation[] = [
  listStrategiesOp,
  screenOp,
  screenTaskOp,
  screenTaskStatusOp,
  screeningHistoryOp,
  screeningRunOp,
  screeningSourceHistoryOp,
];
