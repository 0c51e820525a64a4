import { z } from "zod";
import { DECISION_ACTIONS } from "@/lib/analysis/engine/schemas";
import { isCalendarDay } from "@/lib/history/schemas";
import { ZMarket } from "@/lib/market/symbols";
import { DB_ID_MAX } from "@/lib/db/id-range";

// Decision signals (spec 3.2–3.4, 4.5; field names and enums from docs/api.md §4).

export const SIGNAL_SOURCE_TYPES = ["analysis", "agent", "alert", "market_review", "manual"] as const;
export const SIGNAL_STATUSES = ["active", "expired", "invalidated", "closed", "archived"] as const;
export const TERMINAL_STATUSES = ["expired", "invalidated", "closed", "archived"] as const;
export const PLAN_QUALITIES = ["complete", "partial", "minimal", "unknown"] as const;
export const SIGNAL_HORIZONS = ["intraday", "1d", "3d", "5d", "10d", "swing", "long"] as const;
export const SIGNAL_MARKET_PHASES = [
  "premarket",
  "intraday",
  "lunch_break",
  "closing_auction",
  "postmarket",
  "non_trading",
  "unknown",
] as const;
export const OUTCOME_HORIZONS = ["1d", "3d", "5d", "10d"] as const;
export const EVAL_STATUSES = ["completed", "unable"] as const;
export const OUTCOMES = ["hit", "miss", "neutral"] as const;
export const DIRECTIONS = ["up", "not_down", "not_up"] as const;

/** A reassessment's risk stance (the reference's decision profiles); null on an ordinary signal. */
export const DECISION_PROFILES = ["conservative", "balanced", "aggressive"] as const;
export const ZDecisionProfile = z.enum(DECISION_PROFILES);
export type TDecisionProfile = z.infer<typeof ZDecisionProfile>;
export const FIRST_HITS = ["target", "stop", "both_same_day", "none"] as const;
export const FEEDBACK_VALUES = ["useful", "not_useful"] as const;
export const FEEDBACK_SOURCES = ["web", "api"] as const;

export const ZSignalSourceType = z.enum(SIGNAL_SOURCE_TYPES).meta({ id: "DecisionSignalSourceType" });
export const ZSignalStatus = z.enum(SIGNAL_STATUSES).meta({ id: "DecisionSignalStatus" });
export const ZPlanQuality = z.enum(PLAN_QUALITIES).meta({ id: "DecisionSignalPlanQuality" });
export const ZSignalHorizon = z.enum(SIGNAL_HORIZONS).meta({ id: "DecisionSignalHorizon" });
export const ZSignalMarketPhase = z.enum(SIGNAL_MARKET_PHASES).meta({ id: "DecisionSignalMarketPhase" });
export const ZSignalAction = z.enum(DECISION_ACTIONS).meta({ id: "DecisionSignalAction" });
export const ZOutcomeHorizon = z.enum(OUTCOME_HORIZONS);
export const ZEvalStatus = z.enum(EVAL_STATUSES);
export const ZOutcomeValue = z.enum(OUTCOMES);
export const ZFeedbackValue = z.enum(FEEDBACK_VALUES);

export type TSignalSourceType = z.infer<typeof ZSignalSourceType>;
export type TSignalStatus = z.infer<typeof ZSignalStatus>;
export type TPlanQuality = z.infer<typeof ZPlanQuality>;
export type TSignalHorizon = z.infer<typeof ZSignalHorizon>;
export type TSignalMarketPhase = z.infer<typeof ZSignalMarketPhase>;
export type TSignalAction = z.infer<typeof ZSignalAction>;
export type TOutcomeHorizon = z.infer<typeof ZOutcomeHorizon>;
export type TDirection = (typeof DIRECTIONS)[number];
export type TFirstHit = (typeof FIRST_HITS)[number];

export const SIGNAL_PAGE_SIZE = { min: 1, max: 100, default: 20 } as const;
export const LATEST_LIMIT = { min: 1, max: 100, default: 1 } as const;
export const OUTCOME_RUN_LIMIT = { min: 1, max: 500, default: 100 } as const;

const TEXT_MAX = 4000;
const price = z.number().finite().positive();
const longText = z.string().max(TEXT_MAX);
const isoInstant = z.iso.datetime({ offset: true });
const ZMetadata = z.record(z.string(), z.unknown());

// ---- create ----

