import { z } from "zod";

// Records of the rule-based analysis engine. The pipeline stores these parts;
// the HTTP layer builds AnalysisReport (spec 2.6) from them.

export const ZReportLanguage = z.enum(["zh", "en"]);

// detailed is an alias of full (docs/api.md §7); rule-report.ts documents what each depth contains.
export const ZReportType = z.enum(["simple", "detailed", "full", "brief"]);

export const ZRequestedPhase = z.enum(["auto", "premarket", "intraday", "postmarket"]);

export const ZMarketPhase = z.enum(["premarket", "intraday", "postmarket", "non_trading"]);

// docs/api.md §7 decision-action taxonomy.
export const DECISION_ACTIONS = ["buy", "add", "hold", "reduce", "sell", "watch", "avoid", "alert"] as const;
export const ZDecisionAction = z.enum(DECISION_ACTIONS);

export const ZMarketPhaseSummary = z.object({
  phase: ZMarketPhase,
  requested_phase: ZRequestedPhase,
  source: z
    .enum(["auto", "explicit"])
    .describe("explicit: the request named the phase; the clock facts stay as measured"),
  market: z.enum(["cn", "hk", "us"]),
  time_zone: z.string(),
  market_local_time: z.string().describe("Exchange wall clock, ISO 8601 with offset"),
  session_date: z.string(),
  is_trading_day: z
    .boolean()
    .describe("The exchange trades today: not a weekend and not an exchange holiday (half days count as trading days)"),
  is_market_open_now: z.boolean(),
  is_lunch_break: z.boolean(),
  minutes_to_open: z.number().int().nullable(),
  minutes_to_close: z.number().int().nullable(),
  warnings: z.array(z.string()),
});

const nullableNumber = z.number().finite().nullable();

export const ZLevelBasis = z.enum([
  "ma5",
  "ma10",
  "ma20",
  "ma60",
  "swing_low",
  "swing_high",
  "high_20",
  "low_20",
  "below_support",
  "risk_reward_2r",
  "current_price",
  "atr_stop",
  "above_resistance",
  "breakout_above",
  "breakdown_below",
  "risk_reward_3r",
]);

export const ZPriceLevel = z.object({
  price: z.number().finite().positive(),
  basis: ZLevelBasis,
  date: z.string().optional().describe("The bar a swing level comes from"),
});

export const ZTrendState = z.enum([
  "strong_bullish",
  "bullish",
  "weak_bullish",
  "consolidation",
  "weak_bearish",
  "bearish",
  "strong_bearish",
]);

export const ZIndicators = z.object({
  bars_used: z.number().int().nonnegative(),
  last_bar_date: z.string().nullable(),
  price: nullableNumber,
  price_source: z.enum(["quote", "bar"]).nullable(),
  // Today's provisional bar was built from the quote (intraday, bars end yesterday) or the last bar's close
  // was replaced by the quote's price.
  quote_merge: z.enum(["appended", "replaced", "ignored_stale", "none"]),
  change_pct: nullableNumber.describe("Daily change in percent; 0 is a real value"),
  ma: z.object({ ma5: nullableNumber, ma10: nullableNumber, ma20: nullableNumber, ma60: nullableNumber }),
  bias: z.object({ ma5: nullableNumber, ma20: nullableNumber }).describe("(price − MA) / MA in percent"),
  macd: z
    .object({
      dif: z.number(),
      dea: z.number(),
      histogram: z.number().describe("2 × (DIF − DEA), as A-share charting software draws the MACD bar"),
      cross: z.enum(["golden", "death"]).nullable(),
      cross_bars_ago: z.number().int().nullable(),
      histogram_prev: z
        .number()
        .nullable()
        .optional()
        .describe("The histogram one bar earlier (rules-v2: is the bounce losing momentum)"),
    })
    .nullable(),
  rsi: z.object({ rsi6: nullableNumber, rsi12: nullableNumber, rsi24: nullableNumber }),
  volume: z.object({
    today: nullableNumber,
    avg5: nullableNumber,
    ratio: nullableNumber,
    ratio_source: z.enum(["quote", "bars"]).nullable(),
  }),
  turnover_rate: nullableNumber,
  high_20: nullableNumber.describe("Highest high of the 20 sessions before the latest"),
  low_20: nullableNumber.describe("Lowest low of the 20 sessions before the latest"),
  support: z.array(ZPriceLevel).describe("Below the price, nearest first"),
  resistance: z.array(ZPriceLevel).describe("Above the price, nearest first"),
  trend: z
    .object({
      state: ZTrendState,
      ma5_ma20_spread_pct: z.number(),
      spread_widening: z.boolean().nullable(),
    })
    .nullable(),
  atr14: nullableNumber.optional().describe("Average true range over 14 sessions (Wilder)"),
  adx14: nullableNumber
    .optional()
    .describe("Trend strength (ADX 14); rules-v3 watches a downtrend under 20 instead of selling it"),
  ma60_slope_pct: nullableNumber.optional().describe("MA60 now against MA60 ten sessions earlier, in percent"),
  extension_atr: nullableNumber
    .optional()
    .describe("(price − MA10) / ATR14: how stretched the price is from its short-term mean"),
  regime: z
    .enum(["up", "down", "flat"])
    .nullable()
    .optional()
    .describe("rules-v2 structure: MA20 vs MA60, MA60's slope, price vs MA60"),
  missing: z.array(z.string()).describe("Indicators that could not be computed, with the bars they need"),
});

export const ZGuardrailReason = z.object({ code: z.string(), message: z.string() });

