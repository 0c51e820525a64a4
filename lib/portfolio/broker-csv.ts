import { createHash } from "node:crypto";
import { parse } from "csv-parse/sync";
import { isCalendarDay } from "@/lib/history/schemas";
import { ApiError } from "@/lib/errors/api-error";
import { isRejection, resolveToken } from "@/lib/market/symbols";
import type { TImportRecord } from "./import-schemas";

// Broker CSV exports (docs/api.md §12.1.7-8): a generic format and the exports of the brokers the reference parses
// (华泰 huatai, 中信 citic, 招商 cmb), read into trade records. Columns are found by header name, each broker's own
// names first; fees are the sum of the fee columns a broker splits them into, taxes likewise. A row whose side is
// neither a buy nor a sell (transfers, dividends booked as cash, cancelled orders) is skipped; a buy or sell row with a
// value that does not read is an error naming its line. Pure: the commit (dedup, storage) is csv-import.ts.

export const MAX_IMPORT_ROWS = 10_000;

type Field = "trade_date" | "symbol" | "side" | "quantity" | "price" | "trade_uid" | "currency" | "market" | "note";

interface BrokerSpec {
  broker: string;
  aliases: string[];
  display_name: string;
  /** Header names per field, most specific first; the common names below are tried after them. */
  columns: Partial<Record<Field, string[]>>;
}

const COMMON: Record<Field, string[]> = {
  trade_date: ["成交日期", "发生日期", "交易日期", "日期", "成交时间", "trade_date", "date", "trade date"],
  symbol: ["证券代码", "股票代码", "代码", "symbol", "code", "stock_code", "ticker"],
  side: ["买卖标志", "买卖方向", "交易方向", "业务名称", "操作", "方向", "side", "action", "type"],
  quantity: ["成交数量", "成交股数", "数量", "交易数量", "quantity", "qty", "shares"],
  price: ["成交均价", "成交价格", "成交价", "价格", "均价", "交易价格", "price"],
  trade_uid: [
    "成交编号",
    "成交序号",
    "合同编号",
    "委托编号",
    "流水号",
    "交易流水号",
    "trade_uid",
    "trade id",
    "order id",
  ],
  currency: ["币种", "货币", "currency"],
  market: ["交易市场", "市场", "交易所", "market"],
  note: ["备注", "摘要", "说明", "note", "memo"],
};
const FEE_COLUMNS = ["手续费", "佣金", "交易费", "规费", "过户费", "经手费", "证管费", "fee", "fees", "commission"];
const TAX_COLUMNS = ["印花税", "税费", "其他税费", "tax", "taxes", "stamp duty"];

export const BROKERS: readonly BrokerSpec[] = [
  { broker: "generic", aliases: ["standard", "dsa"], display_name: "通用格式 / Generic", columns: {} },
  {
    broker: "huatai",
    aliases: ["ht", "htsc"],
    display_name: "华泰证券",
    columns: {
      trade_date: ["成交日期", "成交时间"],
      side: ["买卖标志", "操作"],
      quantity: ["成交数量"],
      price: ["成交均价"],
      trade_uid: ["成交编号"],
    },
  },
  {
    broker: "citic",
    aliases: ["zhongxin"],
    display_name: "中信证券",
    columns: {
      trade_date: ["发生日期", "成交日期"],
      side: ["买卖方向", "业务名称"],
      quantity: ["成交数量"],
      price: ["成交价格"],
      trade_uid: ["合同编号", "成交编号"],
    },
  },
  {
    broker: "cmb",
    aliases: ["zhaoshang", "cmbchina"],
    display_name: "招商证券",
    columns: {
      trade_date: ["日期", "成交日期"],
      side: ["交易方向"],
      quantity: ["成交股数", "成交数量"],
      price: ["成交价"],
      trade_uid: ["流水号"],
    },
  },
];

export function brokerList(): { brokers: { broker: string; aliases: string[]; display_name: string }[] } {
  return { brokers: BROKERS.map(({ broker, aliases, display_name }) => ({ broker, aliases, display_name })) };
}

export function brokerSpec(name: string): BrokerSpec {
  const key = name.trim().toLowerCase();
  const spec = BROKERS.find((b) => b.broker === key || b.aliases.includes(key));
  if (!spec)
    throw ApiError.of(
      "validation_error",
      `broker must be one of: ${BROKERS.map((b) => b.broker).join(", ")} (got ${name})`,
    );
  return spec;
}