export const ZDecisionSignalCreateRequest = z
  .object({
    stock_code: z
      .string()
      .trim()
      .min(1)
      .max(32)
      .describe("Code in any variant form (600519, 600519.SH, sh600519 are one stock)"),
    stock_name: z.string().max(128).nullish(),
    market: ZMarket,
    source_type: ZSignalSourceType,
    source_agent: z.string().max(64).nullish(),
    source_report_id: z
      .number()
      .int()
      .positive()
      .max(DB_ID_MAX)
      .nullish()
      .describe("analysis_history id of the report the signal came from"),
    trace_id: z.string().max(64).nullish(),
    market_phase: ZSignalMarketPhase.nullish(),
    trigger_source: z.string().trim().min(1).max(64),
    decision_profile: ZDecisionProfile.nullish().describe(
      "The profile the signal was made under (a reassessment); signals of different profiles never deduplicate",
    ),
    action: ZSignalAction,
    action_label: z.string().max(64).nullish(),
    confidence: z.number().min(0).max(1).nullish(),
    score: z.number().int().min(0).max(100).nullish(),
    horizon: ZSignalHorizon.nullish().describe(
      "Absent: intraday for action alert or an in-session market_phase, else 3d",
    ),
    entry_low: price.nullish(),
    entry_high: price.nullish(),
    stop_loss: price.nullish(),
    target_price: price.nullish(),
    invalidation: longText.nullish(),
    watch_conditions: longText.nullish(),
    reason: longText.nullish(),
    risk_summary: longText.nullish(),
    catalyst_summary: longText.nullish(),
    evidence: longText.nullish(),
    data_quality_summary: longText.nullish(),
    plan_quality: ZPlanQuality.nullish().describe(
      "Absent: complete with entry, stop and target; partial with some; minimal with none",
    ),
    status: ZSignalStatus.default("active").describe(
      "active (default); an active signal whose expires_at has passed is stored expired",
    ),
    expires_at: isoInstant
      .nullish()
      .describe(
        "Absent: derived from the horizon (Nd: close of the N-th trading session; intraday: this session's close; swing/long: none)",
      ),
    metadata: ZMetadata.nullish(),
    report_language: z.string().max(16).nullish(),
    decision_engine_version: z
      .string()
      .max(64)
      .nullish()
      .describe("Rule set of the analysis behind the signal (set by the service for analysis signals)"),
  })
  .meta({ id: "DecisionSignalCreateRequest" });

export type TDecisionSignalCreateRequest = z.infer<typeof ZDecisionSignalCreateRequest>;

// ---- item and responses ----

export const ZDecisionSignalItem = z
  .object({
    id: z.number().int(),
    stock_code: z.string().describe("Normalised code (indices: canonical id)"),
    stock_name: z.string().nullable(),
    market: ZMarket,
    source_type: ZSignalSourceType,
    source_agent: z.string().nullable(),
    source_report_id: z
      .number()
      .int()
      .nullable()
      .describe("Linked history record; null when none or after the record was deleted"),
    trace_id: z.string().nullable(),
    market_phase: ZSignalMarketPhase.nullable(),
    trigger_source: z.string(),
    decision_profile: ZDecisionProfile.nullable(),
    action: ZSignalAction,
    action_label: z.string().nullable(),
    confidence: z.number().nullable(),
    score: z.number().int().nullable(),
    horizon: ZSignalHorizon,
    entry_low: z.number().nullable(),
    entry_high: z.number().nullable(),
    stop_loss: z.number().nullable(),
    target_price: z.number().nullable(),
    invalidation: z.string().nullable(),
    watch_conditions: z.string().nullable(),
    reason: z.string().nullable(),
    risk_summary: z.string().nullable(),
    catalyst_summary: z.string().nullable(),
    evidence: z.string().nullable(),
    data_quality_summary: z.string().nullable(),
    plan_quality: ZPlanQuality,
    status: ZSignalStatus,
    expires_at: z.string().nullable(),
    metadata: ZMetadata.nullable(),
    report_language: z.string().nullable(),
    decision_engine_version: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: "DecisionSignalItem" });

export type TDecisionSignalItem = z.infer<typeof ZDecisionSignalItem>;

export const ZDecisionSignalMutationResponse = z
  .object({
    item: ZDecisionSignalItem,
    created: z.boolean().describe("false when an existing signal matched the dedup key (returned, possibly renewed)"),
  })
  .meta({ id: "DecisionSignalMutationResponse" });

