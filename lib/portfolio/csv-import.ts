import { parse } from "csv-parse/sync";
import { isCalendarDay } from "@/lib/history/schemas";
import { ApiError } from "@/lib/http/api-error";
import { isRejection, resolveToken } from "@/lib/market/symbols";
import { insertTrades, type NewTrade } from "./store";
import type { TTradeImport } from "./schemas";

export const MAX_IMPORT_ROWS = 10_000;

// Header names accepted for each column (English and the Chinese a broker export uses).
const COLUMNS: Record<string, readonly string[]> = {
  date: ["date", "trade_date", "日期", "成交日期"],
  side: ["side", "action", "方向", "买卖方向", "操作"],
  code: ["code", "stock_code", "symbol", "代码", "证券代码"],
  quantity: ["quantity", "qty", "shares", "数量", "成交数量"],
  price: ["price", "价格", "成交价格", "成交均价"],
  fee: ["fee", "fees", "commission", "费用", "手续费"],
  note: ["note", "备注"],
};
const SIDES: Record<string, "buy" | "sell"> = { buy: "buy", b: "buy", 买入: "buy", 买: "buy", sell: "sell", s: "sell", 卖出: "sell", 卖: "sell" };

function invalid(message: string): ApiError {
  return ApiError.of("invalid_import_file", message);
}

function columnIndex(header: string[]): Record<string, number> {
  const normalised = header.map((h) => h.trim().toLowerCase());
  const index: Record<string, number> = {};
  for (const [name, aliases] of Object.entries(COLUMNS)) {
    const at = normalised.findIndex((h) => aliases.includes(h));
    if (at >= 0) index[name] = at;
  }
  const missing = ["date", "side", "code", "quantity", "price"].filter((c) => index[c] === undefined);
  if (missing.length > 0) throw invalid(`Missing column(s): ${missing.join(", ")} (header: ${header.join(",")})`);
  return index;
}

function number(text: string | undefined, what: string, line: number, allowZero = false): number {
  const value = Number((text ?? "").replace(/,/g, "").trim());
  if (!Number.isFinite(value) || value < 0 || (!allowZero && value === 0)) throw invalid(`Line ${line}: ${what} "${text ?? ""}" is not a ${allowZero ? "non-negative" : "positive"} number`);
  return value;
}

/**
 * POST /api/v1/portfolio/trades/import – a CSV of trades for one account, all or nothing: every row is
 * checked first, any bad row rejects the file (400 invalid_import_file naming the line), and the rows that
 * pass are stored with the positions in one transaction.
 */
export async function importTradesCsv(input: TTradeImport): Promise<{ imported: number; account_id: number }> {
  let records: string[][];
  try {
    records = parse(input.csv.replace(/^\uFEFF/, ""), { skip_empty_lines: true, relax_column_count: true, trim: true });
  } catch (error) {
    throw invalid(`Not a readable CSV: ${(error as Error).message}`);
  }
  const [header, ...rows] = records;
  if (!header) throw invalid("The file is empty");
  if (rows.length === 0) throw invalid("The file has a header but no trades");
  if (rows.length > MAX_IMPORT_ROWS) throw invalid(`At most ${MAX_IMPORT_ROWS} trades per file (${rows.length} given)`);
  const col = columnIndex(header);
  const trades: NewTrade[] = rows.map((row, i) => {
    const line = i + 2;
    const date = (row[col.date!] ?? "").trim().replace(/\//g, "-");
    if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || !isCalendarDay(date)) throw invalid(`Line ${line}: date "${row[col.date!] ?? ""}" is not YYYY-MM-DD`);
    const side = SIDES[(row[col.side!] ?? "").trim().toLowerCase()];
    if (!side) throw invalid(`Line ${line}: side "${row[col.side!] ?? ""}" is not buy or sell`);
    const code = (row[col.code!] ?? "").trim();
    const symbol = resolveToken(code);
    if (isRejection(symbol)) throw invalid(`Line ${line}: ${code}: ${symbol.reason}`);
    if (symbol.kind === "index") throw invalid(`Line ${line}: ${code} is an index`);
    return {
      side,
      symbol,
      quantity: number(row[col.quantity!], "quantity", line),
      price: number(row[col.price!], "price", line),
      fee: col.fee === undefined || !row[col.fee] ? 0 : number(row[col.fee], "fee", line, true),
      tax: 0,
      currency: null,
      tradeDate: date,
      note: col.note === undefined ? null : (row[col.note] ?? "").slice(0, 255) || null,
      source: "import",
      tradeUid: null,
      dedupHash: null,
    };
  });
  const stored = await insertTrades(input.account_id, trades);
  return { imported: stored.length, account_id: input.account_id };
}
