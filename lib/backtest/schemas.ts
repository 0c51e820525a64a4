import { z } from "zod";
import { DECISION_ACTIONS } from "@/lib/analysis/engine/schemas";
import { isCalendarDay } from "@/lib/history/schemas";

// Backtest API records (docs/api.md §11): one zod schema per wire record serves validation, types and OpenAPI.

export const BACKTEST_STATUSES = ["pending", "running", "completed", "failed"] as const;
export const DEFAULT_HORIZONS = [1, 3, 5, 10] as const;
export const HORIZON_RANGE = { min: 1, max: 60 } as const;
export const CALLS_PAGE_SIZE = { min: 1, max: 500, default: 100 } as const;
export const RUNS_PAGE_SIZE = { min: 1, max: 100, default: 20 } as const;
export const NEUTRAL_BAND_RANGE = { min: 0, max: 20, default: 2 } as const;

const isoDay = z.string().refine(isCalendarDay, "Expected a calendar date YYYY-MM-DD");
const nullableNumber = z.number().nullable();

export const ZBacktestRequest = z
  .object({
    stock_code: z.string().trim().min(1).max(64).describe("One code or name, resolved like an analyze target"),
    start_date: isoDay
      .optional()
      .describe("First day a call may be made (default: the first day with enough history for a score)"),
    end_date: isoDay.optional().describe("Last day a call may be made (default: the last bar)"),
    horizons: z
      .array(z.number().int().min(HORIZON_RANGE.min).max(HORIZON_RANGE.max))
      .min(1)
      .max(10)
      .refine((list) => new Set(list).size === list.length, "horizons must be distinct")
      .default([...DEFAULT_HORIZONS])
      .describe("Trading days after each call at which it is judged"),
    step: z.number().int().min(1).max(250).default(1).describe("A call on every step-th trading day"),
    neutral_band_pct: z
      .number()
      .min(NEUTRAL_BAND_RANGE.min)
      .max(NEUTRAL_BAND_RANGE.max)
      .default(NEUTRAL_BAND_RANGE.default),
  })
  .refine((body) => !body.start_date || !body.end_date || body.start_date <= body.end_date, {
    message: "start_date must not be after end_date",
    path: ["end_date"],
  })
  .meta({ id: "BacktestRequest" });
export type TBacktestRequest = z.infer<typeof ZBacktestRequest>;

export const ZBacktestAccepted = z
  .object({ backtest_id: z.string(), status: z.enum(BACKTEST_STATUSES), message: z.string() })
  .meta({ id: "BacktestAccepted" });
export type TBacktestAccepted = z.infer<typeof ZBacktestAccepted>;

export const ZSideStats = z
  .object({
    count: z.number().int(),
    hit: z.number().int(),
    miss: z.number().int(),
    neutral: z.number().int(),
    hit_rate_pct: nullableNumber.describe("hit / (hit + miss) × 100; null when both are 0"),
    mean_return_pct: nullableNumber,
    median_return_pct: nullableNumber,
  })
  .meta({ id: "BacktestSideStats" });
export type TSideStats = z.infer<typeof ZSideStats>;

export const ZActionStats = ZSideStats.extend({ action: z.enum(DECISION_ACTIONS) }).meta({ id: "BacktestActionStats" });
export type TActionStats = z.infer<typeof ZActionStats>;

export const ZRobustRow = z
  .object({
    group: z.string().describe("An action, or long_side / short_side"),
    count: z.number().int(),
    independent: z.number().int().describe("Calls whose windows do not overlap (earliest first, then greedily)"),
    excess_pct: nullableNumber.describe("Mean return of these calls minus the mean of the run's other calls"),
    nw_low_pct: nullableNumber.describe("Newey-West 95 % interval of excess_pct, low end"),
    nw_high_pct: nullableNumber,
    nw_t: nullableNumber,
    nonoverlap_low_pct: nullableNumber.describe(
      "95 % interval from the non-overlapping calls alone (their returns minus the other calls' mean), low end",
    ),
    nonoverlap_high_pct: nullableNumber,
  })
  .meta({ id: "BacktestRobustRow" });
export type TRobustRow = z.infer<typeof ZRobustRow>;

export const ZRobustSummary = z
  .object({
    lags: z.number().int().describe("Newey-West lags (Bartlett kernel), in calls"),
    rows: z.array(ZRobustRow),
    score_rank: z
      .object({
        count: z.number().int(),
        rho: z.number().describe("Spearman correlation of the score with the forward return"),
        nw_t: nullableNumber,
      })
      .nullable(),
  })
  .meta({ id: "BacktestRobustSummary" });
export type TRobustSummary = z.infer<typeof ZRobustSummary>;

export const ZHorizonSummary = z
  .object({
    horizon: z.number().int(),
    all: z.object({ count: z.number().int(), mean_return_pct: nullableNumber }),
    by_action: z.array(ZActionStats),
    long_side: ZSideStats.describe("buy + add"),
    short_side: ZSideStats.describe("reduce + sell + avoid"),
    robust: ZRobustSummary.optional().describe(
      "Each action and side against the run's other calls with intervals that survive overlapping windows, and the score's rank correlation; absent on runs stored before it",
    ),
  })
  .meta({ id: "BacktestHorizonSummary" });
