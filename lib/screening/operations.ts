import { z } from "zod";
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
  ZScheduledLatestQuery,
  ZScheduledLatestResponse,
  ZScreenRequest,
  ZScreenResponse,
  ZSourceHistoryQuery,
  ZSourceHistoryResponse,
  ZScreeningStrategyItem,
  ZStrategiesQuery,
  ZStrategiesResponse,
  ZStrategyParams,
} from "./schemas";
import { ZHotspotDetail, ZHotspotParams, ZHotspotsQuery, ZHotspotsResponse } from "./hotspots";
import { ZStrategy } from "./strategy-schema";

const TAGS = ["Screening"];
const STRATEGY_NOT_FOUND = {
  description: "not_found (reason_code strategy_not_found): no strategy has this id",
  schema: ZErrorResponse,
};
const SCREENING_OFF = {
  description: "service_unavailable (reason_code screening_disabled): SCREENING_ENABLED=false",
  schema: ZErrorResponse,
};

export const listStrategiesOp = defineOperation({
  method: "GET",
  path: "/api/v1/screening/strategies",
  operationId: "listScreeningStrategies",
  summary: "The screening strategies, each explained in one sentence",
  tags: TAGS,
  query: ZStrategiesQuery,
  responses: { 200: { description: "Every strategy with its filters and ranking", schema: ZStrategiesResponse } },
});

const STRATEGY_RULES =
  "A strategy is filters (gte/lte on one figure; a figure the history is too short for fails its filter) and one " +
  "ranking figure, with a name and a one-sentence description in zh and en. Its id must not be a built-in one.";

export const saveStrategyOp = defineOperation({
  method: "POST",
  path: "/api/v1/screening/strategies",
  operationId: "saveScreeningStrategy",
  summary: "Save a strategy of your own",
  description: `${STRATEGY_RULES} At most 100 are kept.`,
  tags: TAGS,
  query: ZStrategiesQuery,
  body: ZStrategy,
  responses: {
    201: { description: "Saved", schema: ZScreeningStrategyItem },
    400: { description: "validation_error: 100 strategies are saved already", schema: ZErrorResponse },
    409: { description: "conflict: the id is a built-in strategy's or is saved already", schema: ZErrorResponse },
  },
});

export const replaceStrategyOp = defineOperation({
  method: "PUT",
  path: "/api/v1/screening/strategies/{strategy_id}",
  operationId: "replaceScreeningStrategy",
  summary: "Replace a saved strategy",
  description: STRATEGY_RULES,
  tags: TAGS,
  params: ZStrategyParams,
  query: ZStrategiesQuery,
  body: ZStrategy,
  responses: {
    200: { description: "Replaced", schema: ZScreeningStrategyItem },
    400: {
      description: "not_changeable: a built-in strategy; validation_error: the body's id is not the path's",
      schema: ZErrorResponse,
    },
    404: { description: "not_found: no saved strategy has this id", schema: ZErrorResponse },
  },
});

export const deleteStrategyOp = defineOperation({
  method: "DELETE",
  path: "/api/v1/screening/strategies/{strategy_id}",
  operationId: "deleteScreeningStrategy",
  summary: "Delete a saved strategy (its stored runs stay)",
  tags: TAGS,
  params: ZStrategyParams,
  responses: {
    200: { description: "Deleted", schema: z.object({ deleted: z.number().int() }) },
    400: { description: "not_changeable: a built-in strategy", schema: ZErrorResponse },
    404: { description: "not_found: no saved strategy has this id", schema: ZErrorResponse },
  },
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
    404: STRATEGY_NOT_FOUND,
    503: SCREENING_OFF,
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
    404: STRATEGY_NOT_FOUND,
    503: SCREENING_OFF,
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

export const scheduledLatestOp = defineOperation({
  method: "GET",
  path: "/api/v1/screening/scheduled-latest",
  operationId: "getScheduledScreening",
  summary: "The newest completed run the daily schedule queued (SCREENING_SCHEDULE_STRATEGIES)",
  tags: TAGS,
  query: ZScheduledLatestQuery,
  responses: { 200: { description: "available false when none has completed", schema: ZScheduledLatestResponse } },
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

export const hotspotsOp = defineOperation({
  method: "GET",
  path: "/api/v1/screening/hotspots",
  operationId: "listScreeningHotspots",
  summary: "Hot sectors (industry and concept boards); none yet, and source_errors says why per source",
  tags: TAGS,
  query: ZHotspotsQuery,
  responses: {
    200: { description: "The boards (none until a board-list source is served) and why", schema: ZHotspotsResponse },
    503: SCREENING_OFF,
  },
});

export const hotspotOp = defineOperation({
  method: "GET",
  path: "/api/v1/screening/hotspots/{topic}",
  operationId: "getScreeningHotspot",
  summary: "One hot sector with its stocks",
  tags: TAGS,
  params: ZHotspotParams,
  responses: {
    200: { description: "The board and its stocks", schema: ZHotspotDetail },
    404: { description: "not_found (reason_code hotspot_not_found): no such board", schema: ZErrorResponse },
    503: SCREENING_OFF,
  },
});

export const SCREENING_OPERATIONS: readonly Operation[] = [
  listStrategiesOp,
  saveStrategyOp,
  replaceStrategyOp,
  deleteStrategyOp,
  screenOp,
  screenTaskOp,
  screenTaskStatusOp,
  scheduledLatestOp,
  screeningHistoryOp,
  screeningRunOp,
  screeningSourceHistoryOp,
  hotspotsOp,
  hotspotOp,
];
