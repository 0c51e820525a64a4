import { defineOperation, type Operation } from "@/lib/operation/operation";
import { ZScheduledRun, ZSchedulerStatus, ZSchedulerStatusQuery } from "./schemas";

const TAGS = ["System"];
const SCHEDULE =
  "Beyond the spec (the reference's scheduler). With SCHEDULE_ENABLED the service queues, once per day at SCHEDULE_TIME " +
  "(HH:MM in SERVICE_TIMEZONE), one async analysis per STOCK_LIST entry (report depth REPORT_TYPE, notify on) and, with " +
  "MARKET_REVIEW_ENABLED, a market review of MARKET_REVIEW_REGION. Each slot runs once, across restarts and processes " +
  "sharing the database; a slot missed while the service was down runs when it starts within SCHEDULE_CATCH_UP_MINUTES. " +
  "With TRADING_DAY_CHECK_ENABLED, stocks whose exchange is closed on its local day (weekend or exchange holiday) are skipped. " +
  "Entries still pending or processing from an earlier run are reported as duplicates, not queued twice.";

export const getSchedulerStatusOp = defineOperation({
  method: "GET",
  path: "/api/v1/system/scheduler/status",
  operationId: "getSchedulerStatus",
  summary: "The daily schedule: settings in effect, next slot, recent runs",
  description: SCHEDULE,
  tags: TAGS,
  query: ZSchedulerStatusQuery,
  responses: { 200: { description: "Schedule and recent runs (newest first)", schema: ZSchedulerStatus } },
});

export const runSchedulerNowOp = defineOperation({
  method: "POST",
  path: "/api/v1/system/scheduler/run-now",
  operationId: "runSchedulerNow",
  summary: "Queue the watchlist (and the market review) now",
  description:
    `${SCHEDULE} Run-now does the same as a slot, whether or not the schedule is enabled, and does not use up the day's slot. ` +
    "The answer lists what was queued; the analyses themselves run in the background (see /analysis/tasks).",
  tags: TAGS,
  responses: {
    202: { description: "The run: tasks queued, duplicates, rejected and skipped entries", schema: ZScheduledRun },
  },
});

export const SCHEDULE_OPERATIONS: readonly Operation[] = [getSchedulerStatusOp, runSchedulerNowOp];
