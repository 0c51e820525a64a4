import fs from "node:fs/promises";
import path from "node:path";
import { getSettings } from "@/lib/settings/settings";
import { sessionCloseIso } from "@/lib/market/market-time";
import { getIndexEntry, type TMarket } from "@/lib/market/symbols";
import { parseBarsCsv } from "./csv-bars";
import { round } from "./symbol-map";
import {
  InvalidDataFileError,
  ZQuote,
  type MarketDataProvider,
  type TDailyBar,
  type TMarketSymbol,
  type TQuote,
} from "./types";

// The CSV data source (docs/api.md §10): the user's own daily bars, one `<code>.csv` per security in
// CSV_DATA_DIR. No file → an empty answer, so the chain moves on; an invalid file → InvalidDataFileError,
// which the chain does not absorb.

export { parseBarsCsv } from "./csv-bars";
export { InvalidDataFileError } from "./types";

export function csvDataDir(): string {
  return path.resolve(getSettings().CSV_DATA_DIR);
}

/** The file name stem for a target: the stock_code the service reports (HK 5 digits, an index's display code). */
export function csvCodeOf(symbol: TMarketSymbol): string {
  if (symbol.kind === "index") {
    const id = symbol.canonicalId ?? symbol.code;
    return getIndexEntry(id)?.displayCode ?? id;
  }
  if (symbol.market === "hk") return symbol.code.padStart(5, "0");
  return symbol.market === "us" ? symbol.code.toUpperCase() : symbol.code;
}

export interface CsvFileRef {
  /** The name as it is on disk. */
  file: string;
  path: string;
}

/** ENOENT or ENOTDIR: the file or its folder is not there (any more). */
export function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return code === "ENOENT" || code === "ENOTDIR";
}

/** The names of the .csv files in `dir` ([] when the folder does not exist yet). */
export async function listCsvFileNames(dir: string): Promise<string[]> {
  try {
    const names = await fs.readdir(dir);
    return names.filter((name) => name.toLowerCase().endsWith(".csv")).sort();
  } catch (error) {
    if (isMissing(error)) return [];
    throw error;
  }
}

/** The file holding `code`'s bars, its name matched case-insensitively, or null when there is none. */
export async function findCsvFile(dir: string, code: string): Promise<CsvFileRef | null> {
  const wanted = `${code}.csv`.toLowerCase();
  const matches = (await listCsvFileNames(dir)).filter((name) => name.toLowerCase() === wanted);
  if (matches.length === 0) return null;
  // Two spellings of one name (case-sensitive file systems): either could be the one meant, so neither is used.
  if (matches.length > 1)
    throw new InvalidDataFileError(matches.join(", "), null, `several files match ${code}; keep one`, "several_files", {
      code,
    });
  return { file: matches[0]!, path: path.join(dir, matches[0]!) };
}

interface Parsed {
  stamp: string;
  bars: TDailyBar[];
}

// Parsed files keyed by path and checked against inode, size and modification time on every read, so a
// replaced file (a rename gives a new inode even within one mtime tick) is parsed again at the next call.
const MAX_PARSED = 64;
const parsed = new Map<string, Parsed>();

/** The file's bars, oldest first; throws InvalidDataFileError for an invalid file. */
export async function readCsvBars(ref: CsvFileRef): Promise<TDailyBar[]> {
  const stat = await fs.stat(ref.path);
  if (!stat.isFile()) throw new InvalidDataFileError(ref.file, null, "not a regular file", "not_a_file");
  const stamp = `${stat.ino}:${stat.size}:${stat.mtimeMs}`;
  const hit = parsed.get(ref.path);
  if (hit?.stamp === stamp) return hit.bars;
  const bars = parseBarsCsv(await fs.readFile(ref.path, "utf8"), ref.file);
  parsed.delete(ref.path);
  parsed.set(ref.path, { stamp, bars });
  if (parsed.size > MAX_PARSED) parsed.delete(parsed.keys().next().value!);
  return bars;
}

/** The quote a file implies: its last row, with the change against the row before. */
export function quoteFromBars(bars: TDailyBar[], market: TMarket): TQuote | null {
  const last = bars.at(-1);
  if (!last) return null;
  const prev = bars.at(-2);
  const earlier = bars.slice(-6, -1);
  const avgVolume = earlier.length === 5 ? earlier.reduce((sum, b) => sum + b.volume, 0) / 5 : 0;
  return ZQuote.parse({
    price: last.close,
    change: prev ? round(last.close - prev.close, 4) : 0,
    change_pct: prev ? round(((last.close - prev.close) / prev.close) * 100, 2) : 0,
    volume: last.volume,
    amount: last.amount,
    volume_ratio: avgVolume > 0 ? round(last.volume / avgVolume, 2) : null,
    turnover_rate: last.turnover_rate,
    high: last.high,
    low: last.low,
    open: last.open,
    prev_close: prev?.close ?? null,
    time: sessionCloseIso(market, last.date),
    source: "csv",
  });
}

export function createCsvProvider(options: { dir: () => string } = { dir: csvDataDir }): MarketDataProvider {
  async function barsOf(symbol: TMarketSymbol): Promise<TDailyBar[] | null> {
    const ref = await findCsvFile(options.dir(), csvCodeOf(symbol));
    return ref ? readCsvBars(ref) : null;
  }
  return {
    name: "csv",
    // Any market or kind can have a file; a target without one gets an empty answer.
    serves: () => true,
    async dailyBars(symbol, days) {
      const bars = await barsOf(symbol);
      return bars ? bars.slice(-days) : [];
    },
    async quote(symbol) {
      const bars = await barsOf(symbol);
      return bars ? quoteFromBars(bars, symbol.market) : null;
    },
    async bypassesCache(symbol) {
      return (await findCsvFile(options.dir(), csvCodeOf(symbol))) !== null;
    },
  };
}
