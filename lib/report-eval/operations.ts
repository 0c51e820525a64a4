import { ZErrorResponse } from "@/lib/errors/schemas";
import { defineOperation, type Operation } from "@/lib/operation/operation";
import {
  ZReportEvalCodeParams,
  ZReportEvalPerformance,
  ZReportEvalPerformanceQuery,
  ZReportEvalResultsQuery,
  ZReportEvalResultsResponse,
  ZReportEvalRunRequest,
  ZReportEvalRunResponse,
} from "./schemas";

const TAGS = ["Report backtest"];
const NO_DATA = {
  description: "not_found: nothing evaluated in this scope (the reference client shows its empty card)",
  schema: ZErrorResponse,
};

export const runReportBacktestOp = defineOperation({
  method: "POST",
  path: "/api/v1/backtest/run",
  operationId: "runReportBacktest",
  summary: "Evaluate stored reports against the bars that followed them",
  description:
    "For stored stock reports at least min_age_days old (one code, or all), takes the close of the report's price date as the " +
    "anchor and measures the next eval_window_days trading days with the decision-signal-v1 outcome engine: the stock's move, " +
    "whether it agreed with the report's direction (win/loss/neutral with the ±2 % band), whether the report's stop or target " +
    "was touched, and a simulated position (long for buy/add/hold from the anchor close to the stop, target or window end; cash " +
    "for reduce/sell/avoid/watch). Rows are stored per report, window and engine version; completed rows are kept unless force, " +
    "insufficient ones (too recent) are retried. This judges what DSA actually said; /api/v1/backtests replays the rules.",
  tags: TAGS,
  body: ZReportEvalRunRequest,
  responses: { 200: { description: "Counts of this run", schema: ZReportEvalRunResponse } },
});

export const listReportBacktestResultsOp = defineOperation({
  method: "GET",
  path: "/api/v1/backtest/results",
  operationId: "listReportBacktestResults",
  summary: "Evaluated reports, newest analysis date first",
  tags: TAGS,
  query: ZReportEvalResultsQuery,
  responses: { 200: { description: "One page of evaluations", schema: ZReportEvalResultsResponse } },
});

export const reportBacktestPerformanceOp = defineOperation({
  method: "GET",
  path: "/api/v1/backtest/performance",
  operationId: "reportBacktestPerformance",
  summary: "How the stored reports did, overall",
  tags: TAGS,
  query: ZReportEvalPerformanceQuery,
  responses: {
    200: { description: "Counts, rates and mean returns of the evaluations in scope", schema: ZReportEvalPerformance },
    404: NO_DATA,
  },
});

export const reportBacktestStockPerformanceOp = defineOperation({
  method: "GET",
  path: "/api/v1/backtest/performance/{code}",
  operationId: "reportBacktestStockPerformance",
  summary: "How the stored reports of one stock did",
  tags: TAGS,
  params: ZReportEvalCodeParams,
  query: ZReportEvalPerformanceQuery,
  responses: {
    200: { description: "Counts, rates and mean returns of the stock's evaluations", schema: ZReportEvalPerformance },
    404: NO_DATA,
  },
});

export const REPORT_BACKTEST_OPERATIONS: readonly Operation[] = [
  runReportBacktestOp,
  listReportBacktestResultsOp,
  reportBacktestPerformanceOp,
  reportBacktestStockPerformanceOp,
];
