import { z } from "zod";

// docs/api.md §12.7: the watchlist (STOCK_LIST underneath) and its import from a file, pasted text or a screenshot.

/** Largest import file (CSV, XLSX, TXT) and largest pasted text, in bytes. */
export const MAX_IMPORT_FILE_BYTES = 2 * 1024 * 1024;
export const MAX_IMPORT_TEXT_BYTES = 100 * 1024;
/** Largest screenshot, in bytes. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
/** Multipart framing (boundary, part headers, other fields) on top of the largest file allowed. */
export const MULTIPART_OVERHEAD_BYTES = 64 * 1024;
/** The XML a workbook may unpack to; a 5,000-row sheet is a few megabytes. */
export const MAX_XLSX_UNPACKED_BYTES = 16 * 1024 * 1024;
/** More rows than any watchlist import; a larger table is refused, not cut. */
export const MAX_IMPORT_ROWS = 5_000;
/** More entries than any watchlist (distinct or not). */
export const MAX_IMPORT_ENTRIES = 2_000;
/** More entries than any daily run should queue; also bounds the env file a client can grow. */
export const MAX_WATCHLIST_ENTRIES = 500;

export const ZWatchlist = z
  .object({
    stock_codes: z
      .array(z.string())
      .describe("STOCK_LIST entries in order, as stored (added entries are normalised display codes)"),
  })
  .meta({ id: "WatchlistResponse" });
export type TWatchlist = z.infer<typeof ZWatchlist>;

export const ZWatchlistChange = z
  .object({
    stock_code: z
      .string()
      .max(200)
      .describe(
        "A code in any spelling (600519, sh600519, 600519.SH, 0700.HK, AAPL), a registered index, or a stock name or alias",
      ),
  })
  .meta({ id: "WatchlistChangeRequest" });
export type TWatchlistChange = z.infer<typeof ZWatchlistChange>;

export const ZImportConfidence = z.enum(["high", "medium", "low"]);
export type TImportConfidence = z.infer<typeof ZImportConfidence>;

export const ZImportItem = z
  .object({
    code: z.string().optional().describe("Normalised display code; absent when the entry did not resolve"),
    name: z.string().optional(),
    confidence: ZImportConfidence.describe(
      "high: a code or name the stock list knows; medium: a well-formed code the list does not know, or matched by name " +
        "after the code did not read; low: a guess left out of `codes` (a bare word taken as a ticker, a 1–3 digit number) or a rejected entry",
    ),
    raw: z.string().optional().describe("The text the entry was read from"),
    reason: z.string().optional().describe("Why the entry is low confidence, was rejected, or was matched another way"),
  })
  .meta({ id: "WatchlistImportItem" });
export type TImportItem = z.infer<typeof ZImportItem>;

export const ZImportResult = z
  .object({
    codes: z
      .array(z.string())
      .describe("Distinct codes of the high and medium items, in input order: what the client offers to add"),
    items: z.array(ZImportItem).describe("Every distinct entry read, resolved or rejected, in input order"),
  })
  .meta({ id: "WatchlistImportResult" });
export type TImportResult = z.infer<typeof ZImportResult>;

export const ZParseImportBody = z
  .object({
    text: z
      .string()
      .optional()
      .describe("JSON body: pasted text (a broker export, a column of codes, names separated by anything)"),
    file: z
      .file()
      .optional()
      .describe(
        "multipart/form-data: a CSV, XLSX or TXT file (UTF-8, GBK or UTF-16 with a BOM); used before `text` when both are sent",
      ),
  })
  .meta({ id: "WatchlistParseImportRequest" });
export type TParseImportBody = z.infer<typeof ZParseImportBody>;

export const ZExtractImageForm = z
  .object({ file: z.file().optional().describe("A PNG, JPEG, WebP or GIF screenshot") })
  .meta({ id: "WatchlistExtractImageForm" });
export type TExtractImageForm = z.infer<typeof ZExtractImageForm>;

export const ZExtractImageQuery = z.object({
  include_raw: z.stringbool().default(false).describe("true: add the model's raw answer as raw_text"),
});
export type TExtractImageQuery = z.infer<typeof ZExtractImageQuery>;

export const ZExtractImageResult = ZImportResult.extend({
  raw_text: z.string().optional().describe("The model's answer as received (include_raw=true)"),
}).meta({ id: "WatchlistExtractImageResult" });
export type TExtractImageResult = z.infer<typeof ZExtractImageResult>;

/**
 * What the model is asked to return: every code and name it can read, nothing resolved yet. No length keywords:
 * OpenAI's strict structured outputs refuse some; the list is cut to MAX_IMPORT_ENTRIES after.
 */
export const ZImageExtraction = z.object({
  stocks: z.array(
    z.object({
      code: z.string().nullable().describe("The security code as printed, or null when only a name is visible"),
      name: z.string().nullable().describe("The security name as printed, or null"),
    }),
  ),
});
export type TImageExtraction = z.infer<typeof ZImageExtraction>;
