import { z } from "zod";
import { isCalendarDay } from "@/lib/history/schemas";

export const MARKETS = ["cn", "hk", "us"] as const;
export const CURRENCIES = ["CNY", "HKD", "USD"] as const;
export const TRADE_PAGE_SIZE = { min: 1, max: 500, default: 50 } as const;

const ZDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "YYYY-MM-DD").refine(isCalendarDay, "not a calendar date");

export const ZAccountCreate = z
  .object({
    name: z.string().trim().min(1).max(100),
    market: z.enum(MARKETS).nullish().describe("The account's market, or null for a mixed account"),
    currency: z.enum(CURRENCIES).default("CNY").describe("Base currency of the account's risk report"),
    active: z.boolean().default(true),
  })
  .meta({ id: "PortfolioAccountCreate" });
export type TAccountCreate = z.infer<typeof ZAccountCreate>;

export const ZAccountUpdate = z
  .object({
    name: z.string().trim().min(1).max(100).optional(),
    market: z.enum(MARKETS).nullish(),
    currency: z.enum(CURRENCIES).optional(),
    active: z.boolean().optional(),
  })
  .meta({ id: "PortfolioAccountUpdate" });
export type TAccountUpdate = z.infer<typeof ZAccountUpdate>;

export const ZAccount = z
  .object({
    id: z.number().int(),
    name: z.string(),
    market: z.string().nullable(),
    currency: z.string(),
    active: z.boolean(),
    trade_count: z.number().int(),
    position_count: z.number().int(),
    created_at: z.string(),
  })
  .meta({ id: "PortfolioAccount" });
export type TAccount = z.infer<typeof ZAccount>;

export const ZAccountList = z.object({ items: z.array(ZAccount) }).meta({ id: "PortfolioAccountList" });

export const ZAccountParams = z.object({ account_id: z.coerce.number().int().positive() });
export const ZTradeParams = z.object({ trade_id: z.coerce.number().int().positive() });

export const ZTradeCreate = z
  .object({
    account_id: z.number().int().positive(),
    side: z.enum(["buy", "sell"]),
    stock_code: z.string().trim().min(1).max(32),
    quantity: z.number().positive().finite(),
    price: z.number().positive().finite(),
    fee: z.number().min(0).finite().default(0),
    trade_date: ZDay,
    note: z.string().max(500).nullish(),
  })
  .meta({ id: "PortfolioTradeCreate" });
export type TTradeCreate = z.infer<typeof ZTradeCreate>;

export const ZTrade = z
  .object({
    id: z.number().int(),
    account_id: z.number().int(),
    side: z.enum(["buy", "sell"]),
    stock_code: z.string(),
    market: z.string(),
    quantity: z.number(),
    price: z.number(),
    fee: z.number(),
    trade_date: z.string(),
    note: z.string().nullable(),
    source: z.string(),
    created_at: z.string(),
  })
  .meta({ id: "PortfolioTrade" });
export type TTrade = z.infer<typeof ZTrade>;

export const ZTradeListQuery = z.object({
  account_id: z.coerce.number().int().positive().optional(),
  stock_code: z.string().trim().min(1).max(32).optional(),
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(TRADE_PAGE_SIZE.min).max(TRADE_PAGE_SIZE.max).default(TRADE_PAGE_SIZE.default),
});
export type TTradeListQuery = z.infer<typeof ZTradeListQuery>;

export const ZTradeList = z
  .object({ items: z.array(ZTrade), total: z.number().int(), page: z.number().int(), page_size: z.number().int() })
  .meta({ id: "PortfolioTradeList" });

export const ZTradeImport = z
  .object({
    account_id: z.number().int().positive(),
    csv: z.string().min(1).max(2_000_000).describe("Header row: date,side,code,quantity,price[,fee][,note]; side buy/sell (买入/卖出 accepted)"),
  })
  .meta({ id: "PortfolioTradeImport" });
export type TTradeImport = z.infer<typeof ZTradeImport>;

export const ZTradeImportResult = z.object({ imported: z.number().int(), account_id: z.number().int() }).meta({ id: "PortfolioTradeImportResult" });

export const ZPosition = z
  .object({
    account_id: z.number().int(),
    stock_code: z.string(),
    market: z.string(),
    quantity: z.number(),
    avg_cost: z.number().nullable(),
    fifo_cost: z.number().nullable(),
    realized_pnl_avg: z.number(),
    realized_pnl_fifo: z.number(),
    updated_at: z.string(),
  })
  .meta({ id: "PortfolioPosition" });
export type TPosition = z.infer<typeof ZPosition>;

export const ZPositionList = z.object({ items: z.array(ZPosition) }).meta({ id: "PortfolioPositionList" });
export const ZPositionQuery = z.object({ account_id: z.coerce.number().int().positive().optional() });

// Spec 4.6: cost_method other than fifo|avg is a 400 (checked by the service), malformed as_of/account_id 422.
export const ZRiskQuery = z.object({
  account_id: z.coerce.number().int().positive().optional(),
  as_of: ZDay.optional(),
  cost_method: z.string().max(20).optional(),
});
export type TRiskQuery = z.infer<typeof ZRiskQuery>;
