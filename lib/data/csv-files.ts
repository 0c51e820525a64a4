import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { ApiError, notFound } from "@/lib/errors/api-error";
import {
  csvDataDir,
  InvalidDataFileError,
  isMissing,
  listCsvFileNames,
  parseBarsCsv,
  readCsvBars,
} from "@/lib/market/providers/csv";
import type { TDataFileProblem } from "@/lib/market/providers/types";
import { csvCodeForInput, isSafeStem } from "./csv-code";
import { MAX_CSV_UPLOAD_BYTES, MAX_CSV_UPLOAD_ROWS, type TCsvDataFile, type TCsvUpload } from "./schemas";

// The files of the csv data source, as the upload API manages them. The provider reads the same folder
// on every analysis, so a write here is live at the next analysis without any cache to clear.

async function describeFile(dir: string, file: string): Promise<TCsvDataFile | null> {
  const filePath = path.join(dir, file);
  let stat;
  try {
    stat = await fs.stat(filePath);
  } catch {
    return null; // removed since the folder was listed
  }
  if (!stat.isFile()) return null;
  const item: TCsvDataFile = {
    code: file.slice(0, -".csv".length),
    file,
    rows: null,
    first_date: null,
    last_date: null,
    size_bytes: stat.size,
    updated_at: stat.mtime.toISOString(),
    error: null,
    error_code: null,
    error_params: null,
  };
  try {
    const bars = await readCsvBars({ file, path: filePath });
    return { ...item, rows: bars.length, first_date: bars[0]?.date ?? null, last_date: bars.at(-1)?.date ?? null };
  } catch (error) {
    if (error instanceof InvalidDataFileError) {
      const problem = problemOf(error);
      return { ...item, error: error.message, error_code: problem.code, error_params: problem.params };
    }
    if (isMissing(error)) return null; // removed between the stat and the read (a concurrent DELETE)
    throw error;
  }
}

// GET /api/v1/data/csv
export async function listCsvDataFiles(): Promise<{ items: TCsvDataFile[] }> {
  const dir = csvDataDir();
  const described = await Promise.all((await listCsvFileNames(dir)).map((file) => describeFile(dir, file)));
  return { items: described.filter((item): item is TCsvDataFile => item !== null) };
}

/** A file's problem as its code and the values it names, the file and line among them (for a UI to word). */
function problemOf(error: InvalidDataFileError): { code: TDataFileProblem; params: Record<string, string> } {
  const params: Record<string, string> = { file: error.file };
  if (error.line !== null) params.line = String(error.line);
  for (const [key, value] of Object.entries(error.params)) params[key] = String(value);
  return { code: error.code, params };
}

function tooLarge(
  message: string,
  reason: "too_many_bytes" | "too_many_rows",
  params: Record<string, string>,
): ApiError {
  return ApiError.of("payload_too_large", message, { reason_code: reason, reason_params: params });
}

/** Data rows (non-blank lines after the header): cheap enough to refuse an oversized file before parsing it. */
function countDataRows(text: string): number {
  let lines = 0;
  for (const line of text.split(/\r\n|\n|\r/)) if (line.trim() !== "") lines += 1;
  return Math.max(0, lines - 1);
}

/** Write to a hidden temp file in the same folder, then rename: a reader sees the old file or the new one, never half. */
async function writeAtomically(dir: string, file: string, bytes: Buffer): Promise<void> {
  await fs.mkdir(dir, { recursive: true });
  // The temp name does not end in .csv, so neither the provider nor the listing ever picks it up.
  const temp = path.join(dir, `.${file}.${randomBytes(6).toString("hex")}.tmp`);
  try {
    await fs.writeFile(temp, bytes);
    await fs.rename(temp, path.join(dir, file));
  } catch (error) {
    await fs.rm(temp, { force: true });
    throw error;
  }
}

/** Other spellings of the same name (aapl.csv beside AAPL.csv) would make the lookup ambiguous. */
async function removeCaseVariants(dir: string, file: string): Promise<void> {
  const variants = (await listCsvFileNames(dir)).filter(
    (name) => name !== file && name.toLowerCase() === file.toLowerCase(),
  );
  await Promise.all(variants.map((name) => fs.rm(path.join(dir, name), { force: true })));
}

// POST /api/v1/data/csv
export async function saveCsvDataFile(input: TCsvUpload): Promise<TCsvDataFile> {
  const code = csvCodeForInput(input.code);
  const file = `${code}.csv`;
  if (input.file.size > MAX_CSV_UPLOAD_BYTES) {
    const name = input.file.name || file;
    throw tooLarge(
      `${name} has ${input.file.size} bytes; a CSV data file may have at most ${MAX_CSV_UPLOAD_BYTES} bytes (5 MB)`,
      "too_many_bytes",
      { file: name, size: String(input.file.size), max: String(MAX_CSV_UPLOAD_BYTES) },
    );
  }
  const bytes = Buffer.from(await input.file.arrayBuffer());
  const text = bytes.toString("utf8");
  const rows = countDataRows(text);
  if (rows > MAX_CSV_UPLOAD_ROWS) {
    const name = input.file.name || file;
    throw tooLarge(
      `${name} has ${rows} rows; a CSV data file may have at most ${MAX_CSV_UPLOAD_ROWS} rows`,
      "too_many_rows",
      { file: name, rows: String(rows), max: String(MAX_CSV_UPLOAD_ROWS) },
    );
  }
  try {
    parseBarsCsv(text, file);
  } catch (error) {
    if (!(error instanceof InvalidDataFileError)) throw error;
    const problem = problemOf(error);
    throw ApiError.of("invalid_import_file", error.message, {
      detail: { file: error.file, line: error.line, problem: error.problem },
      reason_code: problem.code,
      reason_params: problem.params,
    });
  }
  const dir = csvDataDir();
  await writeAtomically(dir, file, bytes);
  await removeCaseVariants(dir, file);
  const item = await describeFile(dir, file);
  // A DELETE of the same code can land between the write and this read.
  if (!item)
    throw ApiError.of("conflict", `${file} was removed by another request while it was being saved`, {
      reason_code: "removed_meanwhile",
      reason_params: { file },
    });
  return item;
}

// DELETE /api/v1/data/csv/{code}
export async function deleteCsvDataFile(input: string): Promise<{ deleted: true }> {
  const dir = csvDataDir();
  const given = input.trim();
  const names = await listCsvFileNames(dir);
  const named = (stem: string) => names.filter((name) => name.toLowerCase() === `${stem}.csv`.toLowerCase());
  // The code as listed first (a file placed by hand may have a stem no resolver knows), then any spelling
  // that resolves to the stock_code (sh600519, 700, aapl).
  let matches = isSafeStem(given) ? named(given) : [];
  if (matches.length === 0) {
    let code: string | null = null;
    try {
      code = csvCodeForInput(given);
    } catch (error) {
      if (!isSafeStem(given)) throw error;
    }
    if (code) matches = named(code);
  }
  if (matches.length === 0) throw notFound(`No CSV data file for ${given}`);
  await Promise.all(matches.map((name) => fs.rm(path.join(dir, name), { force: true })));
  return { deleted: true };
}