/** UTF-8 (with or without BOM) when it decodes, else GB18030 (what Chinese broker exports use). */
export function decodeExport(bytes: Uint8Array): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes).replace(/^\uFEFF/, "");
  } catch {
    return new TextDecoder("gb18030").decode(bytes);
  }
}

/** Excel's ="600519" guard and stray spaces off a cell. */
function cell(value: string | undefined): string {
  const text = (value ?? "").trim();
  const guarded = /^="(.*)"$/.exec(text);
  return (guarded ? guarded[1]! : text).trim();
}

function rows(text: string): string[][] {
  const lines = text.split(/\r?\n/);
  const headerIndex = lines.findIndex((l) => l.trim() !== "");
  const header = lines[headerIndex] ?? "";
  const delimiter =
    header.includes("\t") && !header.includes(",")
      ? "\t"
      : header.split(";").length > header.split(",").length
        ? ";"
        : ",";
  try {
    return parse(text, {
      delimiter,
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: false,
      bom: true,
    }) as string[][];
  } catch (error) {
    throw ApiError.of("validation_error", `Not a readable CSV: ${(error as Error).message}`);
  }
}

const SIDE_BUY = ["buy", "b", "买", "买入", "证券买入", "普通买入", "担保品买入", "融资买入"];
const SIDE_SELL = ["sell", "s", "卖", "卖出", "证券卖出", "普通卖出", "担保品卖出", "融券卖出"];

export function sideOf(value: string): "buy" | "sell" | null {
  const text = value.replace(/\s/g, "").toLowerCase();
  if (SIDE_BUY.includes(text)) return "buy";
  if (SIDE_SELL.includes(text)) return "sell";
  if (text.includes("买入")) return "buy";
  if (text.includes("卖出")) return "sell";
  return null;
}

/** YYYY-MM-DD from 2025-03-04, 2025/3/4, 20250304 or 2025-03-04 09:31:02. */
export function dayOf(value: string): string | null {
  const text = value.trim();
  let m = /^(\d{4})(\d{2})(\d{2})$/.exec(text);
  if (!m) m = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?:[ T].*)?$/.exec(text);
  if (!m) return null;
  const day = `${m[1]}-${m[2]!.padStart(2, "0")}-${m[3]!.padStart(2, "0")}`;
  return isCalendarDay(day) ? day : null;
}

function numberOf(value: string): number | null {
  const text = value.replace(/[,\s¥$]/g, "");
  if (text === "") return null;
  const n = Number(text);
  return Number.isFinite(n) ? n : null;
}

/** A cn market column ("深圳A股", "上海A股", "沪A") pads an Excel-shortened A-share code back to six digits. */
function symbolOf(raw: string, market: string): string {
  const cn = /深|沪|上海|a股|sz|sh/i.test(market);
  return cn && /^\d{1,5}$/.test(raw) ? raw.padStart(6, "0") : raw;
}

export interface ParsedExport {
  broker: string;
  records: TImportRecord[];
  skipped: { line: number; reason: string }[];
  errors: string[];
}

/** Where each field's column is in the header (-1: absent), and the fee and tax columns. */
function locate(header: string[], spec: BrokerSpec) {
  const names = header.map((h) => cell(h).toLowerCase());
  const find = (field: Field) => {
    for (const name of [...(spec.columns[field] ?? []), ...COMMON[field]]) {
      const at = names.indexOf(name.toLowerCase());
      if (at >= 0) return at;
    }
    return -1;
  };
  const fields = Object.fromEntries((Object.keys(COMMON) as Field[]).map((f) => [f, find(f)])) as Record<Field, number>;
  const fees = FEE_COLUMNS.map((n) => names.indexOf(n.toLowerCase())).filter((i) => i >= 0);
  const taxes = TAX_COLUMNS.map((n) => names.indexOf(n.toLowerCase())).filter((i) => i >= 0);
  return { fields, fees, taxes };
}

/** The key a re-import of the same row finds: its values, and which repeat of identical values it is in the file. */
export function dedupHash(record: Omit<TImportRecord, "dedup_hash" | "line_number">, occurrence: number): string {
  const payload = [
    record.trade_date,
    record.symbol,
    record.side,
    record.quantity.toFixed(8),
    record.price.toFixed(8),
    record.fee.toFixed(8),
    record.tax.toFixed(8),
    record.currency ?? "",
    String(occurrence),
  ].join("|");
  return createHash("sha256").update(payload).digest("hex");
}