export const ZChecklistItem = z.object({
  key: z.string(),
  status: z.enum(["pass", "warn", "fail", "unknown"]),
  text: z.string(),
});

export const ZScoreFactor = z.object({
  factor: z.enum(["trend", "bias", "volume", "support", "macd", "rsi"]),
  max: z.number(),
  points: z.number().nullable().describe("null: not scored (data missing); excluded from the total"),
  note: z.string(),
});

export const ZReportSummary = z.object({
  analysis_summary: z.string(),
  operation_advice: z.string(),
  action: ZDecisionAction.nullable(),
  action_label: z.string().nullable(),
  trend_prediction: z.string(),
  sentiment_score: z.number().int().min(0).max(100).nullable(),
  sentiment_label: z.string().nullable(),
});

export const ZReportStrategy = z.object({
  ideal_buy: z.string().nullable(),
  secondary_buy: z.string().nullable(),
  stop_loss: z.string().nullable(),
  take_profit: z.string().nullable(),
});

export const ZSniperPoint = z.object({ price: z.number(), basis: ZLevelBasis, text: z.string() }).nullable();

export const ZDashboard = z.object({
  depth: z.enum(["brief", "full"]),
  core_conclusion: z.object({
    one_sentence: z.string(),
    signal_type: ZDecisionAction.nullable(),
    confidence: z.enum(["high", "medium", "low"]),
    confidence_reasons: z.array(z.string()),
    time_sensitivity: z.string(),
    position_advice: z.object({ no_position: z.string(), has_position: z.string() }),
  }),
  data_perspective: z
    .object({
      trend_status: z.object({
        ma_alignment: z.string(),
        is_bullish: z.boolean().nullable(),
        trend_score: z.number().nullable(),
      }),
      price_position: z.object({
        current_price: nullableNumber,
        change_pct: nullableNumber,
        ma5: nullableNumber,
        ma10: nullableNumber,
        ma20: nullableNumber,
        ma60: nullableNumber,
        bias_ma5: nullableNumber,
        bias_ma20: nullableNumber,
        bias_status: z.string().nullable(),
        support_level: nullableNumber,
        resistance_level: nullableNumber,
      }),
      volume_analysis: z.object({
        volume_ratio: nullableNumber,
        volume_status: z.string().nullable(),
        turnover_rate: nullableNumber,
        volume_meaning: z.string(),
      }),
      momentum: z.object({ macd: z.string(), rsi: z.string() }),
      score_breakdown: z.array(ZScoreFactor),
    })
    .nullable(),
  battle_plan: z.object({
    sniper_points: z.object({
      ideal_buy: ZSniperPoint,
      secondary_buy: ZSniperPoint,
      stop_loss: ZSniperPoint,
      take_profit: ZSniperPoint,
    }),
    position_strategy: z
      .object({ suggested_position: z.string(), entry_plan: z.string(), risk_control: z.string() })
      .nullable(),
    action_checklist: z.array(ZChecklistItem).nullable(),
  }),
  phase_decision: z
    .object({
      phase: ZMarketPhase,
      phase_label: z.string(),
      immediate_action: z.string(),
      data_limitations: z.array(z.string()),
    })
    .nullable(),
  risk_warnings: z.array(z.string()).nullable(),
});

// The cell of the rules table that set the action and the score (structure-decision.ts), stored with the report so
// the score's source can be shown from stored data.
export const ZStructureCell = z.object({
  table: z.enum(["default", "a_share"]).describe("a_share: the A-share table; default: HK and US"),
  band: z.enum(["below", "at", "above", "stretched"]).describe("Where the price stands against MA10, in ATR14"),
  regime: z.enum(["up", "flat", "down"]),
  extension_atr: z.number(),
});

export const ZRuleReport = z.object({
  report_language: ZReportLanguage,
  report_type: ZReportType,
  data_source: z.string(),
  is_sample_data: z.boolean(),
  summary: ZReportSummary,
  strategy: ZReportStrategy,
  dashboard: ZDashboard,
  indicators: ZIndicators,
  market_phase_summary: ZMarketPhaseSummary,
  guardrail_reasons: z.array(ZGuardrailReason),
  score_breakdown: z.array(ZScoreFactor),
  structure: ZStructureCell.nullable(),
});

export type TReportLanguage = z.infer<typeof ZReportLanguage>;
export type TStructureCell = z.infer<typeof ZStructureCell>;
export type TReportType = z.infer<typeof ZReportType>;
export type TRequestedPhase = z.infer<typeof ZRequestedPhase>;
export type TMarketPhase = z.infer<typeof ZMarketPhase>;
export type TMarketPhaseSummary = z.infer<typeof ZMarketPhaseSummary>;
export type TDecisionAction = z.infer<typeof ZDecisionAction>;
export type TLevelBasis = z.infer<typeof ZLevelBasis>;
export type TPriceLevel = z.infer<typeof ZPriceLevel>;
export type TTrendState = z.infer<typeof ZTrendState>;
export type TIndicators = z.infer<typeof ZIndicators>;
export type TGuardrailReason = z.infer<typeof ZGuardrailReason>;
export type TChecklistItem = z.infer<typeof ZChecklistItem>;
export type TScoreFactor = z.infer<typeof ZScoreFactor>;
export type TReportSummary = z.infer<typeof ZReportSummary>;
export type TReportStrategy = z.infer<typeof ZReportStrategy>;
export type TDashboard = z.infer<typeof ZDashboard>;
export type TRuleReport = z.infer<typeof ZRuleReport>;
