import { AGENT_OPERATIONS } from "@/lib/agent/operations";
import { ALERT_OPERATIONS } from "@/lib/alerts/operations";
import { BACKTEST_OPERATIONS } from "@/lib/backtest/operations";
import { analyzeOp } from "@/lib/analysis/operations";
import {
  API_TOKEN_OPERATIONS,
  changePasswordOp,
  getAuthStatusOp,
  loginOp,
  logoutOp,
  updateAuthSettingsOp,
} from "@/lib/auth/operations";
import { SYSTEM_CONFIG_OPERATIONS } from "@/lib/config/operations";
import { DATA_OPERATIONS } from "@/lib/data/operations";
import { BACKEND_OPERATIONS } from "@/lib/analysis/llm/backend-operations";
import { DATA_SOURCE_OPERATIONS } from "@/lib/data-sources/operations";
import { SIGNAL_OPERATIONS } from "@/lib/signals/operations";
import { HISTORY_OPERATIONS } from "@/lib/history/operations";
import { PORTFOLIO_OPERATIONS } from "@/lib/portfolio/operations";
import { searchStocksOp } from "@/lib/market/operations";
import { STOCK_DATA_OPERATIONS } from "@/lib/stocks/operations";
import { REPORT_BACKTEST_OPERATIONS } from "@/lib/report-eval/operations";
import { getAlphasiftStatusOp, getScreeningStatusOp } from "@/lib/screening/status";
import { SCREENING_OPERATIONS } from "@/lib/screening/operations";
import { mcpOp } from "@/lib/mcp/operations";
import { PAPER_OPERATIONS } from "@/lib/paper/operations";
import { BOT_OPERATIONS } from "@/lib/bots/operations";
import { PUSH_OPERATIONS } from "@/lib/push/operations";
import { NOTIFY_OPERATIONS } from "@/lib/notify/operations";
import { SCHEDULE_OPERATIONS } from "@/lib/schedule/operations";
import { TASK_OPERATIONS } from "@/lib/tasks/operations";
import { USAGE_OPERATIONS } from "@/lib/usage/operations";
import { WATCHLIST_OPERATIONS } from "@/lib/watchlist/operations";
import { getApiHealthOp, getApiV1HealthOp, getHealthOp, getRootOp } from "@/lib/health/operations";
import { defineOperation, type Operation } from "@/lib/operation/operation";

export const getOpenApiOp = defineOperation({
  method: "GET",
  path: "/openapi.json",
  operationId: "getOpenApiDocument",
  summary: "This OpenAPI 3.1 document",
  tags: ["Health"],
  public: true,
  responses: { 200: { description: "OpenAPI document", contentType: "application/json" } },
});

/** Every operation the service serves; a test checks this list against the route files under app/. */
export const OPERATIONS: readonly Operation[] = [
  getRootOp,
  getHealthOp,
  getApiHealthOp,
  getApiV1HealthOp,
  getOpenApiOp,
  getAuthStatusOp,
  loginOp,
  logoutOp,
  changePasswordOp,
  updateAuthSettingsOp,
  ...API_TOKEN_OPERATIONS,
  ...SYSTEM_CONFIG_OPERATIONS,
  ...BACKEND_OPERATIONS,
  ...SCHEDULE_OPERATIONS,
  ...NOTIFY_OPERATIONS,
  analyzeOp,
  ...TASK_OPERATIONS,
  searchStocksOp,
  ...STOCK_DATA_OPERATIONS,
  ...WATCHLIST_OPERATIONS,
  ...USAGE_OPERATIONS,
  ...ALERT_OPERATIONS,
  ...PORTFOLIO_OPERATIONS,
  ...HISTORY_OPERATIONS,
  ...SIGNAL_OPERATIONS,
  ...BACKTEST_OPERATIONS,
  ...REPORT_BACKTEST_OPERATIONS,
  ...DATA_OPERATIONS,
  ...DATA_SOURCE_OPERATIONS,
  getScreeningStatusOp,
  ...SCREENING_OPERATIONS,
  getAlphasiftStatusOp,
  ...AGENT_OPERATIONS,
  ...PAPER_OPERATIONS,
  ...BOT_OPERATIONS,
  ...PUSH_OPERATIONS,
  mcpOp,
];
