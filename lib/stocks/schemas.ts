import { z } from "zod";

// GET /stocks/{code}/quote and /history (CONTRACT §14.2): the fields the contract lists and, beside them, the same
// values under the names the reference's own schema uses (stock_code, current_price, change_percent, update_time),
// so a client written against either reads them.

const num = z.number().nullable();

export const ZStockCodeParams = z.object({
  code: z.string().trim().min(1).max(32).describe("A stock or registered index code, or a name that resolves to one"),
});

export const ZStockQuoteResponse = z
  .object({
    code: z.string(),
    name: z.string().nullable(),
    market: z.enum(["cn", "hk", "us"]),
    asset_type: z.enum(["stock", "index"]),
    price: z.number(),
    change: num.describe("Against the previous session's close"),
    change_pct: num,
    open: num,
    high: num,
    low: num,
    prev_close: num,
    volume: num.describe("Shares"),
    amount: num.describe("In the listing currency"),
    date: z.string().describe("The market's session date the price belongs to"),
    time: z.string().nullable().describe("The quote's time with the market's offset; null when the price is a close"),
    basis: z.enum(["quote", "close"]).describe("quote: a realtime or latest quote; close: the last daily close"),
    source: z.string(),
    is_sample_data: z.boolean(),
    stock_code: z.string(),
    stock_name: z.string().nullable(),
    current_price: z.number(),
    change_percent: num,
    update_time: z.string().nullable(),
  })
  .meta({ id: "StockQuoteResponse" });
export type TStockQuoteResponse = z.infer<typeof ZStockQuoteResponse>;

export const ZStockHistoryQuery = z.object({
  days: z.coerce.number().int().min(1).max(1000).default(30).describe("Daily bars, newest last (1-1000, 30)"),
});

export const ZStockBar = z.object({
  date: z.string(),
  open: z.number(),
  high: z.number(),
  low: z.number(),
  close: z.number(),
  volume: z.number(),
  amount: num,
  change_percent: num.describe("Close against the previous bar's close; null for the first bar"),
});

export const ZStockHistoryResponse = z
  .object({
    code: z.string(),
    name: z.string().nullable(),
    market: z.enum(["cn", "hk", "us"]),
    asset_type: z.enum(["stock", "index"]),
    period: z.literal("daily"),
    source: z.string().describe("The source of the newest bar"),
    is_sample_data: z.boolean(),
    data: z.array(ZStockBar),
    stock_code: z.string(),
    stock_name: z.string().nullable(),
  })
  .meta({ id: "StockHistoryResponse" });
export type TStockHistoryResponse = z.infer<typeof ZStockHistoryResponse>;