export type THorizonSummary = z.infer<typeof ZHorizonSummary>;

export const ZEquitySummary = z
  .object({
    strategy_return_pct: z.number(),
    buy_hold_return_pct: z.number(),
    strategy_max_drawdown_pct: z.number().max(0),
    buy_hold_max_drawdown_pct: z.number().max(0),
    exposure_pct: z.number().min(0).max(100),
  })
  .meta({ id: "BacktestEquitySummary" });
export type TEquitySummary = z.infer<typeof ZEquitySummary>;

export const ZBacktestSummary = z
  .object({ horizons: z.array(ZHorizonSummary), equity: ZEquitySummary.nullable() })
  .meta({ id: "BacktestSummary" });
export type TBacktestSummary = z.infer<typeof ZBacktestSummary>;

const recordFields = {
  backtest_id: z.string(),
  stock_code: z.string(),
  stock_name: z.string().nullable(),
  status: z.enum(BACKTEST_STATUSES),
  progress: z.number().int().min(0).max(100),
  error: z.string().optional().describe("Only when failed"),
  engine_version: z.string().describe("The rule set that made the calls"),
  data_source: z
    .string()
    .nullable()
    .describe("Provider of the bars (csv, eastmoney, sample, ...); null until they are read"),
  start_date: z.string().nullable().describe("The first call's day once run, else the requested start_date"),
  end_date: z.string().nullable().describe("The last call's day once run, else the requested end_date"),
  horizons: z.array(z.number().int()),
  step: z.number().int(),
  neutral_band_pct: z.number(),
  calls_total: z.number().int(),
  last_bar_date: z.string().nullable().describe("Newest bar the run read"),
  created_at: z.string(),
  completed_at: z.string().optional(),
};

export const ZBacktestRun = z
  .object({ ...recordFields, summary: ZBacktestSummary.optional() })
  .meta({ id: "BacktestRun" });
export type TBacktestRun = z.infer<typeof ZBacktestRun>;

export const ZBacktestRunItem = z.object(recordFields).meta({ id: "BacktestRunItem" });
export type TBacktestRunItem = z.infer<typeof ZBacktestRunItem>;

export const ZBacktestOutcome = z
  .object({
    horizon: z.number().int(),
    return_pct: nullableNumber,
    outcome: z.enum(["hit", "miss", "neutral"]).nullable(),
  })
  .meta({ id: "BacktestOutcome" });
export type TBacktestOutcome = z.infer<typeof ZBacktestOutcome>;

export const ZBacktestCall = z
  .object({
    date: z.string(),
    close: z.number(),
    action: z.enum(DECISION_ACTIONS),
    score: z.number().int().nullable(),
    ideal_buy: nullableNumber,
    stop_loss: nullableNumber,
    take_profit: nullableNumber,
    outcomes: z.array(ZBacktestOutcome),
  })
  .meta({ id: "BacktestCall" });
export type TBacktestCall = z.infer<typeof ZBacktestCall>;

export const ZBacktestIdParams = z.object({ backtest_id: z.string().min(1).max(64) });

export const ZCallsQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(CALLS_PAGE_SIZE.min).max(CALLS_PAGE_SIZE.max).default(CALLS_PAGE_SIZE.default),
});

export const ZCallsPage = z
  .object({
    items: z.array(ZBacktestCall),
    total: z.number().int(),
    page: z.number().int(),
    page_size: z.number().int(),
  })
  .meta({ id: "BacktestCallsPage" });
export type TCallsPage = z.infer<typeof ZCallsPage>;

export const ZRunsQuery = z.object({
  stock_code: z.string().trim().max(64).optional().describe("Any code form of one stock (600519, 600519.SH, sh600519)"),
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(RUNS_PAGE_SIZE.min).max(RUNS_PAGE_SIZE.max).default(RUNS_PAGE_SIZE.default),
});

export const ZRunsPage = z
  .object({
    items: z.array(ZBacktestRunItem),
    total: z.number().int(),
    page: z.number().int(),
    page_size: z.number().int(),
  })
  .meta({ id: "BacktestRunsPage" });
export type TRunsPage = z.infer<typeof ZRunsPage>;

export const ZBacktestDeleted = z.object({ deleted: z.number().int() }).meta({ id: "BacktestDeleted" });

// Ours, for the Backtest page: the bars of the tested span with both equity lines (1 = the first call's close).
export const ZSeriesPoint = z
  .object({
    date: z.string(),
    open: z.number(),
    high: z.number(),
    low: z.number(),
    close: z.number(),
    volume: z.number(),
    strategy_equity: z.number(),
    buy_hold_equity: z.number(),
  })
  .meta({ id: "BacktestSeriesPoint" });
export type TSeriesPoint = z.infer<typeof ZSeriesPoint>;

export const ZSeriesResponse = z.object({ items: z.array(ZSeriesPoint) }).meta({ id: "BacktestSeries" });
export type TSeriesResponse = z.infer<typeof ZSeriesResponse>;
