import { z } from "zod";

const n = z.number();

export const ZRiskPosition = z.object({
  account_id: z.number().int(),
  stock_code: z.string(),
  market: z.string(),
  currency: z.string(),
  quantity: n,
  cost_per_share: n.nullable().describe("By the requested cost_method"),
  last_price: n
    .nullable()
    .describe("The price an analysis shows for as_of (issue 17 item 3: one price everywhere): today's quote when it is newer than the last daily bar, else the close on as_of or the latest close before it"),
  price_date: z.string().nullable().describe("The session last_price belongs to"),
  price_basis: z.enum(["quote", "close"]).nullable().describe("quote: a realtime quote of price_date; close: that session's close"),
  market_value: n.nullable().describe("In the listing currency"),
  market_value_base: n.nullable().describe("In the report currency"),
  unrealized_pnl: n.nullable(),
  unrealized_pnl_pct: n.nullable(),
  realized_pnl: n,
  weight_pct: n,
});
export type TRiskPosition = z.infer<typeof ZRiskPosition>;

const ZExposure = z.array(z.object({ key: z.string(), market_value_base: n, weight_pct: n }));

// CONTRACT.md §6 PortfolioRiskResponse, plus positions, exposure, volatility_pct, var_95_1d, warnings (and fx, hhi,
// the drawdown series for charts).
export const ZPortfolioRisk = z
  .object({
    as_of: z.string(),
    account_id: z.number().int().nullable(),
    cost_method: z.enum(["fifo", "avg"]),
    currency: z.string(),
    thresholds: z.object({ concentration_alert_pct: n, drawdown_alert_pct: n, stop_loss_alert_pct: n, stop_loss_near_ratio: n, lookback_days: n }),
    fx: z.object({ source: z.string(), rates_to_cny: z.record(z.string(), n) }),
    positions: z.array(ZRiskPosition),
    concentration: z.object({
      total_market_value: n,
      top_weight_pct: n,
      hhi: n.describe("Herfindahl index of the weights, 0–1"),
      alert: z.boolean(),
      top_positions: z.array(z.object({ symbol: z.string(), market_value: n, weight_pct: n, is_alert: z.boolean() })),
    }),
    sector_concentration: z.object({ available: z.boolean(), reason: z.string().nullable(), classified_count: z.number().int(), unclassified_count: z.number().int() }),
    exposure: z.object({ by_market: ZExposure, by_currency: ZExposure }),
    drawdown: z.object({
      series_points: z.number().int(),
      max_drawdown_pct: n,
      current_drawdown_pct: n,
      alert: z.boolean(),
      series: z.array(z.object({ date: z.string(), value: n, index: n.describe("Time-weighted growth of 1 over the lookback") })),
    }),
    volatility_pct: n.nullable().describe("Annualised standard deviation of daily returns, %; null with fewer than 20 returns"),
    var_95_1d: z.object({ pct: n, amount: n, method: z.literal("historical"), observations: z.number().int() }).nullable(),
    stop_loss: z.object({
      near_alert: z.boolean(),
      triggered_count: z.number().int(),
      near_count: z.number().int(),
      items: z.array(z.object({ account_id: z.number().int(), symbol: z.string(), avg_cost: n, last_price: n, loss_pct: n, near_threshold_pct: n, is_triggered: z.boolean() })),
    }),
    decision_signal_risk: z.object({
      available: z.boolean(),
      total: z.number().int(),
      actions: z.record(z.string(), z.number().int()),
      items: z.array(z.object({ signal_id: z.number().int(), stock_code: z.string(), action: z.string(), score: z.number().nullable(), created_at: z.string() })),
    }),
    warnings: z.array(
      z.object({
        code: z.enum(["concentration", "drawdown", "stop_loss", "price_stale", "price_unavailable", "short_history", "decision_signals"]),
        message: z.string().describe("English text; value and limit carry the numbers for other languages"),
        stock_code: z.string().nullable(),
        value: n.nullable().describe("The observed figure (weight %, drawdown %, loss %, return count, signal count)"),
        limit: n.nullable().describe("The threshold it is compared with, when there is one"),
        date: z.string().nullable().describe("price_stale: the date of the last price"),
      }),
    ),
  })
  .meta({ id: "PortfolioRiskResponse" });
export type TPortfolioRisk = z.infer<typeof ZPortfolioRisk>;
