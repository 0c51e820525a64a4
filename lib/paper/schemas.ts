import { z } from "zod";
import { ZMarket } from "@/lib/market/symbols";

// Paper accounts on the wire (docs/api.md §15).

export const CURRENCY: Record<z.infer<typeof ZMarket>, string> = { cn: "CNY", hk: "HKD", us: "USD" };

export const ZPaperFollow = z
  .discriminatedUnion("kind", [
    z.object({
      kind: z.literal("watchlist").describe("The calls on the stocks of the watchlist as it is at each run"),
    }),
    z.object({
      kind: z.literal("codes"),
      codes: z.array(z.string().trim().min(1).max(32)).min(1).max(50).describe("Codes or names of the market"),
    }),
    z.object({
      kind: z.literal("screening"),
      strategy: z
        .string()
        .trim()
        .min(1)
        .max(48)
        .describe("The calls on the candidates of this strategy's runs over the account's market since it started"),
    }),
  ])
  .meta({ id: "PaperFollow" });

export const ZPaperSizing = z
  .discriminatedUnion("kind", [
    z.object({
      kind: z.literal("equal_weight"),
      max_positions: z.number().int().min(1).max(50).describe("Each buy gets equity ÷ N; at most N positions"),
    }),
    z.object({
      kind: z.literal("fixed_fraction"),
      fraction: z.number().gt(0).max(1).describe("Each buy gets this share of the equity at the previous close"),
    }),
  ])
  .meta({ id: "PaperSizing" });

export const ZPaperFees = z
  .object({
    commission_rate: z.number().min(0).max(0.01).describe("Per side, as a fraction of the notional"),
    min_commission: z.number().min(0).max(1000),
    buy_tax_rate: z.number().min(0).max(0.01),
    sell_tax_rate: z.number().min(0).max(0.01),
    slippage_bps: z.number().min(0).max(500),
  })
  .meta({ id: "PaperFees" });
export type TPaperFees = z.infer<typeof ZPaperFees>;

export const ZPaperAccountCreate = z
  .object({
    name: z.string().trim().min(1).max(80),
    market: ZMarket,
    starting_cash: z.number().positive().max(1e12).describe("In the market's currency (CNY, HKD, USD)"),
    follow: ZPaperFollow,
    sizing: ZPaperSizing.default({ kind: "equal_weight", max_positions: 10 }),
    fees: ZPaperFees.partial().optional().describe("Each field replaces the market's default"),
  })
  .meta({ id: "PaperAccountCreate" });
export type TPaperAccountCreate = z.infer<typeof ZPaperAccountCreate>;

export const ZPaperPosition = z.object({
  code: z.string(),
  quantity: z.number().int(),
  avg_cost: z.number().describe("Per share, the buy's fees included"),
  last_close: z.number(),
  market_value: z.number(),
  unrealized_pnl: z.number(),
  opened_session: z.string(),
  stop_loss: z.number().nullable(),
  target_price: z.number().nullable(),
  signal_id: z.number().int(),
  report_id: z.number().int().nullable(),
});

export const ZPaperAccount = z
  .object({
    id: z.number().int(),
    name: z.string(),
    market: ZMarket,
    currency: z.string(),
    starting_cash: z.number(),
    follow: ZPaperFollow,
    sizing: ZPaperSizing,
    fees: ZPaperFees,
    lot_size: z.number().int(),
    t_plus_one: z.boolean(),
    status: z.enum(["active", "paused"]),
    start_session: z.string().describe("The first session it may trade: the one after it was made"),
    last_session: z.string().nullable().describe("The last session processed"),
    cash: z.number(),
    equity: z.number().describe("At the last session's close"),
    return_pct: z.number().describe("Equity against the starting cash, %"),
    positions: z.array(ZPaperPosition),
    waiting: z.array(z.object({ code: z.string(), signal_id: z.number().int(), action: z.string() })),
    created_at: z.string(),
  })
  .meta({ id: "PaperAccount" });
export type TPaperAccount = z.infer<typeof ZPaperAccount>;

