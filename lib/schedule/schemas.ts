import { z } from "zod";

export const RUN_TRIGGERS = ["schedule", "manual"] as const;
export const RUN_STATUSES = ["running", "completed", "failed"] as const;
export const REVIEW_OUTCOMES = ["accepted", "duplicate", "disabled", "skipped", "failed"] as const;
export const DIGEST_STATES = ["pending", "sending", "sent", "partial", "failed", "suppressed", "no_channels"] as const;
export const RECENT_RUNS_LIMIT = { min: 1, max: 100, default: 10 } as const;

export const ZScheduledRun = z
  .object({
    id: z.number().int(),
    trigger: z.enum(RUN_TRIGGERS).describe("schedule: the daily slot; manual: run-now"),
    slot: z
      .string()
      .nullable()
      .describe('The slot this run stands for, "YYYY-MM-DD HH:MM" in the service time zone; null for run-now'),
    status: z.enum(RUN_STATUSES),
    started_at: z.string(),
    finished_at: z.string().nullable(),
    message: z.string().describe("One line: what was queued, skipped, rejected"),
    error: z.string().nullable(),
    accepted: z.array(z.object({ task_id: z.string(), stock_code: z.string() })),
    duplicates: z
      .array(z.object({ stock_code: z.string(), existing_task_id: z.string() }))
      .describe("Already pending or processing: not queued twice"),
    rejected: z
      .array(z.object({ stock_code: z.string(), message: z.string() }))
      .describe("Watchlist entries that are not a supported code or known name"),
    skipped: z
      .array(z.object({ stock_code: z.string(), market: z.string(), reason: z.string() }))
      .describe("Stocks whose market is closed today (TRADING_DAY_CHECK_ENABLED)"),
    digest: z
      .enum(DIGEST_STATES)
      .nullable()
      .describe(
        "The merged report message (SINGLE_STOCK_NOTIFY off): pending until the run's analyses finish; null when none is due",
      ),
    screening: z
      .array(
        z.object({
          strategy: z.string(),
          market: z.string(),
          task_id: z
            .string()
            .nullable()
            .describe("The queued screening run (its run_id once stored); null when not queued"),
          message: z.string(),
        }),
      )
      .describe("SCREENING_SCHEDULE_STRATEGIES, queued after the watchlist"),
    market_review: z.object({
      outcome: z.enum(REVIEW_OUTCOMES),
      region: z.string().nullable(),
      task_id: z.string().nullable().describe("The queued review, or the running one for a duplicate"),
      message: z.string(),
    }),
  })
  .meta({ id: "ScheduledRun" });
export type TScheduledRun = z.infer<typeof ZScheduledRun>;

export const ZSchedulerStatus = z
  .object({
    enabled: z.boolean().describe("SCHEDULE_ENABLED and a valid SCHEDULE_TIME"),
    schedule_time: z.string().describe("SCHEDULE_TIME as configured"),
    time_zone: z.string().describe("SERVICE_TIMEZONE in effect"),
    problem: z
      .string()
      .nullable()
      .describe("Why the schedule cannot run although enabled (e.g. a malformed SCHEDULE_TIME)"),
    next_run_at: z.string().nullable().describe("The next slot (ISO 8601 with offset); null when disabled"),
    catch_up_minutes: z.number().int(),
    trading_day_check: z.boolean(),
    market_review_enabled: z.boolean(),
    market_review_region: z.string(),
    report_type: z.string(),
    stock_list: z.array(z.string()).describe("STOCK_LIST entries as configured"),
    recent_runs: z.array(ZScheduledRun).describe("Newest first"),
  })
  .meta({ id: "SchedulerStatus" });
export type TSchedulerStatus = z.infer<typeof ZSchedulerStatus>;

export const ZSchedulerStatusQuery = z.object({
  limit: z.coerce
    .number()
    .int()
    .min(RECENT_RUNS_LIMIT.min)
    .max(RECENT_RUNS_LIMIT.max)
    .default(RECENT_RUNS_LIMIT.default)
    .describe("Recent runs, 1-100 (default 10)"),
});
