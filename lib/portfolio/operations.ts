import { ZErrorResponse } from "@/lib/errors/schemas";
import { defineOperation, type Operation } from "@/lib/operation/operation";
import { ZDuplicateTaskError, ZTaskAccepted } from "@/lib/tasks/schemas";
import {
  ZCashEntry,
  ZCashEntryCreate,
  ZCashEntryParams,
  ZCashList,
  ZCashListQuery,
  ZCorporateAction,
  ZCorporateActionCreate,
  ZCorporateActionList,
  ZCorporateActionListQuery,
  ZCorporateActionParams,
} from "./event-schemas";
import { ZFxRefresh, ZFxRefreshQuery } from "./fx-refresh";
import {
  MAX_IMPORT_BYTES,
  ZBrokerList,
  ZImportCommit,
  ZImportCommitForm,
  ZImportParse,
  ZImportParseForm,
} from "./import-schemas";
import { ZPositionAnalysisParams, ZPositionAnalysisRequest } from "./position-analysis";
import { ZPortfolioRisk } from "./risk-schema";
import { ZSnapshot, ZSnapshotQuery } from "./snapshot-schema";
import {
  ZAccount,
  ZAccountCreate,
  ZAccountList,
  ZAccountListQuery,
  ZAccountParams,
  ZAccountUpdate,
  ZDeleted,
  ZPositionList,
  ZPositionQuery,
  ZRiskQuery,
  ZTrade,
  ZTradeCreate,
  ZTradeList,
  ZTradeListQuery,
  ZTradeParams,
} from "./schemas";

const TAGS = ["Portfolio"];
const NOT_FOUND = { description: "not_found", schema: ZErrorResponse };
const DELETED = ZDeleted;
const BUSY = "portfolio_busy: another write holds the database; retry";
const POSITIONS =
  "Positions are recomputed from all of the account's trades in the same transaction as every trade write (FIFO lots and " +
  "moving average cost, fees and taxes included) and cached; a write that would sell more than is held at its date is refused whole (409 portfolio_oversell).";