export const ZPaperAccountList = z.object({ items: z.array(ZPaperAccount) }).meta({ id: "PaperAccountList" });

export const ZPaperAccountParams = z.object({ id: z.coerce.number().int().positive() });

export const ZPaperStatusChange = z.object({ status: z.enum(["active", "paused"]) }).meta({ id: "PaperStatusChange" });

export const ZPaperFill = z
  .object({
    id: z.number().int(),
    session: z.string(),
    code: z.string(),
    side: z.enum(["buy", "sell"]),
    quantity: z.number().int(),
    price: z.number(),
    fees: z.number(),
    reason: z.enum(["buy_call", "add_call", "sell_call", "reduce_call", "stop", "target"]),
    signal_id: z
      .number()
      .int()
      .describe("The decision signal that caused it (for a stop or target: the one that opened the position)"),
    report_id: z.number().int().nullable().describe("The report the signal came from"),
  })
  .meta({ id: "PaperFill" });

export const ZPaperDay = z
  .object({
    session: z.string(),
    cash: z.number(),
    market_value: z.number(),
    equity: z.number(),
    positions: z.number().int(),
    notes: z.array(z.object({ code: z.string(), signal_id: z.number().int(), note: z.string() })),
  })
  .meta({ id: "PaperDay" });

export const ZPaperTrade = z.object({
  code: z.string(),
  entry_session: z.string(),
  entry_cost: z.number().describe("Per share, the buy's fees included"),
  exit_session: z.string(),
  exit_price: z.number(),
  quantity: z.number().int(),
  exit_reason: z.string(),
  return_pct: z.number().describe("After every fee and tax of both sides"),
  signal_id: z.number().int().describe("The call that opened the position"),
  report_id: z.number().int().nullable(),
});

export const ZPaperStats = z
  .object({
    sessions: z.number().int(),
    return_pct: z.number().describe("Equity at the last close against the starting cash"),
    benchmark_return_pct: z
      .number()
      .nullable()
      .describe("The index over the same sessions, from the first one's close"),
    max_drawdown_pct: z.number(),
    exposure_pct: z.number().describe("Mean share of the equity held in stocks at the closes"),
    turnover: z.number().describe("Everything bought and sold over the mean equity"),
    trades: z.number().int().describe("Closed trades (each sell fill)"),
    wins: z.number().int(),
    win_rate_pct: z.number().nullable(),
    daily_excess: z
      .object({
        n: z.number().int(),
        mean_pct: z.number(),
        ci95_low_pct: z.number(),
        ci95_high_pct: z.number(),
        lags: z.number().int().describe("Newey-West lags: held positions make neighbouring days' returns correlated"),
      })
      .nullable()
      .describe("The daily return over the index's, with its 95% interval; null without the index's bars"),
    verdict: z
      .enum(["edge", "no_measurable_edge", "adverse", "insufficient"])
      .describe("edge only when the interval is above 0; insufficient under 20 sessions or without the index"),
  })
  .meta({ id: "PaperStats" });

export const ZPaperRecord = z
  .object({
    account: ZPaperAccount,
    days: z.array(ZPaperDay).describe("One per processed session, oldest first: the equity curve"),
    fills: z.array(ZPaperFill).describe("Oldest first"),
    trades: z.array(ZPaperTrade).describe("Each closed trade, oldest first"),
    stats: ZPaperStats,
    benchmark: z
      .object({
        code: z.string(),
        points: z
          .array(z.object({ session: z.string(), value: z.number() }))
          .describe("The index scaled to the equity of the first session's close"),
      })
      .nullable(),
  })
  .meta({ id: "PaperRecord" });
export type TPaperRecord = z.infer<typeof ZPaperRecord>;

export const ZPaperRunResult = z
  .object({
    account_id: z.number().int(),
    processed: z.array(z.string()).describe("Sessions processed by this run, in order"),
    fills: z.number().int(),
    last_session: z.string().nullable(),
    equity: z.number(),
  })
  .meta({ id: "PaperRunResult" });
export type TPaperRunResult = z.infer<typeof ZPaperRunResult>;
