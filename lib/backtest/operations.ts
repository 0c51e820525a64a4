import { ZErrorResponse, ZValidationErrorResponse } from "@/lib/errors/schemas";
import { defineOperation, type Operation } from "@/lib/operation/operation";
import {
  ZBacktestAccepted,
  ZBacktestDeleted,
  ZBacktestIdParams,
  ZBacktestRequest,
  ZBacktestRun,
  ZCallsPage,
  ZCallsQuery,
  ZRunsPage,
  ZRunsQuery,
  ZSeriesResponse,
} from "./schemas";

const TAGS = ["Backtests"];
const UNAUTHORIZED = {
  description: "Admin auth is enabled and the admin session is missing or invalid",
  schema: ZErrorResponse,
};
const NOT_FOUND = { description: "not_found: no backtest has this id", schema: ZErrorResponse };
const INVALID = { description: "Malformed parameters", schema: ZValidationErrorResponse };

export const createBacktestOp = defineOperation({
  method: "POST",
  path: "/api/v1/backtests",
  operationId: "createBacktest",
  summary: "Queue a walk-forward backtest of the rule engine on one stock",
  description:
    "On every step-th trading day d of the stock's daily bars (from the provider chain, csv included) between start_date and " +
    "end_date, the rule engine decides from the bars dated ≤ d only (the last 250, as an analysis would; no quote, news or " +
    "LLM). Each call is judged per horizon by the decision-signal-v1 outcome engine with neutral_band_pct. The run is a task " +
    "of the durable queue (kind backtest, task id = backtest_id): task_progress events on /api/v1/analysis/tasks/stream, and " +
    "it survives restarts.",
  tags: TAGS,
  body: ZBacktestRequest,
  responses: {
    202: { description: "Queued", schema: ZBacktestAccepted },
    400: { description: "validation_error: the target cannot be resolved or is rejected", schema: ZErrorResponse },
    401: UNAUTHORIZED,
    422: INVALID,
  },
});

export const listBacktestsOp = defineOperation({
  method: "GET",
  path: "/api/v1/backtests",
  operationId: "listBacktests",
  summary: "Backtest runs, newest first (without summaries)",
  tags: TAGS,
  query: ZRunsQuery,
  responses: { 200: { description: "One page of runs", schema: ZRunsPage }, 401: UNAUTHORIZED, 422: INVALID },
});

export const getBacktestOp = defineOperation({
  method: "GET",
  path: "/api/v1/backtests/{backtest_id}",
  operationId: "getBacktest",
  summary: "One backtest run: status, progress and, once completed, the summary",
  tags: TAGS,
  params: ZBacktestIdParams,
  responses: { 200: { description: "The run", schema: ZBacktestRun }, 401: UNAUTHORIZED, 404: NOT_FOUND },
});

export const deleteBacktestOp = defineOperation({
  method: "DELETE",
  path: "/api/v1/backtests/{backtest_id}",
  operationId: "deleteBacktest",
  summary: "Delete a backtest run and its calls",
  tags: TAGS,
  params: ZBacktestIdParams,
  responses: { 200: { description: "Deleted", schema: ZBacktestDeleted }, 401: UNAUTHORIZED, 404: NOT_FOUND },
});

export const listBacktestCallsOp = defineOperation({
  method: "GET",
  path: "/api/v1/backtests/{backtest_id}/calls",
  operationId: "listBacktestCalls",
  summary: "The run's calls, oldest first, with their outcome per horizon",
  tags: TAGS,
  params: ZBacktestIdParams,
  query: ZCallsQuery,
  responses: {
    200: { description: "One page of calls", schema: ZCallsPage },
    401: UNAUTHORIZED,
    404: NOT_FOUND,
    422: INVALID,
  },
});

export const getBacktestSeriesOp = defineOperation({
  method: "GET",
  path: "/api/v1/backtests/{backtest_id}/series",
  operationId: "getBacktestSeries",
  summary: "The tested span's daily bars with the strategy and buy-and-hold equity (1 = the first call's close)",
  description: "Empty until the run has completed.",
  tags: TAGS,
  params: ZBacktestIdParams,
  responses: { 200: { description: "Bars and equity", schema: ZSeriesResponse }, 401: UNAUTHORIZED, 404: NOT_FOUND },
});

export const BACKTEST_OPERATIONS: readonly Operation[] = [
  createBacktestOp,
  listBacktestsOp,
  getBacktestOp,
  deleteBacktestOp,
  listBacktestCallsOp,
  getBacktestSeriesOp,
];