export const listAccountsOp = defineOperation({
  method: "GET",
  path: "/api/v1/portfolio/accounts",
  operationId: "listPortfolioAccounts",
  summary: "Portfolio accounts (docs/api.md §12.1.1)",
  tags: TAGS,
  query: ZAccountListQuery,
  responses: {
    200: {
      description: "Active accounts (all with include_inactive), with their trade and position counts",
      schema: ZAccountList,
    },
  },
});
export const createAccountOp = defineOperation({
  method: "POST",
  path: "/api/v1/portfolio/accounts",
  operationId: "createPortfolioAccount",
  summary: "Create an account (docs/api.md §12.1.2)",
  tags: TAGS,
  body: ZAccountCreate,
  responses: { 200: { description: "Created", schema: ZAccount }, 409: { description: BUSY, schema: ZErrorResponse } },
});
export const updateAccountOp = defineOperation({
  method: "PUT",
  path: "/api/v1/portfolio/accounts/{account_id}",
  operationId: "updatePortfolioAccount",
  summary: "Change an account's name, broker, market, base currency, owner or is_active (docs/api.md §12.1.3)",
  tags: TAGS,
  params: ZAccountParams,
  body: ZAccountUpdate,
  responses: {
    200: { description: "Updated", schema: ZAccount },
    404: NOT_FOUND,
    409: { description: BUSY, schema: ZErrorResponse },
  },
});
export const deleteAccountOp = defineOperation({
  method: "DELETE",
  path: "/api/v1/portfolio/accounts/{account_id}",
  operationId: "deletePortfolioAccount",
  summary: "Deactivate an account (soft delete: its trades and positions stay; PUT is_active=true brings it back)",
  tags: TAGS,
  params: ZAccountParams,
  responses: {
    200: { description: "Deactivated", schema: DELETED },
    404: NOT_FOUND,
    409: { description: BUSY, schema: ZErrorResponse },
  },
});
export const listTradesOp = defineOperation({
  method: "GET",
  path: "/api/v1/portfolio/trades",
  operationId: "listPortfolioTrades",
  summary: "Trades, newest first (docs/api.md §12.1.10)",
  tags: TAGS,
  query: ZTradeListQuery,
  responses: {
    200: { description: "One page of trades", schema: ZTradeList },
    400: {
      description: "validation_error: a symbol that does not resolve, date_from after date_to",
      schema: ZErrorResponse,
    },
  },
});
export const createTradeOp = defineOperation({
  method: "POST",
  path: "/api/v1/portfolio/trades",
  operationId: "createPortfolioTrade",
  summary: "Record a buy or sell (docs/api.md §12.1.10)",
  description: POSITIONS,
  tags: TAGS,
  body: ZTradeCreate,
  responses: {
    200: { description: "Stored: the trade (its id first)", schema: ZTrade },
    400: {
      description: "validation_error: unknown code, an index, a market that is not the code's",
      schema: ZErrorResponse,
    },
    404: NOT_FOUND,
    409: {
      description: `portfolio_oversell: a sell above the holding at its date; conflict: the account already has this trade_uid; ${BUSY}`,
      schema: ZErrorResponse,
    },
  },
});
export const deleteTradeOp = defineOperation({
  method: "DELETE",
  path: "/api/v1/portfolio/trades/{trade_id}",
  operationId: "deletePortfolioTrade",
  summary: "Delete a trade",
  description: POSITIONS,
  tags: TAGS,
  params: ZTradeParams,
  responses: {
    200: { description: "Deleted", schema: DELETED },
    404: NOT_FOUND,
    409: { description: `portfolio_oversell: later sells would exceed the holding; ${BUSY}`, schema: ZErrorResponse },
  },
});
export const listPositionsOp = defineOperation({
  method: "GET",
  path: "/api/v1/portfolio/positions",
  operationId: "listPortfolioPositions",
  summary: "Cached open positions",
  description: POSITIONS,
  tags: TAGS,
  query: ZPositionQuery,
  responses: { 200: { description: "Open positions", schema: ZPositionList }, 404: NOT_FOUND },
});
export const portfolioRiskOp = defineOperation({
  method: "GET",
  path: "/api/v1/portfolio/risk",
  operationId: "getPortfolioRisk",
  summary: "Portfolio risk report at a date",
  description:
    "The snapshot's valuation (same prices, costs and conversions) with the §12.1.6 blocks: concentration by security (weights, HHI, alert above 30 %), " +
    "sector concentration (no sector source: everything UNCLASSIFIED, never an alert), exposure by market and currency (converted with " +
    "PORTFOLIO_FX_RATES), time-weighted drawdown, annualised volatility and 1-day 95 % historical VaR over 180 days, stop-loss " +
    "proximity (10 %, near at 80 % of it), active sell/reduce/alert/avoid decision signals on held stocks, and warnings. Without " +
    "account_id: every active account in PORTFOLIO_BASE_CURRENCY.",
  tags: TAGS,
  query: ZRiskQuery,
  responses: {
    200: { description: "Risk report", schema: ZPortfolioRisk },
    400: { description: "validation_error: cost_method other than fifo or avg", schema: ZErrorResponse },
    404: NOT_FOUND,
    422: { description: "malformed as_of or account_id", schema: ZErrorResponse },
  },
});

export const portfolioSnapshotOp = defineOperation({
  method: "GET",
  path: "/api/v1/portfolio/snapshot",
  operationId: "getPortfolioSnapshot",
  summary: "Accounts, cash, positions and P&L at a date (docs/api.md §12.1.5)",
  description:
    "Every event up to as_of (default today in SERVICE_TIMEZONE) replayed per account: trades by cost_method fifo (default) or avg, fees and taxes " +
    "in the cost. Open positions are priced from the one-price series (the quote when it stands for the session: realtime_quote; else the last close " +
    "on or before as_of: history_close; none: missing, valued at cost with price_available false) and converted to the account's base currency. " +
    "total_cash = cash in − out − buys + sells − fees − taxes + dividends. Without account_id: every active account, totals in PORTFOLIO_BASE_CURRENCY.",
  tags: TAGS,
  query: ZSnapshotQuery,
  responses: {
    200: { description: "Snapshot", schema: ZSnapshot },
    400: { description: "validation_error: cost_method other than fifo or avg", schema: ZErrorResponse },
    404: NOT_FOUND,
    422: { description: "malformed as_of or account_id", schema: ZErrorResponse },
  },
});

const RANGE_400 = {
  description: "validation_error: date_from after date_to, or a symbol that does not resolve",
  schema: ZErrorResponse,
};
const CASH =
  "The snapshot's cash is ledger in − out − buys + sells − fees − taxes + dividends, each converted to the account's base currency.";
