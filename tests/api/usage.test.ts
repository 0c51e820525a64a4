import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ZValidationErrorResponse } from "@/lib/errors/schemas";
import { ZUsageDailyResponse, ZUsageDashboardResponse, ZUsageSummaryResponse } from "@/lib/usage/schemas";
import { startTestServer, type TestServer } from "../setup/api-server";
import { openServerDatabase, writeLiveConfig } from "../setup/server-database";

// Both databases: the day and month sums are SQL over timestamps, which each dialect stores differently.
// GET /api/v1/usage/summary, /dashboard (spec 4.6, docs/api.md §6 and §9) and /daily, against
// the real built server with llm_usage rows written straight into its database. The expected figures are
// computed here independently: Shanghai is UTC+8 all year, so its day and month boundaries are plain arithmetic.

let server: TestServer;
const H = 3_600_000;
const SH = 8 * H;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.stop();
});

const get = (p: string) => fetch(`${server.baseUrl}${p}`);

async function json<T>(p: string, schema: { parse(v: unknown): T }): Promise<T> {
  const res = await get(p);
  expect(res.status, p).toBe(200);
  return schema.parse(await res.json());
}

/** Shanghai calendar day (YYYY-MM-DD) of an instant, and the UTC instant a Shanghai day starts. */
const shDay = (ms: number) => new Date(ms + SH).toISOString().slice(0, 10);
const shStart = (day: string) => Date.parse(`${day}T00:00:00Z`) - SH;
const shMonthStart = (ms: number) => shStart(`${shDay(ms).slice(0, 7)}-01`);
const shNextMonthStart = (ms: number) => {
  const [y, m] = shDay(ms).split("-").map(Number) as [number, number];
  return Date.UTC(y, m, 1) - SH;
};

interface Row {
  at: number;
  callType: string;
  model: string;
  stockCode: string | null;
  prompt: number;
  completion: number;
  success: boolean;
}

const seeded: Row[] = [];

async function seed(rows: Row[]): Promise<void> {
  const database = await openServerDatabase(server);
  try {
    // One multi-row INSERT: all rows or none, as the one transaction was.
    await database.run(
      `INSERT INTO llm_usage (called_at, call_type, channel, model, stock_code, query_id, prompt_tokens, completion_tokens, total_tokens, duration_ms, success, error)
       VALUES ${rows.map(() => "(?, ?, 'test', ?, ?, NULL, ?, ?, ?, 1200, ?, ?)").join(", ")}`,
      ...rows.flatMap((r) => [
        // Prisma's SQLite adapter stores DateTime as ISO text with "+00:00"; the seed uses the same form. PostgreSQL
        // reads the same text into its timestamp column (UTC, as Prisma writes it there).
        new Date(r.at).toISOString().replace("Z", "+00:00"),
        r.callType,
        r.model,
        r.stockCode,
        r.prompt,
        r.completion,
        r.prompt + r.completion,
        // 1/0 on SQLite, a boolean on PostgreSQL (the helper binds it per database).
        r.success,
        r.success ? null : "timeout",
      ]),
    );
  } finally {
    await database.close();
  }
  seeded.push(...rows);
}

function expected(rows: Row[]) {
  const sum = (rs: Row[]) => ({
    calls: rs.length,
    prompt_tokens: rs.reduce((s, r) => s + r.prompt, 0),
    completion_tokens: rs.reduce((s, r) => s + r.completion, 0),
    total_tokens: rs.reduce((s, r) => s + r.prompt + r.completion, 0),
  });
  const group = (key: (r: Row) => string) => {
    const m = new Map<string, Row[]>();
    for (const r of rows) m.set(key(r), [...(m.get(key(r)) ?? []), r]);
    return [...m.entries()].sort((a, b) => sum(b[1]).total_tokens - sum(a[1]).total_tokens || (a[0] < b[0] ? -1 : 1));
  };
  const total = sum(rows);
  return {
    total_calls: total.calls,
    total_prompt_tokens: total.prompt_tokens,
    total_completion_tokens: total.completion_tokens,
    total_tokens: total.total_tokens,
    by_call_type: group((r) => r.callType).map(([call_type, rs]) => ({ call_type, ...sum(rs) })),
    by_model: group((r) => r.model).map(([model, rs]) => ({
      model,
      ...sum(rs),
      max_total_tokens: Math.max(...rs.map((r) => r.prompt + r.completion)),
    })),
  };
}

const inWindow = (from: number, until: number) => seeded.filter((r) => r.at >= from && r.at < until);

