import { z } from "zod";
import { PRICE_SOURCES } from "./snapshot-schema";

const n = z.number();

export const ZRiskPosition = z.object({
  account_id: z.number().int(),
  symbol: z.string(),
  market: z.string(),
  currency: z.string(),
  quantity: n,
  cost_per_share: n.describe("By the requested cost_method"),
  last_price: n
    .nullable()
    .describe(
      "The price an analysis shows for as_of (one price everywhere): today's quote when it is newer than the last daily bar, else the close on as_of or the latest close before it; null without market data",
    ),
  price_date: z.string().nullable().describe("The session last_price belongs to"),
  price_source: z.enum(PRICE_SOURCES).describe("As the snapshot: realtime_quote, history_close or missing"),
  market_value: n.describe("In the position's currency; at cost when the price is missing (as the snapshot)"),
  market_value_base: n.describe("In the report currency"),
  unrealized_pnl: n.nullable(),
  unrealized_pnl_pct: n.nullable(),
  realized_pnl: n.describe("Realized trading P&L by cost_method plus dividends, in the position's currency"),
  weight_pct: n,
});
export type TRiskPosition = z.infer<typeof ZRiskPosition>;

const ZExposure = z.array(z.object({ key: z.string(), market_value_base: n, weight_pct: n }));

// docs/api.md §6 PortfolioRiskResponse with the §12.1.6 field names, plus positions, exposure, volatility_pct, var_95_1d,
// warnings (and fx, hhi, the drawdown series for charts).
export const ZPortfolioRisk = z
  .object({
    as_of: z.string(),
    account_id: z.number().int().nullable(),
    cost_method: z.enum(["fifo", "avg"]),
    currency: z.string(),
    thresholds: z.object({
      concentration_alert_pct: n,
      drawdown_alert_pct: n,
      stop_loss_alert_pct: n,
      stop_loss_near_ratio: n,
      lookback_days: n,
    }),
    fx: z.object({
      rates_to_cny: z.record(z.string(), n).describe("One unit of each currency in CNY, as used"),
      stale: z.boolean(),
      rates: z
        .array(
          z.object({
            currency: z.string(),
            rate: n,
            date: z.string().nullable(),
            source: z.string().describe("PORTFOLIO_FX_RATES (manual), a provider, or fallback"),
            stale: z.boolean(),
          }),
        )
        .describe("Where each rate comes from"),
    }),
    positions: z.array(ZRiskPosition),
    concentration: z.object({
      total_market_value: n,
      top_weight_pct: n,
      hhi: n.describe("Herfindahl index of the weights by security, 0–1"),
      alert: z.boolean(),
      top_positions: z
        .array(
          z.object({
            symbol: z.string(),
            market_value: n.describe("In the security's currency"),
            market_value_base: n,
            weight_pct: n,
            is_alert: z.boolean(),
          }),
        )
        .describe("By security across accounts, largest first, at most 10"),
    }),
    sector_concentration: z.object({
      available: z.boolean(),
      reason: z.string().nullable(),
      total_market_value: n,
      top_weight_pct: n.describe("Of the first row of top_sectors, UNCLASSIFIED included"),
      alert: z.boolean(),
      top_sectors: z.array(
        z.object({
          sector: z.string().describe("UNCLASSIFIED for securities without a sector"),
          market_value_base: n,
          weight_pct: n,
          symbol_count: z.number().int(),
          is_alert: z.boolean(),
        }),
      ),
      coverage: z.object({
        classified_count: z.number().int(),
        unclassified_count: z.number().int(),
        failed_count: z.number().int(),
      }),
      errors: z.array(z.string()),
    }),
    exposure: z.object({ by_market: ZExposure, by_currency: ZExposure }),
    drawdown: z.object({
      series_points: z.number().int(),
      max_drawdown_pct: n,
      current_drawdown_pct: n,
      alert: z.boolean(),
      fx_stale: z.boolean().describe("A conversion into the report currency used a missing or stale FX rate"),
      series: z.array(
        z.object({ date: z.string(), value: n, index: n.describe("Time-weighted growth of 1 over the lookback") }),
      ),
    }),
    volatility_pct: n
      .nullable()
      .describe("Annualised standard deviation of daily returns, %; null with fewer than 20 returns"),
    var_95_1d: z
      .object({ pct: n, amount: n, method: z.literal("historical"), observations: z.number().int() })
      .nullable(),
    stop_loss: z.object({
      near_alert: z.boolean(),
      triggered_count: z.number().int(),
      near_count: z.number().int().describe("Positions at or past the near line (the triggered ones included)"),
      items: z.array(
        z.object({
          account_id: z.number().int(),
          symbol: z.string(),
          avg_cost: n,
          last_price: n,
          loss_pct: n,
          near_threshold_pct: n,
          is_triggered: z.boolean(),
        }),
      ),
    }),
    decision_signal_risk: z.object({
      available: z.boolean(),
      total: z.number().int(),
      actions: z.record(z.string(), z.number().int()),
      items: z.array(
        z.object({
          account_id: z.number().int(),
          symbol: z.string(),
          market: z.string(),
          signal: z.object({
            id: z.number().int(),
            stock_code: z.string(),
            action: z.string(),
            score: z.number().nullable(),
            status: z.string(),
            created_at: z.string(),
          }),
        }),
      ),
    }),
    warnings: z.array(
      z.object({
        code: z.enum([
          "concentration",
          "drawdown",
          "stop_loss",
          "price_stale",
          "price_unavailable",
          "short_history",
          "decision_signals",
        ]),
        message: z.string().describe("English text; value and limit carry the numbers for other languages"),
        symbol: z.string().nullable(),
        value: n.nullable().describe("The observed figure (weight %, drawdown %, loss %, return count, signal count)"),
        limit: n.nullable().describe("The threshold it is compared with, when there is one"),
        date: z.string().nullable().describe("price_stale: the date of the last price"),
      }),
    ),
  })
  .meta({ id: "PortfolioRiskResponse" });
export type TPortfolioRisk = z.infer<typeof ZPortfolioRisk>;