export const listCashLedgerOp = defineOperation({
  method: "GET",
  path: "/api/v1/portfolio/cash-ledger",
  operationId: "listPortfolioCashLedger",
  summary: "Cash ledger entries, newest first (docs/api.md §12.1.11)",
  description: CASH,
  tags: TAGS,
  query: ZCashListQuery,
  responses: { 200: { description: "One page of entries", schema: ZCashList }, 400: RANGE_400 },
});
export const createCashEntryOp = defineOperation({
  method: "POST",
  path: "/api/v1/portfolio/cash-ledger",
  operationId: "createPortfolioCashEntry",
  summary: "Record a deposit (in) or withdrawal (out)",
  description: CASH,
  tags: TAGS,
  body: ZCashEntryCreate,
  responses: {
    200: { description: "Stored: the entry (its id first)", schema: ZCashEntry },
    404: NOT_FOUND,
    409: { description: BUSY, schema: ZErrorResponse },
  },
});
export const deleteCashEntryOp = defineOperation({
  method: "DELETE",
  path: "/api/v1/portfolio/cash-ledger/{entry_id}",
  operationId: "deletePortfolioCashEntry",
  summary: "Delete a cash ledger entry",
  tags: TAGS,
  params: ZCashEntryParams,
  responses: {
    200: { description: "Deleted", schema: DELETED },
    404: NOT_FOUND,
    409: { description: BUSY, schema: ZErrorResponse },
  },
});
const ACTIONS =
  "Corporate actions apply at the start of effective_date, before that day's trades: split_adjustment multiplies the shares held by split_ratio " +
  "and divides every lot's cost per share by it (total cost unchanged); cash_dividend pays cash_dividend_per_share on the shares held then, into " +
  "cash and realized P&L. Positions are recomputed in the same transaction (a write that leaves a later sell above the holding is 409 portfolio_oversell).";
export const listCorporateActionsOp = defineOperation({
  method: "GET",
  path: "/api/v1/portfolio/corporate-actions",
  operationId: "listPortfolioCorporateActions",
  summary: "Corporate actions, newest first (docs/api.md §12.1.12)",
  description: ACTIONS,
  tags: TAGS,
  query: ZCorporateActionListQuery,
  responses: { 200: { description: "One page of actions", schema: ZCorporateActionList }, 400: RANGE_400 },
});
export const createCorporateActionOp = defineOperation({
  method: "POST",
  path: "/api/v1/portfolio/corporate-actions",
  operationId: "createPortfolioCorporateAction",
  summary: "Record a cash dividend or a split",
  description: ACTIONS,
  tags: TAGS,
  body: ZCorporateActionCreate,
  responses: {
    200: { description: "Stored: the action (its id first)", schema: ZCorporateAction },
    400: { description: "validation_error: the type's amount missing, an unknown code", schema: ZErrorResponse },
    404: NOT_FOUND,
    409: { description: `portfolio_oversell; ${BUSY}`, schema: ZErrorResponse },
  },
});
export const deleteCorporateActionOp = defineOperation({
  method: "DELETE",
  path: "/api/v1/portfolio/corporate-actions/{action_id}",
  operationId: "deletePortfolioCorporateAction",
  summary: "Delete a corporate action",
  description: ACTIONS,
  tags: TAGS,
  params: ZCorporateActionParams,
  responses: {
    200: { description: "Deleted", schema: DELETED },
    404: NOT_FOUND,
    409: { description: `portfolio_oversell; ${BUSY}`, schema: ZErrorResponse },
  },
});

export const refreshFxOp = defineOperation({
  method: "POST",
  path: "/api/v1/portfolio/fx/refresh",
  operationId: "refreshPortfolioFx",
  summary: "Fetch the FX rates the accounts need (docs/api.md §12.1.13)",
  description:
    "Every currency other than CNY that the accounts use (base currencies, trades, cash ledger, corporate actions) is fetched against CNY from the " +
    "market-data providers in MARKET_DATA_SOURCES that serve FX (yahoo online, sample offline and deterministic) and stored with its date. A valuation " +
    "uses, per currency: PORTFOLIO_FX_RATES when it names the currency (manual override), else the latest stored rate on or before as_of (fx_stale " +
    "when older than 3 days), else a built-in fallback (fx_stale). No body. refresh_enabled is false when no configured provider serves FX.",
  tags: TAGS,
  query: ZFxRefreshQuery,
  responses: {
    200: { description: "What was refreshed", schema: ZFxRefresh },
    404: NOT_FOUND,
    422: { description: "malformed account_id or as_of", schema: ZErrorResponse },
  },
});

export const analyzePositionOp = defineOperation({
  method: "POST",
  path: "/api/v1/portfolio/positions/{symbol}/analysis",
  operationId: "analyzePortfolioPosition",
  summary: "Queue an analysis of a held stock (docs/api.md §12.1.14)",
  description:
    "The stock must have a non-zero position in an active account (or in account_id). The task goes through the same queue as " +
    "POST /api/v1/analysis/analyze in async mode (detailed report, notify on): its progress is on the task stream, and a stock " +
    "already being analysed gives 409 duplicate_task. force refreshes the market data.",
  tags: TAGS,
  params: ZPositionAnalysisParams,
  body: ZPositionAnalysisRequest,
  bodyRequired: false,
  responses: {
    202: { description: "TaskAccepted", schema: ZTaskAccepted },
    400: {
      description:
        "validation_error (the code does not resolve) or ambiguous_position_account (held in several accounts without account_id)",
      schema: ZErrorResponse,
    },
    404: { description: "not_found: no non-zero position of the stock (or no such account)", schema: ZErrorResponse },
    409: {
      description: "duplicate_task: the stock already has a pending or processing task (body sent flat)",
      schema: ZDuplicateTaskError,
    },
  },
});