export const ZDecisionSignalListResponse = z
  .object({
    items: z.array(ZDecisionSignalItem),
    total: z.number().int(),
    page: z.number().int(),
    page_size: z.number().int(),
  })
  .meta({ id: "DecisionSignalListResponse" });

export type TDecisionSignalListResponse = z.infer<typeof ZDecisionSignalListResponse>;

export const ZDecisionSignalStatusUpdateRequest = z
  .object({
    status: z
      .string()
      .max(32)
      .describe(
        "A legal status (active, expired, invalidated, closed, archived); anything else → 400. Terminal → active → 400",
      ),
    metadata: ZMetadata.nullish().describe(
      "When the key is present, replaces the stored metadata whole (null clears it)",
    ),
  })
  .meta({ id: "DecisionSignalStatusUpdateRequest" });

// ---- query and path parameters ----

// A bound of created_at / expires_at: an ISO date-time, or a day (YYYY-MM-DD, service time zone): a "from" day
// starts at its midnight, a "to" day includes the whole day.
const ZBound = z
  .string()
  .trim()
  .refine(
    (v) => v === "" || isoInstant.safeParse(v).success || (/^\d{4}-\d{2}-\d{2}$/.test(v) && isCalendarDay(v)),
    "Expected an ISO date-time or YYYY-MM-DD",
  )
  .optional();

const flag = z.stringbool();

export const ZSignalIdParams = z.object({
  signal_id: z.coerce.number().int().positive().max(DB_ID_MAX).describe("Integer signal id"),
});

export const ZStockCodeParams = z.object({
  stock_code: z.string().trim().min(1).max(32).describe("Code in any variant form"),
});

export const ZDecisionSignalListQuery = z.object({
  market: ZMarket.optional(),
  stock_code: z.string().trim().max(32).optional().describe("Every variant of the code (600519, 600519.SH, sh600519)"),
  action: ZSignalAction.optional(),
  market_phase: ZSignalMarketPhase.optional(),
  source_type: ZSignalSourceType.optional(),
  source_report_id: z.coerce.number().int().positive().max(DB_ID_MAX).optional(),
  trace_id: z.string().max(64).optional(),
  trigger_source: z.string().max(64).optional(),
  decision_profile: z
    .enum([...DECISION_PROFILES, "unknown"])
    .optional()
    .describe("A profile, or unknown for signals made without one"),
  status: ZSignalStatus.optional(),
  created_from: ZBound.describe(
    "Inclusive lower bound on created_at (date-time, or YYYY-MM-DD in the service time zone)",
  ),
  created_to: ZBound.describe("Inclusive upper bound on created_at (a day includes the whole day)"),
  expires_from: ZBound.describe("Inclusive lower bound on expires_at"),
  expires_to: ZBound.describe("Inclusive upper bound on expires_at"),
  holding_only: flag
    .default(false)
    .describe("Only stocks held (quantity > 0) in active portfolio accounts, from cached positions"),
  account_id: z.coerce
    .number()
    .int()
    .positive()
    .max(DB_ID_MAX)
    .optional()
    .describe("With holding_only: only this (active) account's holdings"),
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce
    .number()
    .int()
    .min(SIGNAL_PAGE_SIZE.min)
    .max(SIGNAL_PAGE_SIZE.max)
    .default(SIGNAL_PAGE_SIZE.default),
});

export type TDecisionSignalListQuery = z.infer<typeof ZDecisionSignalListQuery>;

export const ZLatestQuery = z.object({
  market: ZMarket.optional(),
  limit: z.coerce.number().int().min(LATEST_LIMIT.min).max(LATEST_LIMIT.max).default(LATEST_LIMIT.default),
});

// ---- outcomes ----

// Array query parameters: repeated keys (?horizons=1d&horizons=3d) or one comma list (?horizons=1d,3d).
function listParam<T extends z.ZodType>(item: T) {
  return z.preprocess((v) => {
    if (v === undefined) return undefined;
    const parts = (Array.isArray(v) ? v : [v])
      .flatMap((s) => String(s).split(","))
      .map((s) => s.trim())
      .filter((s) => s !== "");
    return parts.length === 0 ? undefined : parts;
  }, z.array(item).optional());
}