describe("usage endpoints (spec 4.6)", () => {
  it("an empty database answers zeros for every period, with the Shanghai from/to dates", async () => {
    const nowMs = Date.now();
    const today = shDay(nowMs);
    const zeros = {
      total_calls: 0,
      total_prompt_tokens: 0,
      total_completion_tokens: 0,
      total_tokens: 0,
      by_call_type: [],
      by_model: [],
    };
    // No period: month (spec 4.6 default).
    expect(await json("/api/v1/usage/summary", ZUsageSummaryResponse)).toEqual({
      period: "month",
      time_zone: "Asia/Shanghai",
      from_date: `${today.slice(0, 7)}-01`,
      to_date: today,
      ...zeros,
    });
    expect(await json("/api/v1/usage/summary?period=today", ZUsageSummaryResponse)).toEqual({
      period: "today",
      time_zone: "Asia/Shanghai",
      from_date: today,
      to_date: today,
      ...zeros,
    });
    expect(await json("/api/v1/usage/summary?period=all", ZUsageSummaryResponse)).toEqual({
      period: "all",
      time_zone: "Asia/Shanghai",
      from_date: null,
      to_date: today,
      ...zeros,
    });
    const dash = await json("/api/v1/usage/dashboard?period=all", ZUsageDashboardResponse);
    expect(dash).toMatchObject({ ...zeros, recent_calls: [] });
    const daily = await json("/api/v1/usage/daily", ZUsageDailyResponse);
    expect(daily.days).toHaveLength(30);
    expect(daily.to_date).toBe(today);
    expect(daily.days.every((d) => d.calls === 0 && d.total_tokens === 0)).toBe(true);
  });

  it("§9: an unknown period, or a limit/days outside its range, is a 422 validation_error naming the parameter", async () => {
    const cases: [string, string][] = [
      ["/api/v1/usage/summary?period=week", "period"],
      ["/api/v1/usage/summary?period=", "period"],
      ["/api/v1/usage/summary?period=MONTH", "period"],
      ["/api/v1/usage/summary?period=today&period=all", "period"],
      ["/api/v1/usage/dashboard?period=year", "period"],
      ["/api/v1/usage/dashboard?limit=0", "limit"],
      ["/api/v1/usage/dashboard?limit=201", "limit"],
      ["/api/v1/usage/dashboard?limit=abc", "limit"],
      ["/api/v1/usage/dashboard?limit=2.5", "limit"],
      ["/api/v1/usage/daily?days=0", "days"],
      ["/api/v1/usage/daily?days=367", "days"],
    ];
    for (const [url, param] of cases) {
      const res = await get(url);
      expect(res.status, url).toBe(422);
      const body = ZValidationErrorResponse.parse(await res.json());
      expect(body.detail[0]!.loc, url).toEqual(["query", param]);
    }
    // The bounds themselves are accepted.
    for (const url of [
      "/api/v1/usage/dashboard?limit=1",
      "/api/v1/usage/dashboard?limit=200",
      "/api/v1/usage/daily?days=1",
      "/api/v1/usage/daily?days=366",
    ]) {
      expect((await get(url)).status, url).toBe(200);
    }
  });

  it("periods follow the Shanghai calendar: the numbers equal the recorded calls of each window, edges included", async () => {
    const nowMs = Date.now();
    const todayStart = shStart(shDay(nowMs));
    const monthStart = shMonthStart(nowMs);
    const row = (at: number, model: string, prompt: number, completion: number, extra: Partial<Row> = {}): Row => ({
      at,
      model,
      prompt,
      completion,
      callType: "analysis",
      stockCode: "600519",
      success: true,
      ...extra,
    });
    await seed([
      row(todayStart, "deepseek-chat", 1000, 200), // exactly local 00:00 today: today
      row(todayStart - 1, "deepseek-chat", 700, 100), // 23:59:59.999 yesterday: not today
      row(Math.min(nowMs - 1000, todayStart + 9 * H), "gpt-4o-mini", 3000, 600, { callType: "agent", stockCode: null }),
      row(Math.min(nowMs - 2000, todayStart + 8 * H), "deepseek-chat", 0, 0, { success: false }),
      row(monthStart, "qwen-plus", 400, 50, { callType: "market_review", stockCode: null }), // local 00:00 on the 1st
      row(monthStart + 7.5 * H, "qwen-plus", 500, 60), // 23:30 UTC on the last day of the previous month: this month
      row(monthStart - 1, "qwen-plus", 900, 90), // last instant of the previous month
      row(monthStart - 20 * 24 * H, "deepseek-chat", 5000, 1000), // long ago: only in all
    ]);

    const windows = {
      today: inWindow(todayStart, todayStart + 24 * H),
      month: inWindow(monthStart, shNextMonthStart(nowMs)),
      all: seeded,
    };
    // Sanity of the fixture itself: the edges fall where they should.
    expect(windows.today.map((r) => r.at)).toContain(todayStart);
    expect(windows.today.map((r) => r.at)).not.toContain(todayStart - 1);
    expect(windows.month.map((r) => r.at)).toEqual(expect.arrayContaining([monthStart, monthStart + 7.5 * H]));
    expect(windows.month.map((r) => r.at)).not.toContain(monthStart - 1);

    for (const period of ["today", "month", "all"] as const) {
      const body = await json(`/api/v1/usage/summary?period=${period}`, ZUsageSummaryResponse);
      expect(body, period).toEqual({
        period,
        time_zone: "Asia/Shanghai",
        from_date:
          period === "today"
            ? shDay(todayStart)
            : period === "month"
              ? shDay(monthStart)
              : shDay(Math.min(...seeded.map((r) => r.at))),
        to_date: shDay(nowMs),
        ...expected(windows[period]),
      });
    }
    const month = await json("/api/v1/usage/summary?period=month", ZUsageSummaryResponse);
    expect(month.by_model.find((m) => m.model === "gpt-4o-mini")).toMatchObject({
      calls: 1,
      total_tokens: 3600,
      max_total_tokens: 3600,
    });
  });

  it("dashboard: the summary plus the period's recent calls, newest first, limited (default 50)", async () => {
    const nowMs = Date.now();
    // 55 more calls this month, one minute apart, ending a minute ago.
    const batch: Row[] = Array.from({ length: 55 }, (_, i) => ({
      at: nowMs - 60_000 * (55 - i),
      callType: "analysis",
      model: `bulk-${i % 3}`,
      stockCode: `00${700 + i}`,
      prompt: 100 + i,
      completion: 10,
      success: true,
    }));
    await seed(batch);
    const monthRows = inWindow(shMonthStart(nowMs), shNextMonthStart(nowMs));

    const dash = await json("/api/v1/usage/dashboard", ZUsageDashboardResponse);
    expect(dash.period).toBe("month");
    expect(dash).toMatchObject(expected(monthRows));
    expect(dash.recent_calls).toHaveLength(50);
    const times = dash.recent_calls.map((c) => Date.parse(c.called_at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    const newest = [...monthRows].sort((a, b) => b.at - a.at)[0]!;
    expect(dash.recent_calls[0]).toMatchObject({
      called_at: new Date(newest.at).toISOString(),
      model: newest.model,
      stock_code: newest.stockCode,
      prompt_tokens: newest.prompt,
      completion_tokens: newest.completion,
      total_tokens: newest.prompt + newest.completion,
      call_type: newest.callType,
      success: true,
    });

    const two = await json("/api/v1/usage/dashboard?period=all&limit=2", ZUsageDashboardResponse);
    expect(two.recent_calls.map((c) => c.called_at)).toEqual(dash.recent_calls.slice(0, 2).map((c) => c.called_at));
    expect(two.total_calls).toBe(seeded.length);
    const failed = (
      await json("/api/v1/usage/dashboard?period=all&limit=200", ZUsageDashboardResponse)
    ).recent_calls.filter((c) => !c.success);
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ total_tokens: 0, model: "deepseek-chat" });
  });

  it("daily: tokens per Shanghai day for the last 30 days, zero-filled, equal to the recorded calls", async () => {
    const nowMs = Date.now();
    const body = await json("/api/v1/usage/daily", ZUsageDailyResponse);
    expect(body.days).toHaveLength(30);
    expect(body.to_date).toBe(shDay(nowMs));
    for (const d of body.days) {
      const { total_calls, total_prompt_tokens, total_completion_tokens, total_tokens } = expected(
        inWindow(shStart(d.date), shStart(d.date) + 24 * H),
      );
      expect(d, d.date).toEqual({
        date: d.date,
        calls: total_calls,
        prompt_tokens: total_prompt_tokens,
        completion_tokens: total_completion_tokens,
        total_tokens,
      });
    }
    expect(body.days.reduce((s, d) => s + d.total_tokens, 0)).toBeGreaterThan(0);
  });

  it("SERVICE_TIMEZONE moves the calendar: in UTC the previous month's last-evening call leaves this month", async () => {
    const nowMs = Date.now();
    // The live configuration: the env file on SQLite, the config document on PostgreSQL.
    await writeLiveConfig(server, "SERVICE_TIMEZONE=UTC\n");
    try {
      await expect
        .poll(async () => (await json("/api/v1/usage/summary", ZUsageSummaryResponse)).time_zone, { timeout: 5000 })
        .toBe("UTC");
      const d = new Date(nowMs);
      const utcMonthStart = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
      const utcNext = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
      const body = await json("/api/v1/usage/summary?period=month", ZUsageSummaryResponse);
      expect(body).toMatchObject({
        from_date: new Date(utcMonthStart).toISOString().slice(0, 10),
        to_date: d.toISOString().slice(0, 10),
        ...expected(inWindow(utcMonthStart, utcNext)),
      });
    } finally {
      await writeLiveConfig(server, "");
    }
    await expect
      .poll(async () => (await json("/api/v1/usage/summary", ZUsageSummaryResponse)).time_zone, { timeout: 5000 })
      .toBe("Asia/Shanghai");
  });
});
