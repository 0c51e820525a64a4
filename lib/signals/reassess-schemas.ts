import { z } from "zod";
import { DB_ID_MAX } from "@/lib/db/id-range";
import { ZDecisionProfile, ZDecisionSignalItem, ZSignalAction, ZSignalHorizon, ZSignalMarketPhase } from "./schemas";

// POST /api/v1/decision-signals/reassess (CONTRACT §14.3): a stored report's call seen under a decision profile.

export const ZReassessRequest = z
  .object({
    source_report_id: z.number().int().positive().max(DB_ID_MAX).describe("analysis_history id of a stock report"),
    decision_profile: ZDecisionProfile,
    persist: z
      .boolean()
      .default(false)
      .describe("false: a preview, nothing is stored; true: store the signal when the profile gate passes"),
  })
  .meta({ id: "DecisionSignalReassessRequest" });
export type TReassessRequest = z.infer<typeof ZReassessRequest>;

export const DATA_QUALITY_LEVELS = ["good", "degraded", "insufficient", "unknown"] as const;
export const CONFIDENCE_LEVELS = ["high", "medium", "low"] as const;

export const ZGuardrailResult = z
  .object({
    raw_action: ZSignalAction.describe("The stored report's action"),
    final_action: ZSignalAction.describe(
      "raw_action, or watch (alert when the plan's prices contradict) on a violation",
    ),
    passed: z.boolean(),
    violations: z.array(z.string()).describe("Codes of the profile checks the report fails"),
    adjustments: z.array(z.string()),
    adjusted: z.boolean(),
  })
  .meta({ id: "DecisionSignalGuardrailResult" });
export type TGuardrailResult = z.infer<typeof ZGuardrailResult>;

export const ZReassessMetadata = z
  .object({
    decision_profile: ZDecisionProfile,
    profile_source: z.literal("user_selected"),
    profile_policy_version: z.string().describe("The profile gate's rules (docs/api.md §4.6)"),
    source_engine_version: z
      .string()
      .nullable()
      .describe("Rule set of the stored analysis; the call is not recomputed"),
    data_quality_level: z.enum(DATA_QUALITY_LEVELS).describe("The report's data quality; unknown when it stored none"),
    confidence_level: z.enum(CONFIDENCE_LEVELS).nullable().describe("The report's own stated confidence"),
    scoring_breakdown: z
      .object({
        score: z.number().int().nullable(),
        raw_action: ZSignalAction,
        final_action: ZSignalAction,
        factors: z.array(z.unknown()).describe("The stored report's score factors, as stored"),
      })
      .describe("Where the score came from: the stored report's own factors; no new number is made"),
    guardrail_result: ZGuardrailResult,
  })
  .meta({ id: "DecisionSignalReassessMetadata" });
export type TReassessMetadata = z.infer<typeof ZReassessMetadata>;

export const ZReassessPreview = z
  .object({
    action: ZSignalAction,
    score: z.number().int().nullable(),
    confidence: z
      .number()
      .nullable()
      .describe("Always null: reports state confidence as a level (metadata.confidence_level), not a probability"),
    horizon: ZSignalHorizon,
    market_phase: ZSignalMarketPhase.nullable(),
    entry_low: z.number().nullable(),
    entry_high: z.number().nullable(),
    stop_loss: z.number().nullable(),
    target_price: z.number().nullable(),
    invalidation: z.string().nullable(),
    reason: z.string().nullable(),
    risk_summary: z.string().nullable(),
    watch_conditions: z.string().nullable(),
    metadata: ZReassessMetadata,
  })
  .meta({ id: "DecisionSignalReassessPreview" });
export type TReassessPreview = z.infer<typeof ZReassessPreview>;

export const ZReassessWarning = z
  .object({
    code: z.string().describe("action_adjusted_by_guardrail, action_blocked_by_guardrail, stale_source_report"),
    params: z.record(z.string(), z.unknown()),
    message: z.string().describe("In the report's language"),
  })
  .meta({ id: "DecisionSignalReassessWarning" });
export type TReassessWarning = z.infer<typeof ZReassessWarning>;

export const ZReassessResponse = z
  .object({
    preview: ZReassessPreview,
    item: ZDecisionSignalItem.nullable().describe("The stored (or matched) signal when persist was true"),
    created: z.boolean().describe("true only when persist stored a new signal"),
    warnings: z.array(ZReassessWarning),
    blocked_reason: z
      .string()
      .nullable()
      .describe("actionable_signal_blocked_by_guardrail when the gate fails (a persist is then refused)"),
  })
  .meta({ id: "DecisionSignalReassessResponse" });
export type TReassessResponse = z.infer<typeof ZReassessResponse>;
