import { z } from "zod";
import { MARKETS, ZCurrencyCode, ZDay, ZPageQuery } from "./schemas";
import { DB_ID_MAX } from "@/lib/db/id-range";

const page = { total: z.number().int(), page: z.number().int(), page_size: z.number().int() };

// docs/api.md §12.1.11: the cash ledger.
export const CASH_DIRECTIONS = ["in", "out"] as const;

export const ZCashEntryCreate = z
  .object({
    account_id: z.number().int().positive().max(DB_ID_MAX),
    event_date: ZDay,
    direction: z.enum(CASH_DIRECTIONS).describe("in: deposit; out: withdrawal"),
    amount: z.number().positive().finite(),
    currency: ZCurrencyCode.nullish().describe("Default: the account's base currency"),
    note: z.string().max(255).nullish(),
  })
  .meta({ id: "PortfolioCashEntryCreate" });
export type TCashEntryCreate = z.input<typeof ZCashEntryCreate>;

export const ZCashEntry = z
  .object({
    id: z.number().int(),
    account_id: z.number().int(),
    event_date: z.string(),
    direction: z.enum(CASH_DIRECTIONS),
    amount: z.number(),
    currency: z.string(),
    note: z.string().nullable(),
    created_at: z.string(),
  })
  .meta({ id: "PortfolioCashEntry" });
export type TCashEntry = z.infer<typeof ZCashEntry>;

export const ZCashListQuery = ZPageQuery.extend({
  account_id: z.coerce.number().int().positive().max(DB_ID_MAX).optional(),
  date_from: ZDay.optional(),
  date_to: ZDay.optional(),
  direction: z.enum(CASH_DIRECTIONS).optional(),
});
export type TCashListQuery = z.input<typeof ZCashListQuery>;

export const ZCashList = z.object({ ...page, items: z.array(ZCashEntry) }).meta({ id: "PortfolioCashLedgerList" });
export type TCashList = z.infer<typeof ZCashList>;
export const ZCashEntryParams = z.object({ entry_id: z.coerce.number().int().positive().max(DB_ID_MAX) });

// docs/api.md §12.1.12: corporate actions.
export const ACTION_TYPES = ["cash_dividend", "split_adjustment"] as const;

export const ZCorporateActionCreate = z
  .object({
    account_id: z.number().int().positive().max(DB_ID_MAX),
    symbol: z.string().trim().min(1).max(16),
    effective_date: ZDay.describe("Applies at the start of this date, before the day's trades"),
    action_type: z.enum(ACTION_TYPES),
    market: z.enum(MARKETS).nullish(),
    currency: ZCurrencyCode.nullish().describe("Default: the currency of the symbol's market"),
    cash_dividend_per_share: z
      .number()
      .min(0)
      .finite()
      .nullish()
      .describe("cash_dividend (required): cash per share held at the start of effective_date"),
    split_ratio: z
      .number()
      .positive()
      .finite()
      .nullish()
      .describe("split_adjustment (required): new shares per old share (2 = two-for-one, 0.5 = one-for-two)"),
    note: z.string().max(255).nullish(),
  })
  .meta({ id: "PortfolioCorporateActionCreate" });
export type TCorporateActionCreate = z.input<typeof ZCorporateActionCreate>;

export const ZCorporateAction = z
  .object({
    id: z.number().int(),
    account_id: z.number().int(),
    symbol: z.string(),
    market: z.string(),
    currency: z.string(),
    effective_date: z.string(),
    action_type: z.enum(ACTION_TYPES),
    cash_dividend_per_share: z.number().nullable(),
    split_ratio: z.number().nullable(),
    note: z.string().nullable(),
    created_at: z.string(),
  })
  .meta({ id: "PortfolioCorporateAction" });
export type TCorporateAction = z.infer<typeof ZCorporateAction>;

export const ZCorporateActionListQuery = ZPageQuery.extend({
  account_id: z.coerce.number().int().positive().max(DB_ID_MAX).optional(),
  date_from: ZDay.optional(),
  date_to: ZDay.optional(),
  symbol: z.string().trim().min(1).max(32).optional(),
  action_type: z.enum(ACTION_TYPES).optional(),
});
export type TCorporateActionListQuery = z.input<typeof ZCorporateActionListQuery>;

export const ZCorporateActionList = z
  .object({ ...page, items: z.array(ZCorporateAction) })
  .meta({ id: "PortfolioCorporateActionList" });
export type TCorporateActionList = z.infer<typeof ZCorporateActionList>;
export const ZCorporateActionParams = z.object({ action_id: z.coerce.number().int().positive().max(DB_ID_MAX) });