/** POST /imports/csv/parse – the export read into trade records, with the skipped rows and per-line errors. */
export function parseBrokerExport(brokerName: string, bytes: Uint8Array): ParsedExport {
  const spec = brokerSpec(brokerName);
  const table = rows(decodeExport(bytes));
  const headerAt = table.findIndex((r) => r.some((c) => cell(c) !== ""));
  if (headerAt < 0) throw ApiError.of("validation_error", "The file is empty");
  const { fields, fees, taxes } = locate(table[headerAt]!, spec);
  const missing = (["trade_date", "symbol", "side", "quantity", "price"] as const).filter((f) => fields[f] < 0);
  if (missing.length > 0) {
    throw ApiError.of(
      "validation_error",
      `${spec.broker}: no column for ${missing.join(", ")} (header: ${table[headerAt]!.map(cell).join(",")})`,
    );
  }
  const body = table.slice(headerAt + 1);
  if (body.length > MAX_IMPORT_ROWS)
    throw ApiError.of("validation_error", `At most ${MAX_IMPORT_ROWS} rows per file (${body.length} given)`);

  const out: ParsedExport = { broker: spec.broker, records: [], skipped: [], errors: [] };
  const seen = new Map<string, number>();
  body.forEach((row, i) => {
    const line = headerAt + i + 2;
    if (row.every((c) => cell(c) === "")) return;
    const get = (f: Field) => (fields[f] >= 0 ? cell(row[fields[f]]) : "");
    const sideText = get("side");
    const side = sideOf(sideText);
    if (!side) {
      out.skipped.push({ line, reason: `not a buy or sell (${sideText || "no side"})` });
      return;
    }
    const problems: string[] = [];
    const tradeDate = dayOf(get("trade_date"));
    if (!tradeDate) problems.push(`date "${get("trade_date")}" is not a date`);
    const rawSymbol = symbolOf(get("symbol"), get("market"));
    const resolved = rawSymbol ? resolveToken(rawSymbol) : null;
    let symbol = "";
    if (!resolved) problems.push("no code");
    else if (isRejection(resolved)) problems.push(resolved.reason);
    else if (resolved.kind === "index") problems.push(`code "${rawSymbol}" is an index`);
    else symbol = resolved.displayCode;
    const quantity = numberOf(get("quantity"));
    if (quantity === null || quantity === 0) problems.push(`quantity "${get("quantity")}" is not a number above 0`);
    const price = numberOf(get("price"));
    if (price === null || price <= 0) problems.push(`price "${get("price")}" is not a number above 0`);
    const sum = (columns: number[], what: string) =>
      columns.reduce((total, at) => {
        const text = cell(row[at]);
        if (text === "") return total;
        const n = numberOf(text);
        if (n === null) problems.push(`${what} "${text}" is not a number`);
        return total + Math.abs(n ?? 0);
      }, 0);
    const fee = sum(fees, "fee");
    const tax = sum(taxes, "tax");
    if (problems.length > 0) {
      out.errors.push(`line ${line}: ${problems.join("; ")}`);
      return;
    }
    const currency = get("currency").toUpperCase();
    const base = {
      trade_date: tradeDate!,
      symbol,
      side,
      // Some exports sign sells negative: the side says which it is.
      quantity: Math.abs(quantity!),
      price: price!,
      fee: round(fee),
      tax: round(tax),
      trade_uid: get("trade_uid") || null,
      currency: /^[A-Z]{3,8}$/.test(currency) ? currency : currencyWord(currency),
      note: get("note") || null,
    };
    const key = JSON.stringify([
      base.trade_date,
      base.symbol,
      base.side,
      base.quantity,
      base.price,
      base.fee,
      base.tax,
      base.currency,
    ]);
    const occurrence = (seen.get(key) ?? 0) + 1;
    seen.set(key, occurrence);
    out.records.push({ ...base, dedup_hash: dedupHash(base, occurrence), line_number: line });
  });
  return out;
}

const round = (v: number) => Math.round(v * 1e6) / 1e6;

function currencyWord(text: string): string | null {
  if (/人民币|RMB|CNY|^元$/i.test(text)) return "CNY";
  if (/港/.test(text)) return "HKD";
  if (/美/.test(text)) return "USD";
  return null;
}
