import { z } from "zod";
import { ZMarket } from "@/lib/market/symbols";
import { ZFilter, ZMetric } from "./strategy-schema";

// The screening API's wire records (CONTRACT §14.1, docs/api.md §14.1): the reference's field names, plus ours
// where a trader needs more (both names and descriptions, each candidate's figures and where they came from).

const ZLanguage = z.enum(["zh", "en"]);

export const ZStrategiesQuery = z.object({
  language: ZLanguage.default("zh").describe("Language of name, title and description"),
});

export const ZScreeningStrategyItem = z
  .object({
    id: z.string(),
    name: z.string().describe("Display name in the requested language"),
    title: z.string().describe("Same as name (the reference's client reads either)"),
    description: z.string().describe("One sentence, in the requested language"),
    version: z.string(),
    category: z.string(),
    tag: z.string(),
    tags: z.array(z.string()),
    analysis_skills: z.array(z.string()).describe("Always empty: strategies here are rules, not agent skills"),
    market_scope: z.array(ZMarket),
    market: z.string().describe("The one market of the scope, or all"),
    names: z.object({ zh: z.string(), en: z.string() }),
    descriptions: z.object({ zh: z.string(), en: z.string() }),
    filters: z.array(ZFilter),
    rank: z.object({ metric: ZMetric, order: z.enum(["desc", "asc"]) }),
    builtin: z.boolean(),
  })
  .meta({ id: "ScreeningStrategy" });

export type TStrategyItem = z.infer<typeof ZScreeningStrategyItem>;

export const ZStrategyParams = z.object({ strategy_id: z.string().trim().min(1).max(48) });

export const ZStrategiesResponse = z
  .object({ enabled: z.boolean(), strategies: z.array(ZScreeningStrategyItem), strategy_count: z.number().int() })
  .meta({ id: "ScreeningStrategiesResponse" });
export type TStrategiesResponse = z.infer<typeof ZStrategiesResponse>;

export const ZScreenRequest = z
  .object({
    market: ZMarket.default("cn"),
    strategy: z.string().trim().min(1).max(48),
    max_results: z.number().int().min(1).max(100).default(20),
    variant_seed: z
      .union([z.string().max(200), z.number()])
      .nullish()
      .describe(
        "Accepted for the reference's client (it sends a UUID); a run here is deterministic, so it changes nothing",
      ),
    language: ZLanguage.default("zh").describe("Language of the reasons and messages"),
    llm_rank: z
      .boolean()
      .default(false)
      .describe(
        "true: with an LLM channel configured, the model re-orders the candidates and writes a market view, its " +
          "selection logic and the portfolio's risk; used only when every figure it writes is one of the candidates' " +
          "(else the rule order stays and llm_failure_reason says why)",
      ),
  })
  .meta({ id: "ScreenRequest" });
export type TScreenRequest = z.infer<typeof ZScreenRequest>;

export const ZCandidate = z
  .object({
    code: z.string(),
    name: z.string().nullable(),
    market: ZMarket,
    rank: z.number().int().describe("1 = first: by the strategy's ranking metric, or by the model when llm_ranked"),
    rule_rank: z.number().int().optional().describe("When llm_ranked: the rank by the strategy's ranking metric"),
    score: z.number().nullable().describe("The value of the strategy's ranking metric (score_metric), not a forecast"),
    score_metric: ZMetric,
    reasons: z.array(z.string()).describe("One per filter: the figure that passed it and the threshold"),
    reason: z.string().describe("The reasons in one line (the reference's client reads this)"),
    price: z.number().nullable().describe("The close of last_bar_date"),
    change_pct: z.number().nullable().describe("That session's change, %"),
    amount: z.number().nullable().describe("That session's turnover amount"),
    metrics: z.record(z.string(), z.number().nullable()),
    last_bar_date: z.string().describe("The session the figures are from"),
    stale: z.boolean().describe("The last bar is older than the market's last closed session"),
    closes: z.array(z.number()).describe("The last 30 closes, oldest first (the page's sparkline)"),
    bars_source: z.string(),
    is_sample_data: z.boolean(),
  })
  .meta({ id: "ScreeningCandidate" });
export type TCandidate = z.infer<typeof ZCandidate>;

export const QUALITY_STATUSES = ["verified", "degraded", "insufficient"] as const;

export const ZSourceError = z.object({ source: z.string(), code: z.string().nullable(), message: z.string() });
export type TSourceError = z.infer<typeof ZSourceError>;

