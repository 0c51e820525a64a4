import { z } from "zod";

// The LLM's structured answer: the "decision dashboard" (reference-service.md §2), trimmed to what the
// model adds on top of the computed data. Numbers we already know (price, MAs, bias, volume ratio) are not
// asked back; the report assembler takes them from the computed context.
//
// Shape rules, because this schema is also sent as `response_format: json_schema` (strict) to OpenAI:
// every property is required (absent values are null), no string length limits, no transforms. Checks a
// JSON schema cannot express (non-empty texts, price levels against the current price) live in
// `checkReportAgainstData` (generate-report.ts).

export const DECISION_ACTIONS = ["buy", "add", "hold", "reduce", "sell", "watch", "avoid", "alert"] as const;
export type TDecisionAction = (typeof DECISION_ACTIONS)[number];

const priceLevel = z.number().nullable();

export const ZLlmReport = z.object({
  core_conclusion: z.object({
    /** One sentence a trader can act on. */
    one_sentence: z.string(),
    action: z.enum(DECISION_ACTIONS),
    /** Sentiment score 0–100 (80+ strong buy … below 20 sell). */
    score: z.number().min(0).max(100),
    confidence: z.enum(["high", "medium", "low"]),
    time_sensitivity: z.string(),
    position_advice: z.object({
      no_position: z.string(),
      has_position: z.string(),
    }),
  }),
  data_perspective: z.object({
    trend_status: z.string(),
    price_position: z.string(),
    volume_analysis: z.string(),
    momentum: z.string(),
  }),
  intelligence: z.object({
    latest_news: z.string(),
    positive_catalysts: z.array(z.string()),
    risk_alerts: z.array(z.string()),
    sentiment_summary: z.string(),
  }),
  battle_plan: z.object({
    sniper_points: z.object({
      ideal_buy: priceLevel,
      secondary_buy: priceLevel,
      stop_loss: priceLevel,
      take_profit: priceLevel,
    }),
    position_strategy: z.object({
      suggested_position: z.string(),
      entry_plan: z.string(),
      risk_control: z.string(),
    }),
  }),
  checklist: z.array(
    z.object({
      item: z.string(),
      status: z.enum(["pass", "warn", "fail"]),
      detail: z.string(),
    }),
  ),
  risk_warnings: z.array(z.string()),
  trend_prediction: z.string(),
  operation_advice: z.string(),
});

export type TLlmReport = z.infer<typeof ZLlmReport>;
export type TSniperPoints = TLlmReport["battle_plan"]["sniper_points"];

/** The JSON schema of the answer, for prompts of providers without structured-output support. */
export function llmReportJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(ZLlmReport, { target: "draft-7" }) as Record<string, unknown>;
}
