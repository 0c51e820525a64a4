import { z } from "zod";
import { isCalendarDay } from "@/lib/history/schemas";
import { DB_ID_MAX } from "@/lib/db/id-range";

export const MARKETS = ["cn", "hk", "us"] as const;
export type TPortfolioMarket = (typeof MARKETS)[number];
export const CURRENCIES = ["CNY", "HKD", "USD"] as const;
/** docs/api.md §12.0: portfolio lists page with page (>= 1) and page_size 1..100, default 20. */
export const PAGE_SIZE = { min: 1, max: 100, default: 20 } as const;

export const ZDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "YYYY-MM-DD")
  .refine(isCalendarDay, "not a calendar date");
/** A currency code as the reference takes it: 3-8 characters, stored upper-case. */
export const ZCurrencyCode = z
  .string()
  .trim()
  .min(3)
  .max(8)
  .regex(/^[A-Za-z]+$/, "letters only")
  .transform((v) => v.toUpperCase());
const ZQueryBool = z
  .union([z.boolean(), z.enum(["true", "false", "1", "0"])])
  .transform((v) => v === true || v === "true" || v === "1");

export const ZPageQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(PAGE_SIZE.min).max(PAGE_SIZE.max).default(PAGE_SIZE.default),
});

// docs/api.md §12.1.2
export const ZAccountCreate = z
  .object({
    name: z.string().trim().min(1).max(64),
    broker: z.string().trim().max(64).nullish(),
    market: z.enum(MARKETS).default("cn"),
    base_currency: ZCurrencyCode.default("CNY").describe("Currency the account's snapshot and risk are valued in"),
    owner_id: z.string().trim().max(64).nullish(),
  })
  .meta({ id: "PortfolioAccountCreate" });
export type TAccountCreate = z.input<typeof ZAccountCreate>;

// docs/api.md §12.1.3: every field optional.
export const ZAccountUpdate = z
  .object({
    name: z.string().trim().min(1).max(64).optional(),
    broker: z.string().trim().max(64).nullish(),
    market: z.enum(MARKETS).optional(),
    base_currency: ZCurrencyCode.optional(),
    owner_id: z.string().trim().max(64).nullish(),
    is_active: z.boolean().optional(),
  })
  .meta({ id: "PortfolioAccountUpdate" });
export type TAccountUpdate = z.infer<typeof ZAccountUpdate>;

// docs/api.md §12.1.1, plus our trade and position counts.
export const ZAccount = z
  .object({
    id: z.number().int(),
    name: z.string(),
    owner_id: z.string().nullable(),
    broker: z.string().nullable(),
    market: z.enum(MARKETS),
    base_currency: z.string(),
    is_active: z.boolean(),
    created_at: z.string(),
    updated_at: z.string(),
    trade_count: z.number().int(),
    position_count: z.number().int(),
  })
  .meta({ id: "PortfolioAccount" });
export type TAccount = z.infer<typeof ZAccount>;

export const ZAccountList = z.object({ accounts: z.array(ZAccount) }).meta({ id: "PortfolioAccountList" });
export const ZAccountListQuery = z.object({
  include_inactive: ZQueryBool.default(false).describe(
    "The reference's client always sends false; true lists deactivated accounts too",
  ),
});

export const ZAccountParams = z.object({ account_id: z.coerce.number().int().positive().max(DB_ID_MAX) });
export const ZTradeParams = z.object({ trade_id: z.coerce.number().int().positive().max(DB_ID_MAX) });
export const ZDeleted = z.object({ deleted: z.number().int() }).meta({ id: "PortfolioDeleted" });

// docs/api.md §12.1.10
export const ZTradeCreate = z
  .object({
    account_id: z.number().int().positive().max(DB_ID_MAX),
    symbol: z
      .string()
      .trim()
      .min(1)
      .max(16)
      .describe("Stock code in any spelling analyze accepts (600519, sh600519, 00700, AAPL)"),
    trade_date: ZDay,
    side: z.enum(["buy", "sell"]),
    quantity: z.number().positive().finite(),
    price: z.number().positive().finite(),
    fee: z.number().min(0).finite().default(0),
    tax: z.number().min(0).finite().default(0),
    market: z
      .enum(MARKETS)
      .nullish()
      .describe("Checked against the symbol's market; decides a code that two markets share"),
    currency: ZCurrencyCode.nullish().describe("Default: the currency of the symbol's market"),
    trade_uid: z
      .string()
      .trim()
      .min(1)
      .max(128)
      .nullish()
      .describe("Unique per account: a second trade with it is a 409 conflict"),
    note: z.string().max(255).nullish(),
  })
  .meta({ id: "PortfolioTradeCreate" });
export type TTradeCreate = z.input<typeof ZTradeCreate>;

export const ZTrade = z
  .object({
    id: z.number().int(),
    account_id: z.number().int(),
    trade_uid: z.string().nullable(),
    symbol: z.string(),
    market: z.string(),
    currency: z.string(),
    trade_date: z.string(),
    side: z.enum(["buy", "sell"]),
    quantity: z.number(),
    price: z.number(),
    fee: z.number(),
    tax: z.number(),
    note: z.string().nullable(),
    source: z.string().describe("manual or import"),
    created_at: z.string(),
  })
  .meta({ id: "PortfolioTrade" });
export type TTrade = z.infer<typeof ZTrade>;

export const ZTradeListQuery = ZPageQuery.extend({
  account_id: z.coerce.number().int().positive().max(DB_ID_MAX).optional(),
  date_from: ZDay.optional(),
  date_to: ZDay.optional(),
  symbol: z.string().trim().min(1).max(32).optional(),
  side: z.enum(["buy", "sell"]).optional(),
});
export type TTradeListQuery = z.input<typeof ZTradeListQuery>;

export const ZTradeList = z
  .object({ items: z.array(ZTrade), total: z.number().int(), page: z.number().int(), page_size: z.number().int() })
  .meta({ id: "PortfolioTradeList" });

export const ZPosition = z
  .object({
    account_id: z.number().int(),
    symbol: z.string(),
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
export const ZPositionQuery = z.object({ account_id: z.coerce.number().int().positive().max(DB_ID_MAX).optional() });

// Spec 4.6: cost_method other than fifo|avg is a 400 (checked by the service), malformed as_of/account_id 422.
export const ZRiskQuery = z.object({
  account_id: z.coerce.number().int().positive().max(DB_ID_MAX).optional(),
  as_of: ZDay.optional(),
  cost_method: z.string().max(20).optional(),
});
export type TRiskQuery = z.infer<typeof ZRiskQuery>;
