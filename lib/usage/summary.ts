import { Prisma } from "@/generated/prisma/client";
import { now } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { activeDatabaseKind } from "@/lib/db/raw-sql";
import { dayWindow, periodWindow, type PeriodWindow, type TUsagePeriod } from "./period";
import type {
  TUsageCallTypeBreakdown,
  TUsageDailyResponse,
  TUsageDashboardResponse,
  TUsageModelBreakdown,
  TUsageRecentCall,
  TUsageSummaryResponse,
} from "./schemas";
import { localDay, serviceTimeZone } from "@/lib/time/zoned-time";

// Usage read side (spec 4.6, docs/api.md §6): every figure is aggregated by SQLite (aggregate/groupBy over the
// calledAt index), never by loading the period's rows. The reads of one response run in one transaction, so
// totals and breakdowns describe the same rows even while analyses record new calls.

type Sums = { promptTokens: number | null; completionTokens: number | null; totalTokens: number | null };

const SUM = { promptTokens: true, completionTokens: true, totalTokens: true } as const;

function tokens(count: number, sum: Sums) {
  return {
    calls: count,
    prompt_tokens: sum.promptTokens ?? 0,
    completion_tokens: sum.completionTokens ?? 0,
    total_tokens: sum.totalTokens ?? 0,
  };
}

function queries(window: PeriodWindow) {
  const where: Prisma.LlmUsageWhereInput = window.calledAt ? { calledAt: window.calledAt } : {};
  const usage = db().llmUsage;
  return {
    where,
    totals: usage.aggregate({ where, _count: { _all: true }, _sum: SUM, _min: { calledAt: true } }),
    byCallType: usage.groupBy({
      by: ["callType"],
      where,
      _count: { _all: true },
      _sum: SUM,
      orderBy: [{ _sum: { totalTokens: "desc" } }, { callType: "asc" }],
    }),
    byModel: usage.groupBy({
      by: ["model"],
      where,
      _count: { _all: true },
      _sum: SUM,
      _max: { totalTokens: true },
      orderBy: [{ _sum: { totalTokens: "desc" } }, { model: "asc" }],
    }),
  };
}

type Totals = Prisma.GetLlmUsageAggregateType<{ _count: { _all: true }; _sum: typeof SUM; _min: { calledAt: true } }>;

function summaryBody(
  window: PeriodWindow,
  totals: Totals,
  byCallType: { callType: string; _count: { _all: number }; _sum: Sums }[],
  byModel: { model: string; _count: { _all: number }; _sum: Sums; _max: { totalTokens: number | null } }[],
): TUsageSummaryResponse {
  const total = tokens(totals._count._all, totals._sum);
  const first = totals._min.calledAt;
  return {
    period: window.period,
    time_zone: window.timeZone,
    from_date: window.fromDate ?? (first ? localDay(first, window.timeZone) : null),
    to_date: window.toDate,
    total_calls: total.calls,
    total_prompt_tokens: total.prompt_tokens,
    total_completion_tokens: total.completion_tokens,
    total_tokens: total.total_tokens,
    by_call_type: byCallType.map(
      (g): TUsageCallTypeBreakdown => ({ call_type: g.callType, ...tokens(g._count._all, g._sum) }),
    ),
    by_model: byModel.map(
      (g): TUsageModelBreakdown => ({
        model: g.model,
        ...tokens(g._count._all, g._sum),
        max_total_tokens: g._max.totalTokens ?? 0,
      }),
    ),
  };
}

/** GET /api/v1/usage/summary */
export async function usageSummary(period: TUsagePeriod): Promise<TUsageSummaryResponse> {
  const window = periodWindow(period, now(), serviceTimeZone());
  const q = queries(window);
  const [totals, byCallType, byModel] = await db().$transaction([q.totals, q.byCallType, q.byModel]);
  return summaryBody(window, totals as Totals, byCallType, byModel);
}

/** GET /api/v1/usage/dashboard: the summary plus the period's latest calls, newest first. */
export async function usageDashboard(period: TUsagePeriod, limit: number): Promise<TUsageDashboardResponse> {
  const window = periodWindow(period, now(), serviceTimeZone());
  const q = queries(window);
  const recent = db().llmUsage.findMany({
    where: q.where,
    orderBy: [{ calledAt: "desc" }, { id: "desc" }],
    take: limit,
    select: {
      id: true,
      calledAt: true,
      callType: true,
      model: true,
      stockCode: true,
      promptTokens: true,
      completionTokens: true,
      totalTokens: true,
      success: true,
      durationMs: true,
    },
  });
  const [totals, byCallType, byModel, rows] = await db().$transaction([q.totals, q.byCallType, q.byModel, recent]);
  return {
    ...summaryBody(window, totals as Totals, byCallType, byModel),
    recent_calls: rows.map(
      (r): TUsageRecentCall => ({
        id: r.id,
        called_at: r.calledAt.toISOString(),
        call_type: r.callType,
        model: r.model,
        stock_code: r.stockCode,
        prompt_tokens: r.promptTokens,
        completion_tokens: r.completionTokens,
        total_tokens: r.totalTokens,
        success: r.success,
        duration_ms: r.durationMs,
      }),
    ),
  };
}

// 15-minute UTC buckets: every zone's offset is a multiple of 15 minutes, so each bucket lies inside one local
// day of any zone, and the buckets are folded into local days here (correct across DST changes too).
const BUCKET_SECONDS = 900;

// Whole seconds since 1970 of the stored UTC time (SQLite keeps ISO text, PostgreSQL a timestamp without zone).
const EPOCH_SECONDS = {
  sqlite: Prisma.raw("CAST(strftime('%s', called_at) AS INTEGER)"),
  postgres: Prisma.raw("CAST(FLOOR(EXTRACT(EPOCH FROM called_at)) AS BIGINT)"),
};

interface BucketRow {
  bucket: number | bigint;
  calls: number | bigint;
  prompt_tokens: number | bigint | null;
  completion_tokens: number | bigint | null;
  total_tokens: number | bigint | null;
}

/** GET /api/v1/usage/daily: tokens per local day for the last `days` days, zero-filled. */
export async function usageDaily(days: number): Promise<TUsageDailyResponse> {
  const timeZone = serviceTimeZone();
  const window = dayWindow(days, now(), timeZone);
  const rows = await db().$queryRaw<BucketRow[]>`
    SELECT ${EPOCH_SECONDS[activeDatabaseKind()]} / ${BUCKET_SECONDS} AS bucket,
           COUNT(*) AS calls,
           SUM(prompt_tokens) AS prompt_tokens,
           SUM(completion_tokens) AS completion_tokens,
           SUM(total_tokens) AS total_tokens
    FROM llm_usage
    WHERE called_at >= ${window.starts[0]} AND called_at < ${window.until}
    GROUP BY bucket`;
  const byDay = new Map(
    window.days.map((date) => [date, { date, calls: 0, prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 }]),
  );
  for (const row of rows) {
    const entry = byDay.get(localDay(new Date(Number(row.bucket) * BUCKET_SECONDS * 1000), timeZone));
    if (!entry) continue;
    entry.calls += Number(row.calls);
    entry.prompt_tokens += Number(row.prompt_tokens ?? 0);
    entry.completion_tokens += Number(row.completion_tokens ?? 0);
    entry.total_tokens += Number(row.total_tokens ?? 0);
  }
  return { time_zone: timeZone, from_date: window.days[0]!, to_date: window.days.at(-1)!, days: [...byDay.values()] };
}
