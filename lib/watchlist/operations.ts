import { ZErrorResponse } from "@/lib/errors/schemas";
import { defineOperation, type Operation } from "@/lib/operation/operation";
import {
  MAX_IMAGE_BYTES,
  MAX_IMPORT_ENTRIES,
  MAX_IMPORT_ROWS,
  MAX_WATCHLIST_ENTRIES,
  MAX_XLSX_UNPACKED_BYTES,
  MAX_IMPORT_FILE_BYTES,
  MAX_IMPORT_TEXT_BYTES,
  MULTIPART_OVERHEAD_BYTES,
  ZExtractImageForm,
  ZExtractImageQuery,
  ZExtractImageResult,
  ZImportResult,
  ZParseImportBody,
  ZWatchlist,
  ZWatchlistChange,
} from "./schemas";

const TAGS = ["Stocks"];
const error = (description: string) => ({ description, schema: ZErrorResponse });

const LIST =
  "The watchlist is the STOCK_LIST setting (the scheduler, watchlist alerts and GET /api/v1/system/config read the same " +
  "list). add and remove read and write it inside the config store's locked update, so concurrent edits never lose an " +
  "entry and a config PUT holding an older config_version gets 409.";
const RESOLVE =
  "stock_code resolves like an analyze target: codes in any spelling (600519, sh600519, 600519.SH, 0700.HK, AAPL), " +
  "registered indices, and stock names or aliases (贵州茅台, 茅台, Tesla).";
const IMPORT =
  "Read only: nothing is saved (the client confirms with watchlist/add). A row headed 代码/证券代码/code/symbol or " +
  "名称/证券名称/name within the first 20 rows makes a table read by column (broker exports); otherwise every cell is free " +
  "text split on commas, semicolons, 、, | and spaces. Each entry resolves like an analyze target; `items` lists every " +
  "distinct entry (high: the stock list knows it; medium: a well-formed code it does not know, or matched by name after " +
  "the code did not read; low: a guess or a rejected entry, with a reason) and `codes` the high and medium ones. A column of " +
  "6-digit codes gets Excel's dropped leading zeros back (1 → 000001).";

// GET /api/v1/stocks/watchlist
export const getWatchlistOp = defineOperation({
  method: "GET",
  path: "/api/v1/stocks/watchlist",
  operationId: "getWatchlist",
  summary: "The watchlist (STOCK_LIST, docs/api.md §12.7)",
  description: LIST,
  tags: TAGS,
  responses: { 200: { description: "Entries in order, as stored", schema: ZWatchlist } },
});

export const addToWatchlistOp = defineOperation({
  method: "POST",
  path: "/api/v1/stocks/watchlist/add",
  operationId: "addToWatchlist",
  summary: "Add a stock or index to the watchlist",
  description: `${RESOLVE} The normalised display code is stored (600519, 00700, AAPL, sh000300); a stock already listed in any spelling is not added again. At most ${MAX_WATCHLIST_ENTRIES} entries. ${LIST}`,
  tags: TAGS,
  body: ZWatchlistChange,
  responses: {
    200: { description: "The updated list", schema: ZWatchlist },
    400: error(
      "invalid_stock_code: does not resolve (reason_code and reason_params say why); invalid_request: the list is full",
    ),
  },
});

export const removeFromWatchlistOp = defineOperation({
  method: "POST",
  path: "/api/v1/stocks/watchlist/remove",
  operationId: "removeFromWatchlist",
  summary: "Remove a stock or index from the watchlist",
  description: `${RESOLVE} Every entry naming the same stock is removed (600519 removes sh600519 and 贵州茅台); a code not listed leaves the list as it is. ${LIST}`,
  tags: TAGS,
  body: ZWatchlistChange,
  responses: {
    200: { description: "The updated list", schema: ZWatchlist },
    400: error("invalid_stock_code: does not resolve and matches no entry's text"),
  },
});

export const parseImportOp = defineOperation({
  method: "POST",
  path: "/api/v1/stocks/parse-import",
  operationId: "parseWatchlistImport",
  summary: "Read codes from a CSV/XLSX/TXT file or pasted text",
  description:
    `Either multipart/form-data with the field "file" (CSV, XLSX or TXT; UTF-8, GBK or UTF-16 with a BOM; at most ${MAX_IMPORT_FILE_BYTES / 1024 / 1024} MB, ` +
    `a workbook unpacking to at most ${MAX_XLSX_UNPACKED_BYTES / 1024 / 1024} MB) or JSON {"text": "..."} (at most ${MAX_IMPORT_TEXT_BYTES / 1024} KB); the file ` +
    `wins when both come. At most ${MAX_IMPORT_ROWS} rows and ${MAX_IMPORT_ENTRIES} entries. ${IMPORT}`,
  tags: TAGS,
  body: ZParseImportBody,
  bodyFormat: "json-or-multipart",
  bodyRequired: false,
  invalidJsonCode: "invalid_json",
  maxBodyBytes: MAX_IMPORT_FILE_BYTES + MULTIPART_OVERHEAD_BYTES,
  responses: {
    200: { description: "Resolved and rejected entries", schema: ZImportResult },
    400: error(
      "invalid_json: the JSON body does not parse; bad_request: neither a file nor text; parse_failed: not a readable CSV/XLSX/text, an .xls, too many rows or entries",
    ),
    413: error("payload_too_large: the file, the text or the unpacked workbook is over its limit"),
    415: error("unsupported_media_type: neither JSON nor multipart/form-data"),
  },
});

export const extractFromImageOp = defineOperation({
  method: "POST",
  path: "/api/v1/stocks/extract-from-image",
  operationId: "extractWatchlistFromImage",
  summary: "Read codes from a broker screenshot with a vision model",
  description:
    `multipart/form-data field "file": a PNG, JPEG, WebP or GIF image (decided by its bytes) of at most ${MAX_IMAGE_BYTES / 1024 / 1024} MB. The configured LLM ` +
    "channels (LLM_CHANNELS, else OPENAI_API_KEY / DEEPSEEK_API_KEY) are asked in order, each model once, within 55 s, for the codes and names " +
    "they read; a model that does not take images fails and the next is tried. Every code and name is then resolved like a parse-import " +
    "entry, so the model can only propose: what does not resolve never reaches `codes`. Each call is recorded as usage (call type image_extract). " +
    "Nothing is saved.",
  tags: TAGS,
  query: ZExtractImageQuery,
  body: ZExtractImageForm,
  bodyFormat: "multipart",
  bodyRequired: false,
  maxBodyBytes: MAX_IMAGE_BYTES + MULTIPART_OVERHEAD_BYTES,
  responses: {
    200: { description: "Resolved and rejected entries (raw_text with include_raw=true)", schema: ZExtractImageResult },
    400: error(
      "bad_request: no file or an empty one; unsupported_type: not a PNG, JPEG, WebP or GIF; extract_failed: no LLM channel (the message names the settings) or no model could read the image (scrubbed reason)",
    ),
    413: error("payload_too_large: the image is over the limit"),
    415: error("unsupported_media_type: not multipart/form-data"),
  },
});

export const WATCHLIST_OPERATIONS: readonly Operation[] = [
  getWatchlistOp,
  addToWatchlistOp,
  removeFromWatchlistOp,
  parseImportOp,
  extractFromImageOp,
];
