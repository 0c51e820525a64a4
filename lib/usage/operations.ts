import { defineOperation, type Operation } from "@/lib/operation/operation";
import {
  ZUsageDailyQuery,
  ZUsageDailyResponse,
  ZUsageDashboardQuery,
  ZUsageDashboardResponse,
  ZUsageSummaryQuery,
  ZUsageSummaryResponse,
} from "./schemas";

const TAGS = ["Usage"];
const PERIODS =
  "Periods are counted in the service time zone (setting SERVICE_TIMEZONE, default Asia/Shanghai): today runs from " +
  "local 00:00, month from the local 1st at 00:00, all has no bound; a call at 23:30 UTC on the last day of a month " +
  "is in the next month in Shanghai. Every recorded LLM call counts, failed ones included; a rule-based analysis " +
  "makes no LLM call and so uses no tokens.";

export const getUsageSummaryOp = defineOperation({
  method: "GET",
  path: "/api/v1/usage/summary",
  operationId: "getUsageSummary",
  summary: "LLM token use of a period: totals, by call type and by model",
  description: PERIODS,
  tags: TAGS,
  query: ZUsageSummaryQuery,
  responses: {
    200: { description: "Token use of the period (zeros when nothing was recorded)", schema: ZUsageSummaryResponse },
  },
});

export const getUsageDashboardOp = defineOperation({
  method: "GET",
  path: "/api/v1/usage/dashboard",
  operationId: "getUsageDashboard",
  summary: "The usage summary plus the period's most recent calls",
  description: `${PERIODS} recent_calls lists the period's latest calls, newest first (limit 1-200, default 50).`,
  tags: TAGS,
  query: ZUsageDashboardQuery,
  responses: { 200: { description: "Totals, breakdowns and recent calls", schema: ZUsageDashboardResponse } },
});

export const getUsageDailyOp = defineOperation({
  method: "GET",
  path: "/api/v1/usage/daily",
  operationId: "getUsageDaily",
  summary: "Tokens per day for the last days (beyond the spec: feeds the usage chart)",
  description:
    "One entry per local day of the service time zone (setting SERVICE_TIMEZONE, default Asia/Shanghai), oldest " +
    "first, ending today; days without calls are zeros.",
  tags: TAGS,
  query: ZUsageDailyQuery,
  responses: { 200: { description: "Tokens per local day", schema: ZUsageDailyResponse } },
});

/** The usage operations, for lib/openapi/operations.ts. */
export const USAGE_OPERATIONS: readonly Operation[] = [getUsageSummaryOp, getUsageDashboardOp, getUsageDailyOp];
