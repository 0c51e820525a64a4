import { ApiError } from "@/lib/errors/api-error";
import { decodeExport } from "@/lib/portfolio/broker-csv";
import { rowsToCandidates, textToRows } from "./import-rows";
import { resolveCandidates, resolveCandidate } from "./resolve";
import { MAX_IMPORT_FILE_BYTES, MAX_IMPORT_TEXT_BYTES, type TImportResult, type TParseImportBody } from "./schemas";
import { isOldExcel, isZip, xlsxRows } from "./xlsx";

// POST /api/v1/stocks/parse-import (docs/api.md §12.7): a CSV, XLSX or TXT file, or pasted text, read into codes and the
// entries that did not resolve, with reasons. Nothing is saved: the client confirms with watchlist/add.

const mb = (bytes: number) => `${bytes / 1024 / 1024} MB`;

/** UTF-16 with a byte-order mark (Excel's "Unicode text"), else UTF-8 or GBK as the broker import reads it. */
export function decodeText(bytes: Uint8Array): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder("utf-16le").decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder("utf-16be").decode(bytes.subarray(2));
  if (bytes.subarray(0, 8192).includes(0)) {
    throw ApiError.of(
      "parse_failed",
      "Not a CSV, XLSX or text file (the bytes are binary); save the list as .csv, .xlsx or .txt",
    );
  }
  return decodeExport(bytes);
}

/** A piece with spaces that is one entry as it stands (a known name such as "Berkshire Hathaway"). */
function wholeEntry(text: string): boolean {
  return resolveCandidate({ code: text, source: "free" }).item.confidence === "high";
}

async function rowsOfFile(file: File): Promise<string[][]> {
  if (file.size > MAX_IMPORT_FILE_BYTES)
    throw ApiError.of("payload_too_large", `The file is larger than ${mb(MAX_IMPORT_FILE_BYTES)}`);
  const bytes = new Uint8Array(await file.arrayBuffer());
  if (bytes.length === 0) throw ApiError.of("bad_request", "The file is empty");
  if (isZip(bytes)) return xlsxRows(bytes);
  if (isOldExcel(bytes))
    throw ApiError.of(
      "parse_failed",
      "Only .xlsx workbooks are read; save the .xls file as .xlsx (or CSV) and try again",
    );
  return textToRows(decodeText(bytes));
}

function rowsOfText(text: string): string[][] {
  if (Buffer.byteLength(text, "utf8") > MAX_IMPORT_TEXT_BYTES) {
    throw ApiError.of(
      "payload_too_large",
      `The text is longer than ${MAX_IMPORT_TEXT_BYTES / 1024} KB; import a file instead`,
    );
  }
  return textToRows(text);
}

// POST /api/v1/stocks/parse-import
export async function parseImport(body: TParseImportBody | undefined): Promise<TImportResult> {
  let rows: string[][];
  if (body?.file) rows = await rowsOfFile(body.file);
  else if (body?.text !== undefined && body.text.trim() !== "") rows = rowsOfText(body.text);
  else
    throw ApiError.of(
      "bad_request",
      'Nothing to read: send a file (multipart/form-data field "file") or JSON {"text": "..."}',
    );
  return resolveCandidates(rowsToCandidates(rows, wholeEntry));
}