export const ZOutcomeRunRequest = z
  .object({
    signal_id: z.number().int().positive().max(DB_ID_MAX).nullish().describe("Only this signal (404 when unknown)"),
    horizons: z.array(ZOutcomeHorizon).min(1).nullish().describe("Default all of 1d, 3d, 5d, 10d"),
    force: z.boolean().default(false).describe("Recompute and overwrite completed and terminal rows too"),
    market: ZMarket.nullish(),
    stock_code: z.string().trim().max(32).nullish(),
    action: ZSignalAction.nullish(),
    source_type: ZSignalSourceType.nullish(),
    status: ZSignalStatus.nullish(),
    limit: z
      .number()
      .int()
      .min(OUTCOME_RUN_LIMIT.min)
      .max(OUTCOME_RUN_LIMIT.max)
      .default(OUTCOME_RUN_LIMIT.default)
      .describe("Signals evaluated in this run"),
  })
  .meta({ id: "DecisionSignalOutcomeRunRequest" });

export type TOutcomeRunRequest = z.infer<typeof ZOutcomeRunRequest>;

export const ZDecisionSignalOutcomeItem = z
  .object({
    id: z.number().int(),
    signal_id: z.number().int(),
    horizon: ZOutcomeHorizon,
    engine_version: z.string(),
    eval_status: ZEvalStatus,
    outcome: ZOutcomeValue.nullable(),
    direction_expected: z.enum(DIRECTIONS).nullable(),
    direction_correct: z.boolean().nullable(),
    unable_reason: z.string().nullable(),
    retryable: z.boolean().describe("For unable rows: a later run recomputes it (market data not there yet)"),
    anchor_date: z
      .string()
      .nullable()
      .describe("Trade date of the anchor bar: the last close at or before the signal's creation"),
    eval_window_days: z.number().int().nullable(),
    start_price: z.number().nullable().describe("Anchor close"),
    end_date: z.string().nullable(),
    end_close: z.number().nullable(),
    max_high: z.number().nullable(),
    min_low: z.number().nullable(),
    stock_return_pct: z.number().nullable().describe("(end_close / start_price − 1) × 100"),
    max_favorable_excursion_pct: z
      .number()
      .nullable()
      .describe("Best move in the expected direction within the window, in % of start_price"),
    max_adverse_excursion_pct: z
      .number()
      .nullable()
      .describe(
        "Worst move against the expected direction within the window, in % of start_price (≤ 0 unless the whole window moved favourably)",
      ),
    entry_reachable: z
      .boolean()
      .nullable()
      .describe("Some bar of the window traded inside [entry_low, entry_high]; null without an entry"),
    first_hit: z
      .enum(FIRST_HITS)
      .nullable()
      .describe("Which of stop_loss and target_price the window touched first; null without both"),
    first_hit_date: z.string().nullable(),
    action: ZSignalAction.nullable(),
    market: ZMarket.nullable(),
    market_phase: ZSignalMarketPhase.nullable(),
    source_type: ZSignalSourceType.nullable(),
    plan_quality: ZPlanQuality.nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: "DecisionSignalOutcomeItem" });

export type TDecisionSignalOutcomeItem = z.infer<typeof ZDecisionSignalOutcomeItem>;

export const ZOutcomeRunResponse = z
  .object({
    items: z.array(ZDecisionSignalOutcomeItem).describe("Rows written by this run"),
    evaluated: z.number().int().describe("Signal × horizon pairs computed"),
    created: z.number().int(),
    updated: z.number().int(),
    skipped: z
      .number()
      .int()
      .describe(
        "Pairs (matching signal × requested horizon) already completed or terminally unable, left alone (0 with force)",
      ),
    engine_version: z.string(),
  })
  .meta({ id: "DecisionSignalOutcomeRunResponse" });

export type TOutcomeRunResponse = z.infer<typeof ZOutcomeRunResponse>;

export const ZOutcomeListQuery = z.object({
  signal_id: z.coerce.number().int().positive().max(DB_ID_MAX).optional(),
  horizon: ZOutcomeHorizon.optional(),
  engine_version: z.string().max(64).optional().describe("Default: the current engine version"),
  eval_status: ZEvalStatus.optional(),
  outcome: ZOutcomeValue.optional(),
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce
    .number()
    .int()
    .min(SIGNAL_PAGE_SIZE.min)
    .max(SIGNAL_PAGE_SIZE.max)
    .default(SIGNAL_PAGE_SIZE.default),
});

