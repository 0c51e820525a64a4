import { z } from "zod";
import { USAGE_PERIODS } from "./period";

// Wire shapes of the usage endpoints (spec 4.6, docs/api.md §6). Token counts are what the providers reported;
// a failed call is a call with the tokens it was charged (usually none).

export const USAGE_DASHBOARD_LIMIT = { min: 1, max: 200, default: 50 } as const;
export const USAGE_DAILY_DAYS = { min: 1, max: 366, default: 30 } as const;

const PERIOD_TEXT =
  "today (from local 00:00), month (from the local 1st, 00:00) or all; local means the service time zone " +
  "(setting SERVICE_TIMEZONE, default Asia/Shanghai). Any other value is a validation error (422).";

const ZPeriod = z.enum(USAGE_PERIODS).default("month").describe(PERIOD_TEXT);

export const ZUsageSummaryQuery = z.object({ period: ZPeriod });

export const ZUsageDashboardQuery = z.object({
  period: ZPeriod,
  limit: z.coerce
    .number()
    .int()
    .min(USAGE_DASHBOARD_LIMIT.min)
    .max(USAGE_DASHBOARD_LIMIT.max)
    .default(USAGE_DASHBOARD_LIMIT.default)
    .describe("How many of the period's most recent calls recent_calls lists (1-200)"),
});

export const ZUsageDailyQuery = z.object({
  days: z.coerce
    .number()
    .int()
    .min(USAGE_DAILY_DAYS.min)
    .max(USAGE_DAILY_DAYS.max)
    .default(USAGE_DAILY_DAYS.default)
    .describe("Number of local days ending today (1-366)"),
});

const ZDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

const tokenFields = {
  calls: z.number().int().describe("Recorded LLM calls, failed ones included"),
  prompt_tokens: z.number().int(),
  completion_tokens: z.number().int(),
  total_tokens: z.number().int(),
};

export const ZUsageCallTypeBreakdown = z
  .object({
    call_type: z.string().describe("What made the calls: analysis, agent, market_review, ..."),
    ...tokenFields,
  })
  .meta({ id: "UsageCallTypeBreakdown" });

export const ZUsageModelBreakdown = z
  .object({
    model: z.string(),
    ...tokenFields,
    max_total_tokens: z.number().int().describe("Largest total_tokens of one call of this model in the period"),
  })
  .meta({ id: "UsageModelBreakdown" });

const summaryFields = {
  period: z.enum(USAGE_PERIODS),
  time_zone: z.string().describe("IANA zone the period's days are counted in (setting SERVICE_TIMEZONE)"),
  from_date: ZDay.nullable().describe(
    "First local day of the period: today, the 1st of this month, or for all the day of the first recorded call (null when there is none)",
  ),
  to_date: ZDay.describe("Today, in the service time zone"),
  total_calls: z.number().int(),
  total_prompt_tokens: z.number().int(),
  total_completion_tokens: z.number().int(),
  total_tokens: z.number().int(),
  by_call_type: z.array(ZUsageCallTypeBreakdown).describe("Largest total_tokens first"),
  by_model: z.array(ZUsageModelBreakdown).describe("Largest total_tokens first"),
};

export const ZUsageSummaryResponse = z.object(summaryFields).meta({ id: "UsageSummaryResponse" });

export const ZUsageRecentCall = z
  .object({
    id: z.number().int(),
    called_at: z.string().describe("ISO 8601 instant (UTC)"),
    call_type: z.string(),
    model: z.string(),
    stock_code: z.string().nullable().optional(),
    prompt_tokens: z.number().int(),
    completion_tokens: z.number().int(),
    total_tokens: z.number().int(),
    success: z.boolean().describe("Whether the call returned an answer"),
    duration_ms: z.number().int(),
  })
  .meta({ id: "UsageRecentCall" });

export const ZUsageDashboardResponse = z
  .object({
    ...summaryFields,
    recent_calls: z.array(ZUsageRecentCall).describe("The period's latest calls, newest first, at most limit"),
  })
  .meta({ id: "UsageDashboardResponse" });

export const ZUsageDay = z.object({ date: ZDay, ...tokenFields }).meta({ id: "UsageDay" });

export const ZUsageDailyResponse = z
  .object({
    time_zone: z.string(),
    from_date: ZDay,
    to_date: ZDay,
    days: z.array(ZUsageDay).describe("One entry per local day, oldest first; days without calls are zeros"),
  })
  .meta({ id: "UsageDailyResponse" });

export type TUsageSummaryQuery = z.output<typeof ZUsageSummaryQuery>;
export type TUsageDashboardQuery = z.output<typeof ZUsageDashboardQuery>;
export type TUsageDailyQuery = z.output<typeof ZUsageDailyQuery>;
export type TUsageSummaryResponse = z.infer<typeof ZUsageSummaryResponse>;
export type TUsageDashboardResponse = z.infer<typeof ZUsageDashboardResponse>;
export type TUsageDailyResponse = z.infer<typeof ZUsageDailyResponse>;
export type TUsageModelBreakdown = z.infer<typeof ZUsageModelBreakdown>;
export type TUsageCallTypeBreakdown = z.infer<typeof ZUsageCallTypeBreakdown>;
export type TUsageRecentCall = z.infer<typeof ZUsageRecentCall>;
export type TUsageDay = z.infer<typeof ZUsageDay>;
