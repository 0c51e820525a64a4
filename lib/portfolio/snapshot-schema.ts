import { z } from "zod";
import { ZDay } from "./schemas";
import { DB_ID_MAX } from "@/lib/db/id-range";

const n = z.number();

// docs/api.md §12.1.5: the snapshot the reference's portfolio page renders. Money is in valuation_currency (the
// account's base currency) per position and account, and in `currency` for the totals.

export const ZSnapshotQuery = z.object({
  account_id: z.coerce.number().int().positive().max(DB_ID_MAX).optional().describe("Omitted: every active account"),
  as_of: ZDay.optional().describe("Default today in SERVICE_TIMEZONE"),
  cost_method: z.string().max(20).optional().describe("fifo (default) or avg; anything else is a 400 validation_error"),
});
export type TSnapshotQuery = z.infer<typeof ZSnapshotQuery>;

export const PRICE_SOURCES = ["realtime_quote", "history_close", "missing"] as const;

export const ZSnapshotPosition = z
  .object({
    account_id: z.number().int(),
    symbol: z.string(),
    market: z.string(),
    currency: z.string().describe("The position's trading currency (prices and costs are in it)"),
    quantity: n.describe("Shares held at as_of (splits applied)"),
    avg_cost: n.describe("Cost per share by cost_method, fees and taxes included"),
    total_cost: n.describe("quantity × avg_cost, in currency"),
    last_price: n.describe("The one price of as_of; the cost per share when price_source is missing"),
    market_value: n.describe("In currency"),
    market_value_base: n.describe("In valuation_currency; at cost when the price is missing"),
    unrealized_pnl_base: n,
    unrealized_pnl_pct: n.nullable(),
    realized_pnl_base: n.describe("Realized trading P&L by cost_method plus dividends, in valuation_currency"),
    valuation_currency: z.string(),
    price_source: z
      .enum(PRICE_SOURCES)
      .describe(
        "realtime_quote: the quote stands for the price's session; history_close: a daily close; missing: no market data",
      ),
    price_provider: z.string().nullable(),
    price_date: z.string().nullable(),
    price_stale: z
      .boolean()
      .describe(
        "The price's session is older than the one as_of should be priced at (its own, or the last closed one)",
      ),
    price_available: z.boolean(),
  })
  .meta({ id: "PortfolioSnapshotPosition" });
export type TSnapshotPosition = z.infer<typeof ZSnapshotPosition>;

const totals = {
  total_cash: n.describe("Ledger in − out − buys + sells − fees − taxes + dividends"),
  total_market_value: n,
  total_equity: n.describe("total_cash + total_market_value"),
  realized_pnl: n,
  unrealized_pnl: n,
  fee_total: n,
  tax_total: n,
  fx_stale: z.boolean().describe("A conversion used a missing or stale FX rate"),
};

export const ZAccountSnapshot = z
  .object({
    account_id: z.number().int(),
    account_name: z.string(),
    owner_id: z.string().nullable(),
    broker: z.string().nullable(),
    market: z.string(),
    base_currency: z.string(),
    as_of: z.string(),
    cost_method: z.enum(["fifo", "avg"]),
    ...totals,
    positions: z.array(ZSnapshotPosition).describe("Open positions (quantity > 0), largest first"),
  })
  .meta({ id: "PortfolioAccountSnapshot" });
export type TAccountSnapshot = z.infer<typeof ZAccountSnapshot>;

export const ZSnapshot = z
  .object({
    as_of: z.string(),
    cost_method: z.enum(["fifo", "avg"]),
    currency: z
      .string()
      .describe("Currency of the totals: the account's base currency, or PORTFOLIO_BASE_CURRENCY over all accounts"),
    account_count: z.number().int(),
    ...totals,
    accounts: z.array(ZAccountSnapshot),
  })
  .meta({ id: "PortfolioSnapshotResponse" });
export type TSnapshot = z.infer<typeof ZSnapshot>;
