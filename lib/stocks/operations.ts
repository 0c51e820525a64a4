import { defineOperation } from "@/lib/operation/operation";
import { ZStockCodeParams, ZStockHistoryQuery, ZStockHistoryResponse, ZStockQuoteResponse } from "./schemas";

const NO_DATA =
  "404 not_found when the sources answered without data for the code, 503 service_unavailable when none could be " +
  "reached (both with reason_code and reason_params); 400 for a code that does not resolve.";

export const getStockQuoteOp = defineOperation({
  method: "GET",
  path: "/api/v1/stocks/{code}/quote",
  operationId: "getStockQuote",
  summary: "The current price of a stock or index as an analysis would read it",
  description: `The quote merged with the last daily bar (one price everywhere): price, change against the previous close, the day's range. ${NO_DATA}`,
  tags: ["Stocks"],
  params: ZStockCodeParams,
  responses: { 200: { description: "The quote", schema: ZStockQuoteResponse } },
});

export const getStockHistoryOp = defineOperation({
  method: "GET",
  path: "/api/v1/stocks/{code}/history",
  operationId: "getStockHistory",
  summary: "Daily bars of a stock or index, oldest first",
  description: `Final daily bars from the bar cache and the provider chain (days 1-1000, default 30). ${NO_DATA}`,
  tags: ["Stocks"],
  params: ZStockCodeParams,
  query: ZStockHistoryQuery,
  responses: { 200: { description: "The bars", schema: ZStockHistoryResponse } },
});

export const STOCK_DATA_OPERATIONS = [getStockQuoteOp, getStockHistoryOp] as const;