export const ZScreenResponse = z
  .object({
    run_id: z.string(),
    strategy: z.string(),
    market: ZMarket,
    created_at: z.string(),
    candidates: z.array(ZCandidate),
    candidate_count: z.number().int(),
    snapshot_source: z
      .string()
      .describe("Where the universe was listed from (eastmoney, sample, csv, joined by +), or none"),
    snapshot_count: z.number().int().describe("Stocks in the universe"),
    bars_loaded_count: z.number().int().describe("Of those, stocks whose daily bars were read"),
    after_filter_count: z.number().int().describe("Stocks that passed every filter"),
    ranking_mode: z
      .enum(["factor", "llm"])
      .describe("factor: ranked by the strategy's ranking figure; llm: re-ordered by the language model (llm_rank)"),
    warnings: z.array(z.string()),
    source_errors: z.array(z.string()).describe("One line per failure: the source and what failed"),
    source_error_details: z.array(ZSourceError).describe("Ours: the same failures with a code"),
    quality_status: z
      .enum(QUALITY_STATUSES)
      .describe("verified: all read; degraded: some unread, sample data or a kept list; insufficient: nothing to show"),
    quality_score: z.number().int().describe("Share of the universe whose bars were read, in %"),
    quality_reasons: z.array(z.string()),
    is_sample_data: z.boolean(),
    llm_ranked: z.boolean(),
    llm_market_view: z.string().nullable(),
    llm_selection_logic: z.string().nullable(),
    llm_portfolio_risk: z.string().nullable(),
    llm_model_used: z.string().nullable(),
    llm_failure_reason: z.string().nullable(),
    snapshot_fallback_used: z.boolean(),
    snapshot_stale_age_hours: z.number().nullable(),
    dsa_enrichment: z.object({
      enabled: z.boolean(),
      max_candidates: z.number().int(),
      requested_count: z.number().int(),
      enriched_count: z.number().int(),
      warnings: z.array(z.string()),
    }),
    deep_analysis_requested: z.boolean(),
    daily_enriched: z.boolean().describe("true: every figure is from daily bars"),
    risk_enabled: z.boolean(),
  })
  .meta({ id: "ScreenResponse" });
export type TScreenResponse = z.infer<typeof ZScreenResponse>;

export const ZHistoryQuery = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(20),
  strategy: z.string().trim().max(48).optional(),
  market: ZMarket.optional(),
});

export const ZRunSummary = z
  .object({
    run_id: z.string(),
    strategy: z.string(),
    market: ZMarket,
    snapshot_source: z.string(),
    snapshot_count: z.number().int(),
    after_filter_count: z.number().int(),
    candidate_count: z.number().int(),
    quality_status: z.string(),
    llm_ranked: z.boolean(),
    daily_enriched: z.boolean(),
    source_errors: z.array(z.string()),
    warnings: z.array(z.string()),
    created_at: z.string(),
  })
  .meta({ id: "ScreeningRunSummary" });
export type TRunSummary = z.infer<typeof ZRunSummary>;

export const ZHistoryResponse = z
  .object({ enabled: z.boolean(), runs: z.array(ZRunSummary), run_count: z.number().int() })
  .meta({ id: "ScreeningHistoryResponse" });

export const ZRunParams = z.object({ run_id: z.string().trim().min(1).max(64) });

export const ZRunDetail = ZRunSummary.extend({ enabled: z.boolean(), result: ZScreenResponse }).meta({
  id: "ScreeningRunDetail",
});

export const ZSourceHistoryQuery = z.object({ limit: z.coerce.number().int().min(1).max(500).default(50) });

export const ZSourceHistoryResponse = z
  .object({
    enabled: z.boolean(),
    runs_analyzed: z.number().int(),
    fallback_runs: z.number().int(),
    sources: z.record(
      z.string(),
      z.object({
        selected_runs: z.number().int().describe("Runs whose universe was listed from this source"),
        error_count: z.number().int(),
        last_seen_at: z.string().nullable(),
        error_samples: z.array(z.string()),
      }),
    ),
  })
  .meta({ id: "ScreeningSourceHistoryResponse" });

export const ZScreenTaskAccepted = z
  .object({
    task_id: z.string().describe("Also the run_id of the run it stores"),
    trace_id: z.string(),
    status: z.literal("pending"),
    message: z.string(),
    strategy: z.string(),
    market: ZMarket,
    max_results: z.number().int(),
  })
  .meta({ id: "ScreenTaskAccepted" });
export type TScreenTaskAccepted = z.infer<typeof ZScreenTaskAccepted>;

export const ZScreenTaskParams = z.object({ task_id: z.string().trim().min(1).max(64) });

export const ZScreenTaskStatus = z
  .object({
    task_id: z.string(),
    trace_id: z.string().nullable(),
    status: z.enum(["pending", "processing", "completed", "failed"]),
    progress: z.number().int(),
    message: z.string().nullable(),
    error: z.string().nullable(),
    result: ZScreenResponse.nullable().describe("The stored run once completed"),
  })
  .meta({ id: "ScreenTaskStatus" });
export type TScreenTaskStatus = z.infer<typeof ZScreenTaskStatus>;

export const ZScheduledLatestQuery = z.object({
  target_time: z
    .string()
    .trim()
    .regex(/^\d{2}:\d{2}$/, "HH:MM")
    .optional()
    .describe("Echoed in result.target_time; the schedule's SCHEDULE_TIME when absent"),
});

export const ZScheduledLatestResponse = z
  .object({
    available: z.boolean().describe("Whether a scheduled run has completed"),
    run: z
      .object({
        run_id: z.string(),
        strategy: z.string(),
        market: ZMarket,
        created_at: z.string(),
        result: z.object({
          target_time: z.string(),
          mode: z.literal("scheduled"),
          run_url: z.string().describe("The run on the Screening page"),
          candidates: z.array(ZCandidate),
        }),
      })
      .nullable(),
    candidates: z.array(ZCandidate),
  })
  .meta({ id: "ScreeningScheduledLatest" });
export type TScheduledLatestResponse = z.infer<typeof ZScheduledLatestResponse>;