const IMPORT =
  "Brokers: generic (date, side, symbol, quantity, price, fee, tax, trade_uid, currency, note; English or Chinese headers), huatai (华泰: " +
  "成交日期, 证券代码, 买卖标志, 成交数量, 成交均价, 成交编号), citic (中信: 发生日期, 证券代码, 买卖方向/业务名称, 成交数量, 成交价格, 合同编号), cmb " +
  "(招商: 日期, 证券代码, 交易方向, 成交股数, 成交价, 流水号); fees are 手续费+佣金+过户费+规费+…, taxes 印花税+…. CSV or tab-separated, UTF-8 " +
  "or GBK, at most 10,000 rows and 5 MB. Rows that are not a buy or a sell are skipped; a buy or sell that does not read is an error naming its line.";
// Multipart framing (boundaries, part headers, the other fields) on top of the largest file allowed.
const MULTIPART_OVERHEAD = 64 * 1024;
export const listImportBrokersOp = defineOperation({
  method: "GET",
  path: "/api/v1/portfolio/imports/csv/brokers",
  operationId: "listPortfolioImportBrokers",
  summary: "Broker CSV formats (docs/api.md §12.1.7)",
  description: IMPORT,
  tags: TAGS,
  responses: { 200: { description: "The formats the import reads", schema: ZBrokerList } },
});
export const parseImportOp = defineOperation({
  method: "POST",
  path: "/api/v1/portfolio/imports/csv/parse",
  operationId: "parsePortfolioImport",
  summary: "Read a broker export without storing it (docs/api.md §12.1.8)",
  description: IMPORT,
  tags: TAGS,
  body: ZImportParseForm,
  bodyFormat: "multipart",
  maxBodyBytes: MAX_IMPORT_BYTES + MULTIPART_OVERHEAD,
  responses: {
    200: { description: "Records, skipped rows and per-line errors", schema: ZImportParse },
    400: {
      description: "validation_error: unknown broker, no column for a required field, an unreadable file",
      schema: ZErrorResponse,
    },
    413: { description: "payload_too_large", schema: ZErrorResponse },
    415: { description: "unsupported_media_type: not multipart/form-data", schema: ZErrorResponse },
  },
});
export const commitImportOp = defineOperation({
  method: "POST",
  path: "/api/v1/portfolio/imports/csv/commit",
  operationId: "commitPortfolioImport",
  summary: "Import a broker export into an account (docs/api.md §12.1.9)",
  description: `${IMPORT} Duplicates (same trade_uid or dedup_hash in the account, or repeated in the file) are counted, not stored; the rest go in by date in one transaction with the positions; a sell above the holding at its date is taken out and counted as failed. dry_run=true counts and stores nothing.`,
  tags: TAGS,
  body: ZImportCommitForm,
  bodyFormat: "multipart",
  maxBodyBytes: MAX_IMPORT_BYTES + MULTIPART_OVERHEAD,
  responses: {
    200: { description: "What was (or would be) inserted", schema: ZImportCommit },
    400: {
      description: "validation_error: unknown broker, no column for a required field, an unreadable file",
      schema: ZErrorResponse,
    },
    404: NOT_FOUND,
    409: { description: BUSY, schema: ZErrorResponse },
    413: { description: "payload_too_large", schema: ZErrorResponse },
    415: { description: "unsupported_media_type: not multipart/form-data", schema: ZErrorResponse },
  },
});

export const PORTFOLIO_OPERATIONS: readonly Operation[] = [
  listAccountsOp,
  createAccountOp,
  updateAccountOp,
  deleteAccountOp,
  listTradesOp,
  createTradeOp,
  deleteTradeOp,
  listPositionsOp,
  portfolioSnapshotOp,
  portfolioRiskOp,
  listCashLedgerOp,
  createCashEntryOp,
  deleteCashEntryOp,
  listCorporateActionsOp,
  createCorporateActionOp,
  deleteCorporateActionOp,
  refreshFxOp,
  analyzePositionOp,
  listImportBrokersOp,
  parseImportOp,
  commitImportOp,
];
