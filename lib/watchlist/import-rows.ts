import { parse } from "csv-parse/sync";
import { ApiError } from "@/lib/errors/api-error";
import type { Candidate } from "./resolve";
import { MAX_IMPORT_ENTRIES, MAX_IMPORT_ROWS } from "./schemas";

// Rows of cells (from a CSV, a TXT, pasted text or a sheet) → the candidates to resolve. A row naming a code or name
// column (代码, 证券代码, code, symbol, 名称, name, …) within the first rows makes the rest a table read by column: a
// broker export, preamble lines before its header and all. Without one, every cell is free text: split on commas,
// semicolons, 、, | and tabs (and on spaces when the whole cell is not one name), each piece a code or a name.

/** How far down a header row is looked for (broker exports put account lines first). */
const HEADER_SEARCH_ROWS = 20;

const CODE_HEADERS = [
  "code",
  "symbol",
  "ticker",
  "stock_code",
  "stockcode",
  "stock code",
  "代码",
  "证券代码",
  "股票代码",
  "代号",
  "证券代号",
  "商品代码",
];
const NAME_HEADERS = [
  "name",
  "stock_name",
  "stockname",
  "stock name",
  "名称",
  "证券名称",
  "股票名称",
  "简称",
  "证券简称",
  "股票简称",
  "商品名称",
];
const MARKET_HEADERS = ["market", "exchange", "市场", "交易市场", "市场名称", "交易所"];
const CN_MARKET = /深|沪|上海|北京|北交|a股|^sz$|^sh$|^bj$/i;

const CELL_SEPARATORS = /[,，;；、|\t]+/;
const DELIMITERS = ["\t", ",", ";", "|", "，"] as const;
// Values that are never a code or a name: prices, signed or percent figures, dates, times, bare punctuation.
// (Eastmoney's secids 1.600519 and 116.700 are codes, not decimals.)
const NOISE =
  /^(?!(?:[01]\.\d{6}|116\.\d{1,5})$)(?:[-+]?\d[\d,]*\.\d+%?|[-+]\d+(?:\.\d+)?%?|\d+(?:\.\d+)?%|\d{4}[-/.年]\d{1,2}[-/.月]\d{1,2}.*|\d{1,2}:\d{2}(?::\d{2})?|[\p{P}\p{S}]+)$/u;

function parseFailed(message: string): ApiError {
  return ApiError.of("parse_failed", message);
}

