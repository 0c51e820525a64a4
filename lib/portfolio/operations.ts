import { z } from "zod";
import { ZErrorResponse } from "@/lib/http/schemas";
import { defineOperation, type Operation } from "@/lib/openapi/operation";
import { ZPortfolioRisk } from "./risk-schema";
import {
  ZAccount,
  ZAccountCreate,
  ZAccountList,
  ZAccountParams,
  ZAccountUpdate,
  ZPositionList,
  ZPositionQuery,
  ZRiskQuery,
  ZTrade,
  ZTradeCreate,
  ZTradeImport,
  ZTradeImportResult,
  ZTradeList,
  ZTradeListQuery,
  ZTradeParams,
} from "./schemas";

const TAGS = ["Portfolio"];
const NOT_FOUND = { description: "not_found", schema: ZErrorResponse };
const DELETED = z.object({ deleted: z.number().int() });
const POSITIONS =
  "Positions are recomputed from all of the account's trades in the same transaction as every trade write (FIFO lots and " +
  "moving average cost, fees included) and cached; a write that would sell more than is held at its date is refused whole.";

export const listAccountsOp = defineOperation({
  method: "GET", path: "/api/v1/portfolio/accounts", operationId: "listPortfolioAccounts", summary: "Portfolio accounts", tags: TAGS,
  responses: { 200: { description: "Accounts with their trade and position counts", schema: ZAccountList } },
});
export const createAccountOp = defineOperation({
  method: "POST", path: "/api/v1/portfolio/accounts", operationId: "createPortfolioAccount", summary: "Create an account", tags: TAGS,
  body: ZAccountCreate,
  responses: { 201: { description: "Created", schema: ZAccount } },
});
export const updateAccountOp = defineOperation({
  method: "PATCH", path: "/api/v1/portfolio/accounts/{account_id}", operationId: "updatePortfolioAccount", summary: "Rename, change currency or market, activate/deactivate", tags: TAGS,
  params: ZAccountParams, body: ZAccountUpdate,
  responses: { 200: { description: "Updated", schema: ZAccount }, 404: NOT_FOUND },
});
export const deleteAccountOp = defineOperation({
  method: "DELETE", path: "/api/v1/portfolio/accounts/{account_id}", operationId: "deletePortfolioAccount", summary: "Delete an account with its trades and positions", tags: TAGS,
  params: ZAccountParams,
  responses: { 200: { description: "Deleted", schema: DELETED }, 404: NOT_FOUND },
});
export const listTradesOp = defineOperation({
  method: "GET", path: "/api/v1/portfolio/trades", operationId: "listPortfolioTrades", summary: "Trades, newest first", tags: TAGS,
  query: ZTradeListQuery,
  responses: { 200: { description: "One page of trades", schema: ZTradeList } },
});
export const createTradeOp = defineOperation({
  method: "POST", path: "/api/v1/portfolio/trades", operationId: "createPortfolioTrade", summary: "Record a buy or sell", description: POSITIONS, tags: TAGS,
  body: ZTradeCreate,
  responses: { 201: { description: "Stored", schema: ZTrade }, 400: { description: "validation_error: unknown code, an index, or a sell above the holding", schema: ZErrorResponse }, 404: NOT_FOUND },
});
export const deleteTradeOp = defineOperation({
  method: "DELETE", path: "/api/v1/portfolio/trades/{trade_id}", operationId: "deletePortfolioTrade", summary: "Delete a trade", description: POSITIONS, tags: TAGS,
  params: ZTradeParams,
  responses: { 200: { description: "Deleted", schema: DELETED }, 400: { description: "validation_error: later sells would exceed the holding", schema: ZErrorResponse }, 404: NOT_FOUND },
});
export const importTradesOp = defineOperation({
  method: "POST", path: "/api/v1/portfolio/trades/import", operationId: "importPortfolioTrades", summary: "Import trades from CSV (all or nothing)",
  description: `Header: date,side,code,quantity,price[,fee][,note] (Chinese headers such as 日期,方向,代码,数量,价格,手续费 are read too). At most 10,000 rows. ${POSITIONS}`,
  tags: TAGS, body: ZTradeImport,
  responses: { 201: { description: "Imported", schema: ZTradeImportResult }, 400: { description: "invalid_import_file (naming the line) or validation_error (sell above holding)", schema: ZErrorResponse }, 404: NOT_FOUND },
});
export const listPositionsOp = defineOperation({
  method: "GET", path: "/api/v1/portfolio/positions", operationId: "listPortfolioPositions", summary: "Cached open positions", description: POSITIONS, tags: TAGS,
  query: ZPositionQuery,
  responses: { 200: { description: "Open positions", schema: ZPositionList }, 404: NOT_FOUND },
});
export const portfolioRiskOp = defineOperation({
  method: "GET", path: "/api/v1/portfolio/risk", operationId: "getPortfolioRisk", summary: "Portfolio risk report at a date",
  description:
    "Positions valued at the price an analysis shows for as_of (default today in SERVICE_TIMEZONE: the quote when it is newer than the last daily bar, else the close; price_basis says which) from trades up to that date, by cost_method fifo " +
    "(default) or avg; concentration (weights, HHI, alert above 30 %), exposure by market and currency (converted with " +
    "PORTFOLIO_FX_RATES), time-weighted drawdown, annualised volatility and 1-day 95 % historical VaR over 180 days, stop-loss " +
    "proximity (10 %, near at 80 % of it), active sell/reduce/alert/avoid decision signals on held stocks, and warnings. Without " +
    "account_id: every active account in PORTFOLIO_BASE_CURRENCY.",
  tags: TAGS, query: ZRiskQuery,
  responses: {
    200: { description: "Risk report", schema: ZPortfolioRisk },
    400: { description: "validation_error: cost_method other than fifo or avg", schema: ZErrorResponse },
    404: NOT_FOUND,
    422: { description: "malformed as_of or account_id", schema: ZErrorResponse },
  },
});

export const PORTFOLIO_OPERATIONS: readonly Operation[] = [
  listAccountsOp, createAccountOp, updateAccountOp, deleteAccountOp, listTradesOp, createTradeOp, deleteTradeOp, importTradesOp, listPositionsOp, portfolioRiskOp,
];