export type TOutcomeListQuery = z.infer<typeof ZOutcomeListQuery>;

export const ZOutcomeListResponse = z
  .object({
    items: z.array(ZDecisionSignalOutcomeItem),
    total: z.number().int(),
    page: z.number().int(),
    page_size: z.number().int(),
  })
  .meta({ id: "DecisionSignalOutcomeListResponse" });

export const ZOutcomeStatsQuery = z.object({
  // Spec 4.5 types both as arrays of strings: a value that names no horizon or status counts nothing.
  horizons: listParam(z.string()).describe(`Repeated or comma separated (${OUTCOME_HORIZONS.join(", ")}); default all`),
  engine_version: z.string().max(64).optional().describe("Default: the current engine version"),
  statuses: listParam(z.string()).describe(
    `Signal statuses counted (${SIGNAL_STATUSES.join(", ")}); default every status but archived`,
  ),
  decision_engine_version: z
    .string()
    .max(64)
    .optional()
    .describe(
      "Only signals of analyses by this rule set (rules-v1, rules-v2, …); breakdowns.decision_engine_version compares them",
    ),
});

export type TOutcomeStatsQuery = z.infer<typeof ZOutcomeStatsQuery>;

const statsCounts = {
  total: z.number().int(),
  completed: z.number().int(),
  unable: z.number().int(),
  hit: z.number().int(),
  miss: z.number().int(),
  neutral: z.number().int(),
  hit_rate_pct: z.number().nullable().describe("hit / (hit + miss) × 100; null when both are 0"),
  avg_stock_return_pct: z.number().nullable().describe("Mean stock_return_pct of completed rows"),
};

export const ZOutcomeStatsBucket = z
  .object({ value: z.string().nullable(), ...statsCounts })
  .meta({ id: "DecisionSignalOutcomeStatsBucket" });

export const ZOutcomeStatsCell = z
  .object({ horizon: ZOutcomeHorizon, action: ZSignalAction, ...statsCounts })
  .meta({ id: "DecisionSignalOutcomeStatsCell" });

export const ZOutcomeStatsResponse = z
  .object({
    engine_version: z.string(),
    horizons: z.array(ZOutcomeHorizon),
    statuses: z.array(ZSignalStatus),
    ...statsCounts,
    unable_reasons: z.record(z.string(), z.number().int()),
    breakdowns: z.object({
      horizon: z.array(ZOutcomeStatsBucket),
      action: z.array(ZOutcomeStatsBucket),
      market: z.array(ZOutcomeStatsBucket),
      market_phase: z.array(ZOutcomeStatsBucket),
      source_type: z.array(ZOutcomeStatsBucket),
      plan_quality: z.array(ZOutcomeStatsBucket),
      decision_engine_version: z
        .array(ZOutcomeStatsBucket)
        .describe(
          "By the rule set of the analysis behind each signal (null: not from an analysis, or before it was recorded)",
        ),
    }),
    by_horizon_action: z.array(ZOutcomeStatsCell).describe("One cell per horizon and action present"),
  })
  .meta({ id: "DecisionSignalOutcomeStatsResponse" });

export type TOutcomeStatsResponse = z.infer<typeof ZOutcomeStatsResponse>;
export type TOutcomeStatsBucket = z.infer<typeof ZOutcomeStatsBucket>;

// ---- feedback ----

export const ZFeedbackRequest = z
  .object({
    feedback_value: ZFeedbackValue,
    reason_code: z.string().max(64).nullish(),
    note: z.string().max(1000).nullish(),
    source: z.enum(FEEDBACK_SOURCES).default("api"),
  })
  .meta({ id: "DecisionSignalFeedbackRequest" });

export type TFeedbackRequest = z.infer<typeof ZFeedbackRequest>;

export const ZFeedbackItem = z
  .object({
    signal_id: z.number().int(),
    feedback_value: ZFeedbackValue.nullable().describe("null when no feedback is stored"),
    reason_code: z.string().nullable(),
    note: z.string().nullable(),
    source: z.enum(FEEDBACK_SOURCES).nullable(),
    created_at: z.string().nullable(),
    updated_at: z.string().nullable(),
  })
  .meta({ id: "DecisionSignalFeedbackItem" });

export type TFeedbackItem = z.infer<typeof ZFeedbackItem>;
