import { z } from "zod";
import { DECISION_ACTIONS } from "@/lib/analysis/engine/schemas";

// The two objects every report carries in `details` (docs/api.md §13): what the engine's own record says about the
// call it makes now, and how far the data behind the call can carry it. One schema per wire record.

export const EVIDENCE_HORIZON_DAYS = 10;
/** Below this many non-overlapping calls no interval is worth reading: the verdict is `insufficient`. */
export const MIN_INDEPENDENT_CALLS = 20;

export const EVIDENCE_VERDICTS = ["edge", "no_measurable_edge", "adverse", "insufficient"] as const;
export type TEvidenceVerdict = (typeof EVIDENCE_VERDICTS)[number];

const pct = z.number().nullable();

export const ZEvidenceScope = z
  .object({
    scope: z.enum(["stock", "market"]),
    universe: z.string().nullable().describe("For `market`: what was evaluated"),
    period_start: z.string(),
    period_end: z.string(),
    n_calls: z.number().int().describe("Calls with this action in the scope (10-day outcome known)"),
    n_independent: z.number().int().describe("Among them, calls whose 10-day windows do not overlap"),
    mean_excess_pct: pct.describe(
      "Mean forward 10-day return of these calls minus the mean of the same stock's other calls (per stock, then weighted by calls)",
    ),
    ci95_low_pct: pct.describe("Newey-West 95 % interval of mean_excess_pct, low end"),
    ci95_high_pct: pct.describe("Newey-West 95 % interval of mean_excess_pct, high end"),
    hit_rate: z.number().min(0).max(1).nullable().describe("Share of these calls judged a hit at 10 days"),
    base_hit_rate: z
      .number()
      .min(0)
      .max(1)
      .nullable()
      .describe("Share of all the stock's days the same judgement would call a hit for this action"),
    verdict: z.enum(EVIDENCE_VERDICTS),
  })
  .meta({ id: "EvidenceScope" });
export type TEvidenceScope = z.infer<typeof ZEvidenceScope>;

export const ZEvidence = z
  .object({
    engine_version: z.string(),
    action: z.enum(DECISION_ACTIONS).nullable(),
    horizon_days: z.number().int(),
    scopes: z.array(ZEvidenceScope).describe("One entry per scope that has data, `stock` first"),
    statement: z.string().describe("One or two plain sentences for the report, the Markdown and the share card"),
  })
  .meta({ id: "ReportEvidence" });
export type TEvidence = z.infer<typeof ZEvidence>;

export const DATA_QUALITY_REASONS = [
  "too_few_bars",
  "stale_bars",
  "missing_volume",
  "sample_data",
  "provider_fallback",
  "price_gap",
] as const;
export type TDataQualityReason = (typeof DATA_QUALITY_REASONS)[number];

export const ZDataQuality = z
  .object({
    level: z.enum(["good", "degraded", "insufficient"]),
    reasons: z.array(z.object({ code: z.enum(DATA_QUALITY_REASONS), message: z.string() })),
    bars: z.number().int().describe("Bars the call was made from"),
    last_bar_date: z.string().nullable(),
    source: z.string().describe("Provider that served the bars"),
  })
  .meta({ id: "ReportDataQuality" });
export type TDataQuality = z.infer<typeof ZDataQuality>;
