import { z } from "zod";
import { DATA_FILE_PROBLEMS } from "@/lib/market/providers/types";

// The CSV data folder as the API shows it (docs/api.md §10; upload, list and remove are ours).

/** Largest file accepted by the upload (5 MiB). */
export const MAX_CSV_UPLOAD_BYTES = 5 * 1024 * 1024;
/** Most bars one uploaded file may hold. */
export const MAX_CSV_UPLOAD_ROWS = 20_000;

const code = z.string().trim().min(1).max(40);

export const ZCsvDataFile = z
  .object({
    code: z.string().describe("The file name without .csv: the stock_code whose bars it holds"),
    file: z.string().describe("File name in CSV_DATA_DIR"),
    rows: z.number().int().nullable().describe("Daily bars in the file; null when the file is invalid"),
    first_date: z.string().nullable().describe("Oldest bar's date (YYYY-MM-DD)"),
    last_date: z.string().nullable().describe("Newest bar's date (YYYY-MM-DD)"),
    size_bytes: z.number().int(),
    updated_at: z.string().describe("Last modification of the file, ISO 8601"),
    error: z
      .string()
      .nullable()
      .describe("Why an analysis would fail on this file (file, line and problem); null when valid"),
    error_code: z
      .enum(DATA_FILE_PROBLEMS)
      .nullable()
      .describe("The problem as a code, for clients that word it in another language; null when valid"),
    error_params: z
      .record(z.string(), z.string())
      .nullable()
      .describe("The values the problem names (file, line, column, value, …); null when valid"),
  })
  .meta({ id: "CsvDataFile" });

export const ZCsvDataFileList = z.object({ items: z.array(ZCsvDataFile) }).meta({ id: "CsvDataFileList" });

export const ZCsvUpload = z
  .object({
    code: code.describe(
      "Stock code, index code or name, resolved like analyze; the file is stored as <stock_code>.csv",
    ),
    file: z
      .file()
      .describe("The CSV file: header row with date, open, high, low, close, volume (optional amount, turnover_rate)"),
  })
  .meta({ id: "CsvUpload" });

export const ZCsvCodeParams = z.object({ code: code.describe("Code as listed, or any spelling that resolves to it") });

export const ZCsvDeleted = z.object({ deleted: z.literal(true) }).meta({ id: "CsvDeleted" });

export type TCsvDataFile = z.infer<typeof ZCsvDataFile>;
export type TCsvUpload = z.infer<typeof ZCsvUpload>;
