import { z } from "zod";
import { ZRunDiagnosticSummary, ZRunFlowSnapshot } from "@/lib/analysis/run-schemas";
import { ZErrorResponse } from "@/lib/errors/schemas";
import { defineOperation, type Operation } from "@/lib/operation/operation";
import { PRICE_COLOR_CONVENTIONS } from "@/lib/theme/price-colors";
import {
  ZAnalysisReport,
  ZDeleteHistoryRequest,
  ZDeleteHistoryResponse,
  ZHistoryListQuery,
  ZHistoryListResponse,
  ZHistoryNewsQuery,
  ZHistoryStocksQuery,
  ZMarkdownReportResponse,
  ZNewsIntelResponse,
  ZRecordIdParams,
  ZStockBarResponse,
  ZStockCodeParams,
} from "./schemas";

const TAGS = ["History"];
const NOT_FOUND = { description: "not_found: no record has this id or query_id", schema: ZErrorResponse };
const RECORD_ID_NOTE = "record_id is the integer record id or the query_id; an integer form is tried as an id first.";

export const listHistoryOp = defineOperation({
  method: "GET",
  path: "/api/v1/history",
  operationId: "listHistory",
  summary: "Stored analyses, newest first, one page",
  description:
    "stock_code matches every variant of one code (600519, 600519.SH, sh600519; indices by canonical identity). " +
    "report_type filters by type; absent means all types, market reviews included. start_date/end_date are inclusive " +
    "days (YYYY-MM-DD) in the service time zone (SERVICE_TIMEZONE, default Asia/Shanghai); a malformed date or end before start is 422.",
  tags: TAGS,
  query: ZHistoryListQuery,
  responses: { 200: { description: "One page of history items and the total", schema: ZHistoryListResponse } },
});

export const deleteHistoryOp = defineOperation({
  method: "DELETE",
  path: "/api/v1/history",
  operationId: "deleteHistory",
  summary: "Delete records by id",
  description:
    "Each distinct id is deleted once, with its news, diagnostics and flow, in one transaction. Unknown ids are ignored.",
  tags: TAGS,
  body: ZDeleteHistoryRequest,
  responses: {
    200: { description: "Number of records removed", schema: ZDeleteHistoryResponse },
    400: { description: "invalid_request: record_ids is empty (or the body is missing)", schema: ZErrorResponse },
  },
});

export const deleteHistoryByCodeOp = defineOperation({
  method: "DELETE",
  path: "/api/v1/history/by-code/{stock_code}",
  operationId: "deleteHistoryByCode",
  summary: "Delete every record of one stock (all code variants)",
  description:
    "Removes the stock's records in passes of 10000 (one transaction each) until none remain and returns the total; 0 when none matched.",
  tags: TAGS,
  params: ZStockCodeParams,
  responses: {
    200: { description: "Number of records removed", schema: ZDeleteHistoryResponse },
    400: { description: "invalid_request: the code is empty or blank", schema: ZErrorResponse },
  },
});

export const listHistoryStocksOp = defineOperation({
  method: "GET",
  path: "/api/v1/history/stocks",
  operationId: "listHistoryStocks",
  summary: "One row per analysed stock: its latest record and the number of records",
  description:
    "Latest record = highest id. Stocks dedupe on the normalised code, indices on canonical identity; market reviews are excluded. " +
    "Ordered by latest record, newest first; the limit is always filled when enough stocks exist.",
  tags: TAGS,
  query: ZHistoryStocksQuery,
  responses: { 200: { description: "Stocks with their latest record", schema: ZStockBarResponse } },
});

export const getHistoryReportOp = defineOperation({
  method: "GET",
  path: "/api/v1/history/{record_id}",
  operationId: "getHistoryReport",
  summary: "The stored report, rebuilt as AnalysisReport",
  description: RECORD_ID_NOTE,
  tags: TAGS,
  params: ZRecordIdParams,
  responses: { 200: { description: "The report", schema: ZAnalysisReport }, 404: NOT_FOUND },
});

export const getHistoryDiagnosticsOp = defineOperation({
  method: "GET",
  path: "/api/v1/history/{record_id}/diagnostics",
  operationId: "getHistoryDiagnostics",
  summary: "Run diagnostics stored with the record",
  description: `${RECORD_ID_NOTE} A record stored without diagnostics reads status unknown.`,
  tags: TAGS,
  params: ZRecordIdParams,
  responses: { 200: { description: "Diagnostics summary", schema: ZRunDiagnosticSummary }, 404: NOT_FOUND },
});

export const getHistoryFlowOp = defineOperation({
  method: "GET",
  path: "/api/v1/history/{record_id}/flow",
  operationId: "getHistoryFlow",
  summary: "Run-flow snapshot stored with the record",
  description: `${RECORD_ID_NOTE} A record stored without a flow gets an empty snapshot with status unknown.`,
  tags: TAGS,
  params: ZRecordIdParams,
  responses: { 200: { description: "Run flow", schema: ZRunFlowSnapshot }, 404: NOT_FOUND },
});

