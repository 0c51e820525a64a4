import { CsvError, parse } from "csv-parse/sync";
import { InvalidDataFileError, type TDailyBar } from "./types";

// The CSV data source's file format (docs/api.md §10): a header row, columns by name in any order, rows in
// any order. Any bad row makes the whole file invalid, because analysing a series with holes or a wrong
// bar silently would be worse than refusing it.

type Field = "date" | "open" | "high" | "low" | "close" | "volume" | "amount" | "turnover_rate";

const HEADER_NAMES: Record<Field, readonly string[]> = {
  date: ["date", "datetime", "trade_date"],
  open: ["open"],
  high: ["high"],
  low: ["low"],
  close: ["close"],
  volume: ["volume", "vol"],
  amount: ["amount"],
  turnover_rate: ["turnover_rate"],
};
// Volume is optional: a file without it reads with volume 0, and the analysis rates such data degraded
// (missing_volume) and leaves the volume checks out, rather than refusing an otherwise good price series.
const REQUIRED: readonly Field[] = ["date", "open", "high", "low", "close"];
const PRICES = ["open", "high", "low", "close"] as const;

const DATE_FORMATS = [/^(\d{4})-(\d{2})-(\d{2})$/, /^(\d{4})(\d{2})(\d{2})$/, /^(\d{4})\/(\d{2})\/(\d{2})$/];
// Plain decimals only: Number() would also take "0x1A", "Infinity" or " ", none of which is a price.
const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

interface Row {
  cells: string[];
  line: number;
}

function columnsOf(header: Row, fileLabel: string): Partial<Record<Field, number>> {
  const names = header.cells.map((cell) => cell.trim().toLowerCase());
  const columns: Partial<Record<Field, number>> = {};
  for (const [field, aliases] of Object.entries(HEADER_NAMES) as [Field, readonly string[]][]) {
    const found = names.flatMap((name, index) => (aliases.includes(name) ? [index] : []));
    if (found.length > 1) {
      const given = found.map((index) => header.cells[index]).join(", ");
      throw new InvalidDataFileError(
        fileLabel,
        header.line,
        `columns ${given} all name the ${field} column; keep one`,
        "duplicate_column",
        { columns: given, field },
      );
    }
    if (found.length === 1) columns[field] = found[0];
  }
  const missing = REQUIRED.filter((field) => columns[field] === undefined);
  if (missing.length > 0) {
    throw new InvalidDataFileError(
      fileLabel,
      header.line,
      `missing required column(s) ${missing.join(", ")}; the header row must name ${REQUIRED.join(", ")} (found: ${header.cells.join(", ")})`,
      "missing_columns",
      { missing: missing.join(", "), required: REQUIRED.join(", "), found: header.cells.join(", ") },
    );
  }
  return columns;
}

function isCalendarDay(year: number, month: number, day: number): boolean {
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

function parseDate(cell: string, column: string, line: number, fileLabel: string): string {
  for (const format of DATE_FORMATS) {
    const match = format.exec(cell);
    if (!match) continue;
    const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
    if (isCalendarDay(year, month, day)) return `${match[1]}-${match[2]}-${match[3]}`;
  }
  throw new InvalidDataFileError(
    fileLabel,
    line,
    `${column} "${cell}" is not a date (YYYY-MM-DD, YYYYMMDD or YYYY/MM/DD)`,
    "not_a_date",
    { column, value: cell },
  );
}

function parseNumber(cell: string, column: string, line: number, fileLabel: string): number {
  if (cell === "") throw new InvalidDataFileError(fileLabel, line, `${column} is empty`, "empty_cell", { column });
  const value = DECIMAL.test(cell) ? Number(cell) : Number.NaN;
  if (!Number.isFinite(value))
    throw new InvalidDataFileError(fileLabel, line, `${column} "${cell}" is not a number`, "not_a_number", {
      column,
      value: cell,
    });
  return value;
}

function negative(fileLabel: string, line: number, column: string, value: number): InvalidDataFileError {
  return new InvalidDataFileError(fileLabel, line, `${column} ${value} is negative`, "negative", { column, value });
}

function toBar(row: Row, columns: Partial<Record<Field, number>>, fileLabel: string): TDailyBar {
  const cell = (field: Field) => (row.cells[columns[field]!] ?? "").trim();
  const number = (field: Field) => parseNumber(cell(field), field, row.line, fileLabel);
  const optional = (field: Field): number | null => {
    if (columns[field] === undefined || cell(field) === "") return null;
    const value = number(field);
    if (value < 0) throw negative(fileLabel, row.line, field, value);
    return value;
  };

  const date = parseDate(cell("date"), "date", row.line, fileLabel);
  const [open, high, low, close] = PRICES.map((field) => {
    const value = number(field);
    if (value <= 0)
      throw new InvalidDataFileError(fileLabel, row.line, `${field} ${value} is not above 0`, "not_positive", {
        column: field,
        value,
      });
    return value;
  }) as [number, number, number, number];
  if (high < low)
    throw new InvalidDataFileError(fileLabel, row.line, `high ${high} is below low ${low}`, "high_below_low", {
      high,
      low,
    });
  const volume = columns.volume === undefined ? 0 : number("volume");
  if (volume < 0) throw negative(fileLabel, row.line, "volume", volume);
  return {
    date,
    open,
    high,
    low,
    close,
    volume,
    amount: optional("amount"),
    turnover_rate: optional("turnover_rate"),
    source: "csv",
  };
}

function readRows(text: string, fileLabel: string): Row[] {
  try {
    const records = parse(text, {
      bom: true,
      info: true,
      skip_empty_lines: true,
      relax_column_count: true,
      trim: true,
    }) as unknown as {
      record: string[];
      info: { lines: number };
    }[];
    return records.map(({ record, info }) => ({ cells: record, line: info.lines }));
  } catch (error) {
    if (error instanceof CsvError) {
      const line =
        typeof (error as { lines?: unknown }).lines === "number" ? (error as unknown as { lines: number }).lines : null;
      throw new InvalidDataFileError(fileLabel, line, `not a readable CSV: ${error.message}`, "unreadable_csv", {
        detail: error.message,
      });
    }
    throw error;
  }
}

/**
 * A CSV file of daily bars → bars oldest first, with source "csv". Throws InvalidDataFileError naming
 * `fileLabel`, the line and the problem for the first thing wrong with the file.
 */
export function parseBarsCsv(text: string, fileLabel: string): TDailyBar[] {
  const [header, ...rows] = readRows(text, fileLabel);
  if (!header)
    throw new InvalidDataFileError(fileLabel, null, "the file is empty; a header row is required", "empty_file");
  const columns = columnsOf(header, fileLabel);
  if (rows.length === 0)
    throw new InvalidDataFileError(fileLabel, null, "the file has a header row but no bars", "no_bars");

  const seen = new Map<string, number>();
  const bars = rows.map((row) => {
    const bar = toBar(row, columns, fileLabel);
    const earlier = seen.get(bar.date);
    if (earlier !== undefined)
      throw new InvalidDataFileError(fileLabel, row.line, `date ${bar.date} repeats line ${earlier}`, "repeated_date", {
        date: bar.date,
        earlier,
      });
    seen.set(bar.date, row.line);
    return bar;
  });
  return bars.sort((a, b) => (a.date < b.date ? -1 : 1));
}
