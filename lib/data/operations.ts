import { ZErrorResponse } from "@/lib/errors/schemas";
import { defineOperation } from "@/lib/operation/operation";
import {
  MAX_CSV_UPLOAD_BYTES,
  MAX_CSV_UPLOAD_ROWS,
  ZCsvCodeParams,
  ZCsvDataFile,
  ZCsvDataFileList,
  ZCsvDeleted,
  ZCsvUpload,
} from "./schemas";

const TAGS = ["Data"];
// Multipart framing (boundaries, part headers, the code field) on top of the largest file allowed.
const MULTIPART_OVERHEAD_BYTES = 64 * 1024;
const FORMAT =
  "One file per security in CSV_DATA_DIR, named <stock_code>.csv (600519, 00700, AAPL; an index by its display code). " +
  "Header row required; columns by name in any order, case-insensitive: date (or datetime, trade_date), open, high, low, close, " +
  "volume (or vol), optional amount and turnover_rate; dates YYYY-MM-DD, YYYYMMDD or YYYY/MM/DD; rows in any order. A repeated " +
  "date, a price ≤ 0, high < low, a missing column or an unparsable cell makes the whole file invalid. Used when MARKET_DATA_SOURCES names csv.";

export const listCsvDataFilesOp = defineOperation({
  method: "GET",
  path: "/api/v1/data/csv",
  operationId: "listCsvDataFiles",
  summary: "CSV data files",
  description: FORMAT,
  tags: TAGS,
  responses: {
    200: {
      description: "Every .csv file in CSV_DATA_DIR with its bar count and date range (invalid files carry error)",
      schema: ZCsvDataFileList,
    },
  },
});

export const uploadCsvDataFileOp = defineOperation({
  method: "POST",
  path: "/api/v1/data/csv",
  operationId: "uploadCsvDataFile",
  summary: "Upload a CSV data file for a code",
  description: `${FORMAT} The file is checked whole before anything is written, then replaces the code's file atomically. At most ${MAX_CSV_UPLOAD_BYTES} bytes and ${MAX_CSV_UPLOAD_ROWS} rows.`,
  tags: TAGS,
  body: ZCsvUpload,
  bodyFormat: "multipart",
  maxBodyBytes: MAX_CSV_UPLOAD_BYTES + MULTIPART_OVERHEAD_BYTES,
  responses: {
    201: { description: "Stored", schema: ZCsvDataFile },
    400: {
      description:
        "invalid_import_file (the message names the file, line and problem; detail {file, line, problem}) or validation_error (the code does not resolve). Both carry reason_code and reason_params (the problem's or the resolver's code and its values, file and line among them) for clients that word the reason in another language",
      schema: ZErrorResponse,
    },
    409: {
      description:
        "conflict: a DELETE of the same code removed the file while it was being saved (reason_code removed_meanwhile)",
      schema: ZErrorResponse,
    },
    413: {
      description:
        "payload_too_large: more than 5 MB or more than 20,000 rows (reason_code too_many_bytes, too_many_rows)",
      schema: ZErrorResponse,
    },
    415: { description: "unsupported_media_type: the body is not multipart/form-data", schema: ZErrorResponse },
  },
});

export const deleteCsvDataFileOp = defineOperation({
  method: "DELETE",
  path: "/api/v1/data/csv/{code}",
  operationId: "deleteCsvDataFile",
  summary: "Remove a code's CSV data file",
  tags: TAGS,
  params: ZCsvCodeParams,
  responses: {
    200: { description: "Removed", schema: ZCsvDeleted },
    404: { description: "not_found: no file for the code", schema: ZErrorResponse },
  },
});

export const DATA_OPERATIONS = [listCsvDataFilesOp, uploadCsvDataFileOp, deleteCsvDataFileOp];