/** Excel's ="600519" guard, quotes and stray spaces off a cell. */
export function cleanCell(value: string | undefined): string {
  const text = (value ?? "").normalize("NFKC").trim();
  const guarded = /^="(.*)"$/.exec(text);
  return (guarded ? guarded[1]! : text).replace(/^["'“”‘’]+|["'“”‘’]+$/g, "").trim();
}

const headerKey = (cell: string) => cleanCell(cell).toLowerCase();
const isHeader = (cell: string, names: readonly string[]) => names.includes(headerKey(cell));

interface Header {
  at: number;
  code: number;
  name: number;
  market: number;
}

function findHeader(rows: readonly string[][]): Header | null {
  for (let at = 0; at < Math.min(rows.length, HEADER_SEARCH_ROWS); at++) {
    const row = rows[at]!;
    const code = row.findIndex((c) => isHeader(c, CODE_HEADERS));
    const name = row.findIndex((c) => isHeader(c, NAME_HEADERS));
    if (code >= 0 || name >= 0) return { at, code, name, market: row.findIndex((c) => isHeader(c, MARKET_HEADERS)) };
  }
  return null;
}

/** Most of the column's all-digit codes have six digits: an A-share column whose short values lost their zeros. */
function aShareColumn(rows: readonly string[][], column: number): boolean {
  const digits = rows.map((r) => cleanCell(r[column])).filter((v) => /^\d+$/.test(v));
  return digits.length > 0 && digits.filter((v) => v.length === 6).length * 2 >= digits.length;
}

function columnCandidates(rows: readonly string[][], header: Header): Candidate[] {
  const body = rows.slice(header.at + 1);
  const padColumn = header.code >= 0 && aShareColumn(body, header.code);
  const out: Candidate[] = [];
  for (const row of body) {
    let code = header.code >= 0 ? cleanCell(row[header.code]) : "";
    const name = header.name >= 0 ? cleanCell(row[header.name]) : "";
    if (code === "" && name === "") continue;
    if (isHeader(code, CODE_HEADERS) || isHeader(name, NAME_HEADERS)) continue; // a repeated header line
    const candidate: Candidate = { source: "column" };
    const market = header.market >= 0 ? cleanCell(row[header.market]) : "";
    if (/^\d{1,5}$/.test(code) && (CN_MARKET.test(market) || padColumn)) {
      const padded = code.padStart(6, "0");
      candidate.note = `leading zeros restored: ${code} read as ${padded}`;
      candidate.raw = [code, name].filter(Boolean).join(" ");
      code = padded;
    }
    if (code) candidate.code = code;
    if (name) candidate.name = name;
    out.push(candidate);
  }
  return out;
}

/** Pieces of one free-text cell: split on separators, and on spaces unless the whole piece is one entry. */
function freeTokens(cell: string, whole: (text: string) => boolean): string[] {
  return cell
    .split(CELL_SEPARATORS)
    .map(cleanCell)
    .filter((piece) => piece !== "")
    .flatMap((piece) => (/\s/.test(piece) && !whole(piece) ? piece.split(/\s+/).map(cleanCell) : [piece]))
    .filter((token) => token !== "" && !NOISE.test(token));
}

function freeCandidates(rows: readonly string[][], whole: (text: string) => boolean): Candidate[] {
  return rows
    .flatMap((row) => row.flatMap((cell) => freeTokens(cell, whole)))
    .map((code) => ({ code, source: "free" as const }));
}

/**
 * The candidates of a table of cells: by column below a header row, else every cell as free text. `whole` says
 * whether a piece with spaces is one entry as it stands ("Berkshire Hathaway"), so it is not split into words.
 */
export function rowsToCandidates(rows: readonly string[][], whole: (text: string) => boolean): Candidate[] {
  const filled = rows.filter((row) => row.some((cell) => cleanCell(cell) !== ""));
  if (filled.length > MAX_IMPORT_ROWS)
    throw parseFailed(`The import has ${filled.length} rows; at most ${MAX_IMPORT_ROWS} are read`);
  const header = findHeader(filled);
  const candidates = header ? columnCandidates(filled, header) : freeCandidates(filled, whole);
  if (candidates.length > MAX_IMPORT_ENTRIES) {
    throw parseFailed(`The import holds ${candidates.length} entries; at most ${MAX_IMPORT_ENTRIES} are read at once`);
  }
  return candidates;
}

const namesColumn = (cells: readonly string[]) =>
  cells.some((c) => isHeader(c, CODE_HEADERS) || isHeader(c, NAME_HEADERS));

/**
 * How the lines split into cells: the delimiter of the first line with a code or name header, "spaces" for a header
 * of words, "line" for a one-word header (a column: names may hold spaces), or null (free text).
 */
function headerDelimiter(lines: readonly string[]): string | "spaces" | "line" | null {
  for (const line of lines.slice(0, HEADER_SEARCH_ROWS)) {
    for (const delimiter of DELIMITERS) {
      if (line.includes(delimiter) && namesColumn(line.split(delimiter))) return delimiter;
    }
    const words = line.trim().split(/\s+/);
    if (namesColumn(words)) return words.length === 1 ? "line" : "spaces";
  }
  return null;
}

/** Text (a CSV, a TXT, pasted text) as rows: split by its delimiter when it has a header row, else one cell per line. */
export function textToRows(text: string): string[][] {
  const lines = text
    .replace(/^\uFEFF/, "")
    .split(/\r\n|\r|\n/)
    .filter((line) => line.trim() !== "");
  if (lines.length > MAX_IMPORT_ROWS)
    throw parseFailed(`The import has ${lines.length} lines; at most ${MAX_IMPORT_ROWS} are read`);
  const delimiter = headerDelimiter(lines);
  if (delimiter === null || delimiter === "line") return lines.map((line) => [line]);
  if (delimiter === "spaces") return lines.map((line) => line.trim().split(/\s+/));
  try {
    return parse(lines.join("\n"), {
      delimiter,
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
      bom: true,
    }) as string[][];
  } catch (error) {
    throw parseFailed(`Not a readable CSV: ${(error as Error).message.slice(0, 200)}`);
  }
}
