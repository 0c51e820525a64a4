import { z } from "zod";
import { ZMarket } from "@/lib/market/symbols";

// A screening strategy is data: filters on the metrics of lib/screening/metrics.ts and one ranking metric. The
// built-in strategies and a user's own share this schema, so each is checked the same way and explained the same way.

export const METRICS = [
  "close",
  "change_pct",
  "ret_5d_pct",
  "ret_20d_pct",
  "ret_60d_pct",
  "ma5",
  "ma20",
  "ma60",
  "close_vs_ma20_pct",
  "close_vs_ma60_pct",
  "ma20_vs_ma60_pct",
  "ma20_slope_pct",
  "volume_ratio",
  "amount",
  "rsi14",
  "volatility_20d_pct",
  "high_52w",
  "close_vs_high_52w_pct",
  "breakout_20d_pct",
  "ma5_cross_ma20_days",
  "excess_ret_60d_pct",
] as const;
export const ZMetric = z.enum(METRICS).meta({ id: "ScreeningMetric" });
export type TMetric = z.infer<typeof ZMetric>;

const ZLocalized = z.object({ zh: z.string().trim().min(1).max(200), en: z.string().trim().min(1).max(200) });

export const ZFilter = z
  .object({
    metric: ZMetric,
    op: z.enum(["gte", "lte"]).describe("gte: the metric is at least value; lte: at most value"),
    value: z.number().finite(),
  })
  .meta({ id: "ScreeningFilter" });
export type TFilter = z.infer<typeof ZFilter>;

export const ZStrategy = z
  .object({
    id: z
      .string()
      .trim()
      .regex(/^[a-z][a-z0-9_]{1,47}$/, "lower-case letters, digits and _, starting with a letter"),
    name: ZLocalized,
    description: ZLocalized.describe("One sentence a trader reads on the page"),
    category: z.enum(["trend", "breakout", "reversal", "momentum", "volume", "quality"]),
    markets: z.array(ZMarket).min(1),
    filters: z.array(ZFilter).min(1).max(12),
    rank: z.object({ metric: ZMetric, order: z.enum(["desc", "asc"]) }),
  })
  .meta({ id: "ScreeningStrategyDefinition" });
export type TStrategy = z.infer<typeof ZStrategy>;
