import { z } from "zod";

// docs/api.md §12.4: the reference's /api/v1/backtest (how the stored reports did). Field names are the
// reference client's; `engine_version` tells this evaluation apart from the engine replay of /backtests.

export const REPORT_EVAL_WINDOW = { min: 1, max: 60, default: 10 } as const;
export const REPORT_EVAL_PHASES = ["premarket", "intraday", "postmarket", "unknown"] as const;

const ZDate = z.iso.date().describe("YYYY-MM-DD");
const ZWindow = z.coerce.number().int().min(REPORT_EVAL_WINDOW.min).max(REPORT_EVAL_WINDOW.max);
const ZCode = z.string().trim().min(1).max(32);

export const ZReportEvalRunRequest = z
  .object({
    code: ZCode.nullish().describe("Only this stock's reports"),
    force: z.boolean().default(false).describe("Recompute rows already completed"),
    eval_window_days: z
      .number()
      .int()
      .min(REPORT_EVAL_WINDOW.min)
      .max(REPORT_EVAL_WINDOW.max)
      .default(REPORT_EVAL_WINDOW.default),
    min_age_days: z.number().int().min(0).max(3650).default(0).describe("Only reports at least this many days old"),
    limit: z.number().int().min(1).max(1000).default(200).describe("Reports evaluated in this run"),
  })
  .meta({ id: "ReportBacktestRunRequest" });

export const ZReportEvalRunResponse = z
  .object({
    processed: z.number().int().describe("Reports looked at"),
    saved: z.number().int().describe("Rows written"),
    completed: z.number().int(),
    insufficient: z.number().int().describe("Not enough trading days after the report yet; a later run retries"),
    errors: z.number().int().describe("Reports without usable data (no bars, no anchor price)"),
  })
  .meta({ id: "ReportBacktestRunResponse" });

const scopeFilters = {
  code: ZCode.optional(),
  eval_window_days: ZWindow.optional(),
  analysis_date_from: ZDate.optional(),
  analysis_date_to: ZDate.optional(),
  analysis_phase: z.enum(REPORT_EVAL_PHASES).optional(),
};

export const ZReportEvalResultsQuery = z.object({
  ...scopeFilters,
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});

export const ZReportEvalPerformanceQuery = z.object({
  eval_window_days: ZWindow.optional().describe("Default: the window of the latest evaluation"),
  analysis_date_from: ZDate.optional(),
  analysis_date_to: ZDate.optional(),
  analysis_phase: z.enum(REPORT_EVAL_PHASES).optional(),
});

export const ZReportEvalCodeParams = z.object({ code: ZCode });

const num = z.number().nullable();

export const ZReportEvalItem = z
  .object({
    analysis_history_id: z.number().int(),
    query_id: z.string(),
    code: z.string(),
    stock_name: z.string().nullable(),
    analysis_date: z.string(),
    eval_window_days: z.number().int(),
    engine_version: z.string(),
    eval_status: z.enum(["completed", "insufficient", "unable"]),
    unable_reason: z.string().nullable(),
    evaluated_at: z.string(),
    operation_advice: z.string().nullable(),
    action: z.string().nullable(),
    action_label: z.string().nullable(),
    trend_prediction: z.string().nullable(),
    market_phase: z.enum(REPORT_EVAL_PHASES),
    market_phase_summary: z.string().nullable(),
    position_recommendation: z.enum(["long", "cash"]),
    start_price: num,
    end_close: num,
    max_high: num,
    min_low: num,
    stock_return_pct: num,
    actual_return_pct: num.describe("The stock's close-to-close move over the window, in percent"),
    actual_movement: z.enum(["up", "down", "flat"]).nullable(),
    direction_expected: z
      .enum(["up", "down", "not_down", "flat"])
      .nullable()
      .describe("buy/add up, hold not_down, reduce/sell/avoid down, watch flat (the reference's words)"),
    direction_correct: z.boolean().nullable(),
    outcome: z.enum(["win", "loss", "neutral"]).nullable(),
    stop_loss: num,
    take_profit: num,
    hit_stop_loss: z.boolean().nullable(),
    hit_take_profit: z.boolean().nullable(),
    first_hit: z.string().nullable(),
    first_hit_date: z.string().nullable(),
    first_hit_trading_days: z.number().int().nullable(),
    simulated_entry_price: num,
    simulated_exit_price: num,
    simulated_exit_reason: z.string().nullable(),
    simulated_return_pct: num.describe(
      "The position the report implied: long from the anchor close to the stop, target or window end; cash 0",
    ),
  })
  .meta({ id: "ReportBacktestResult" });

export const ZReportEvalResultsResponse = z
  .object({ total: z.number().int(), page: z.number().int(), limit: z.number().int(), items: z.array(ZReportEvalItem) })
  .meta({ id: "ReportBacktestResults" });

const ZAdviceBucket = z.object({
  count: z.number().int(),
  win_count: z.number().int(),
  loss_count: z.number().int(),
  neutral_count: z.number().int(),
  avg_stock_return_pct: num,
  avg_simulated_return_pct: num,
});

export const ZReportEvalPerformance = z
  .object({
    scope: z.enum(["overall", "stock"]),
    code: z.string().nullable(),
    eval_window_days: z.number().int(),
    engine_version: z.string(),
    computed_at: z.string(),
    total_evaluations: z.number().int(),
    completed_count: z.number().int(),
    insufficient_count: z.number().int(),
    long_count: z.number().int(),
    cash_count: z.number().int(),
    win_count: z.number().int(),
    loss_count: z.number().int(),
    neutral_count: z.number().int(),
    direction_accuracy_pct: num.describe("Completed reports with a direction whose move agreed with it"),
    win_rate_pct: num.describe("win ÷ (win + loss)"),
    neutral_rate_pct: num,
    avg_stock_return_pct: num,
    avg_simulated_return_pct: num,
    stop_loss_trigger_rate: num.describe("Percent of long reports with a stop whose stop was touched in the window"),
    take_profit_trigger_rate: num,
    ambiguous_rate: num.describe("Percent of long reports with a plan whose stop and target were touched on one day"),
    avg_days_to_first_hit: num,
    advice_breakdown: z.record(z.string(), ZAdviceBucket),
    diagnostics: z.object({
      phase_breakdown: z.record(z.enum(REPORT_EVAL_PHASES), z.number().int()),
      unable_count: z.number().int(),
    }),
  })
  .meta({ id: "ReportBacktestPerformance" });

export type TReportEvalRunRequest = z.infer<typeof ZReportEvalRunRequest>;
export type TReportEvalRunResponse = z.infer<typeof ZReportEvalRunResponse>;
export type TReportEvalResultsQuery = z.infer<typeof ZReportEvalResultsQuery>;
export type TReportEvalPerformanceQuery = z.infer<typeof ZReportEvalPerformanceQuery>;
export type TReportEvalItem = z.infer<typeof ZReportEvalItem>;
export type TReportEvalResultsResponse = z.infer<typeof ZReportEvalResultsResponse>;
export type TReportEvalPerformance = z.infer<typeof ZReportEvalPerformance>;