export const getHistoryNewsOp = defineOperation({
  method: "GET",
  path: "/api/v1/history/{record_id}/news",
  operationId: "getHistoryNews",
  summary: "News the analysis used, in the order shown",
  description: `${RECORD_ID_NOTE} Snippets hold at most 50 characters. No news (or an unknown record) is an empty list, still 200.`,
  tags: TAGS,
  params: ZRecordIdParams,
  query: ZHistoryNewsQuery,
  responses: { 200: { description: "News items and the number stored", schema: ZNewsIntelResponse } },
});

export const getHistoryMarkdownOp = defineOperation({
  method: "GET",
  path: "/api/v1/history/{record_id}/markdown",
  operationId: "getHistoryMarkdown",
  summary: "The report as Markdown, in the record's language",
  description: `${RECORD_ID_NOTE} Title, action and score, price, summary, strategy levels, indicators, news, risks, data source and model, disclaimer.`,
  tags: TAGS,
  params: ZRecordIdParams,
  responses: {
    200: { description: "The Markdown text", schema: ZMarkdownReportResponse },
    404: NOT_FOUND,
    500: { description: "generation_failed: the report could not be built, or internal_error", schema: ZErrorResponse },
  },
});

const TOO_LARGE = {
  description:
    "share_image_too_large: the Markdown report is longer than SHARE_IMAGE_MAX_CHARS (default 15000) characters",
  schema: ZErrorResponse,
};
const SHARE_NOTE =
  "Stock records get the stock card (action, score, price, levels, indicators, news, risks); market reviews (report_type market_review) " +
  "get the review card (temperature, indices, breadth, sectors, plan, risks) from the stored review payload.";

/** The price colours of the card; API clients send no UI cookie, so the report language is the default. */
export const ZShareImageQuery = z.object({
  colors: z
    .enum(PRICE_COLOR_CONVENTIONS)
    .optional()
    .describe(
      "Price colour convention: red_up (red up, green down: the A-share way) or green_up (green up, red down). " +
        "Absent: the report's language decides (zh red_up, en green_up). The web UI sends the user's setting.",
    ),
});

export const getHistoryShareImageHtmlOp = defineOperation({
  method: "GET",
  path: "/api/v1/history/{record_id}/share-image-html",
  operationId: "getHistoryShareImageHtml",
  summary: "The share card as a self-contained HTML page (for local screenshots)",
  description:
    `${RECORD_ID_NOTE} ${SHARE_NOTE} Built from the Markdown report plus the stored structured payload; the same record gives byte-identical output. ` +
    "Every record text is escaped; no script and no external resource. Headers: Cache-Control no-store, X-Content-Type-Options nosniff, " +
    "Content-Security-Policy default-src 'none'; img-src data:; style-src 'unsafe-inline'. " +
    'The page names its price colours in <meta name="price-colors" content="red_up|green_up">.',
  tags: TAGS,
  params: ZRecordIdParams,
  query: ZShareImageQuery,
  responses: {
    200: { description: "The card, 1080 px wide", contentType: "text/html", schema: z.string() },
    404: NOT_FOUND,
    413: TOO_LARGE,
    500: {
      description: "generation_failed: the report or the card could not be built, or internal_error",
      schema: ZErrorResponse,
    },
  },
});

export const getHistoryShareImageOp = defineOperation({
  method: "GET",
  path: "/api/v1/history/{record_id}/share-image",
  operationId: "getHistoryShareImage",
  summary: "The share card as a PNG download",
  description:
    `${RECORD_ID_NOTE} ${SHARE_NOTE} The same card as share-image-html, 1080 px wide, as tall as its content, drawn with satori + resvg ` +
    'and the Noto Sans SC font shipped with the service. Content-Disposition: attachment; filename="<code>-report-<id>.png"; ' +
    "Cache-Control no-store; X-Content-Type-Options nosniff.",
  tags: TAGS,
  params: ZRecordIdParams,
  query: ZShareImageQuery,
  responses: {
    200: {
      description: "The PNG image",
      contentType: "image/png",
      schema: z.string().meta({ format: "binary", contentMediaType: "image/png" }),
    },
    404: NOT_FOUND,
    413: TOO_LARGE,
    500: {
      description: "generation_failed: the report or the card could not be built, or internal_error",
      schema: ZErrorResponse,
    },
    503: {
      description:
        "share_image_unavailable: the PNG renderer is missing, failing or turned off (SHARE_IMAGE_PNG_ENABLED=false)",
      schema: ZErrorResponse,
    },
  },
});

/** The history operations of spec 4.3. */
export const HISTORY_OPERATIONS: readonly Operation[] = [
  listHistoryOp,
  deleteHistoryOp,
  deleteHistoryByCodeOp,
  listHistoryStocksOp,
  getHistoryReportOp,
  getHistoryDiagnosticsOp,
  getHistoryFlowOp,
  getHistoryNewsOp,
  getHistoryMarkdownOp,
  getHistoryShareImageHtmlOp,
  getHistoryShareImageOp,
];
