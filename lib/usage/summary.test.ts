import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { setClock } from "@/lib/clock";
import { setEnvironmentForTests } from "@/lib/settings/settings";
import { db, disconnectDb } from "@/lib/db/client";
import { logger } from "@/lib/log/logger";
import { buildOpenApiDocument } from "@/lib/openapi/document";
import { USAGE_OPERATIONS } from "./operations";
import { recordLlmUsage } from "./record-usage";
import { ZUsageDailyResponse, ZUsageDashboardResponse, ZUsageSummaryResponse } from "./schemas";
import { usageDaily, usageDashboard, usageSummary } from "./summary";
import { freshDatabaseUrl } from "@/tests/kits/db/temp-database";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dsa-usage-summary-"));
const file = path.join(dir, "test.db");
let databaseUrl = "";
const envFile = path.join(dir, ".env");

function useZone(zone: string | null): void {
  fs.writeFileSync(envFile, zone === null ? "" : `SERVICE_TIMEZONE=${zone}\n`);
  setEnvironmentForTests({ ENV_FILE: envFile, DATABASE_URL: databaseUrl });
}

beforeAll(async () => {
  databaseUrl = await freshDatabaseUrl(file);
  useZone(null);
});

afterAll(async () => {
  await disconnectDb();
  setEnvironmentForTests(process.env);
  setClock(null);
  vi.restoreAllMocks();
  fs.rmSync(dir, { recursive: true, force: true });
});

beforeEach(async () => {
  useZone(null);
  await db().llmUsage.deleteMany();
});

const call = (at: string, model: string, total: number, extra: Partial<Parameters<typeof recordLlmUsage>[0]> = {}) =>
  recordLlmUsage({
    callType: "analysis",
    model,
    promptTokens: total - Math.floor(total / 4),
    completionTokens: Math.floor(total / 4),
    durationMs: 10,
    success: true,
    calledAt: new Date(at),
    ...extra,
  });

describe("usage aggregation (spec 4.6, docs/api.md §6)", () => {
  it("an empty database gives zeros, empty breakdowns and a null from_date for all", async () => {
    setClock(() => new Date("2026-11-22T04:00:00Z"));
    for (const period of ["today", "month", "all"] as const) {
      const body = ZUsageSummaryResponse.parse(await usageSummary(period));
      expect(body).toMatchObject({
        period,
        time_zone: "Asia/Shanghai",
        total_calls: 0,
        total_prompt_tokens: 0,
        total_completion_tokens: 0,
        total_tokens: 0,
        by_call_type: [],
        by_model: [],
      });
    }
    expect((await usageSummary("all")).from_date).toBeNull();
    expect((await usageDashboard("month", 50)).recent_calls).toEqual([]);
  });

  it("Shanghai month boundary: 23:30 UTC on Oct 31 counts in November, 15:59 UTC does not", async () => {
    setClock(() => new Date("2026-11-15T04:00:00Z"));
    await call("2026-10-31T15:59:59.999Z", "m-a", 100); // 23:59:59.999 Oct 31 Shanghai
    await call("2026-10-31T16:00:00.000Z", "m-a", 200); // 00:00 Nov 1 Shanghai
    await call("2026-10-31T23:30:00.000Z", "m-b", 400);
    await call("2026-11-14T15:59:59.999Z", "m-b", 800); // Nov 14, the day before today
    await call("2026-11-14T16:00:00.000Z", "m-a", 1600, { callType: "market_review", stockCode: null }); // today 00:00
    await call("2026-11-15T15:59:59.999Z", "m-a", 3200); // today 23:59:59.999 (the clock's day)
    await call("2026-11-15T16:00:00.000Z", "m-a", 6400); // tomorrow 00:00: not today, still this month

    const month = await usageSummary("month");
    expect(month).toMatchObject({
      from_date: "2026-11-01",
      to_date: "2026-11-15",
      total_calls: 6,
      total_tokens: 200 + 400 + 800 + 1600 + 3200 + 6400,
    });
    const today = await usageSummary("today");
    expect(today).toMatchObject({ from_date: "2026-11-15", to_date: "2026-11-15", total_calls: 2, total_tokens: 4800 });
    const all = await usageSummary("all");
    expect(all).toMatchObject({ from_date: "2026-10-31", total_calls: 7, total_tokens: 12700 });

    // In UTC the same rows split differently: Oct 31 23:30 stays in October.
    useZone("UTC");
    expect(await usageSummary("month")).toMatchObject({
      time_zone: "UTC",
      from_date: "2026-11-01",
      total_calls: 4,
      total_tokens: 800 + 1600 + 3200 + 6400,
    });
  });

  it("breakdowns: by call type and by model with max_total_tokens, largest first; totals add up", async () => {
    setClock(() => new Date("2026-11-22T04:00:00Z"));
    await call("2026-11-20T01:00:00Z", "deepseek-chat", 1500);
    await call("2026-11-20T02:00:00Z", "deepseek-chat", 900);
    await call("2026-11-21T02:00:00Z", "gpt-4o-mini", 3000, { callType: "agent" });
    await call("2026-11-21T03:00:00Z", "gpt-4o-mini", 0, { success: false, promptTokens: 0, completionTokens: 0 });
    const body = await usageSummary("month");
    expect(body.by_model).toEqual([
      {
        model: "gpt-4o-mini",
        calls: 2,
        prompt_tokens: 2250,
        completion_tokens: 750,
        total_tokens: 3000,
        max_total_tokens: 3000,
      },
      {
        model: "deepseek-chat",
        calls: 2,
        prompt_tokens: 1125 + 675,
        completion_tokens: 375 + 225,
        total_tokens: 2400,
        max_total_tokens: 1500,
      },
    ]);
    expect(body.by_call_type).toEqual([
      { call_type: "agent", calls: 1, prompt_tokens: 2250, completion_tokens: 750, total_tokens: 3000 },
      { call_type: "analysis", calls: 3, prompt_tokens: 1800, completion_tokens: 600, total_tokens: 2400 },
    ]);
    expect(body).toMatchObject({
      total_calls: 4,
      total_prompt_tokens: 4050,
      total_completion_tokens: 1350,
      total_tokens: 5400,
    });
  });

  it("dashboard: recent calls of the period, newest first, at most limit", async () => {
    setClock(() => new Date("2026-11-22T04:00:00Z"));
    await call("2026-10-20T01:00:00Z", "old", 10);
    for (let i = 0; i < 5; i++) await call(`2026-11-1${i + 5}T01:00:00Z`, `m${i}`, 100 + i, { stockCode: `60051${i}` });
    const body = ZUsageDashboardResponse.parse(await usageDashboard("month", 3));
    expect(body.total_calls).toBe(5);
    expect(body.recent_calls.map((c) => [c.model, c.called_at, c.stock_code])).toEqual([
      ["m4", "2026-11-19T01:00:00.000Z", "600514"],
      ["m3", "2026-11-18T01:00:00.000Z", "600513"],
      ["m2", "2026-11-17T01:00:00.000Z", "600512"],
    ]);
    expect(body.recent_calls[0]).toMatchObject({
      call_type: "analysis",
      prompt_tokens: 78,
      completion_tokens: 26,
      total_tokens: 104,
      success: true,
      duration_ms: 10,
    });
    expect((await usageDashboard("all", 200)).recent_calls.at(-1)!.model).toBe("old");
  });

  it("daily: tokens per Shanghai day, zero-filled, folded from UTC buckets", async () => {
    setClock(() => new Date("2026-11-02T04:00:00Z"));
    await call("2026-10-31T15:59:00Z", "m", 100); // Oct 31 local
    await call("2026-10-31T16:00:00Z", "m", 200); // Nov 1 local
    await call("2026-10-31T23:30:00Z", "m", 400); // Nov 1 local
    await call("2026-11-02T03:00:00Z", "m", 800); // Nov 2 local
    await call("2026-10-28T12:00:00Z", "m", 5); // outside 3 days
    const body = ZUsageDailyResponse.parse(await usageDaily(3));
    expect(body).toEqual({
      time_zone: "Asia/Shanghai",
      from_date: "2026-10-31",
      to_date: "2026-11-02",
      days: [
        { date: "2026-10-31", calls: 1, prompt_tokens: 75, completion_tokens: 25, total_tokens: 100 },
        { date: "2026-11-01", calls: 2, prompt_tokens: 450, completion_tokens: 150, total_tokens: 600 },
        { date: "2026-11-02", calls: 1, prompt_tokens: 600, completion_tokens: 200, total_tokens: 800 },
      ],
    });
  });

  it("daily across a DST change (America/New_York, 2026-03-08 has 23 hours)", async () => {
    useZone("America/New_York");
    setClock(() => new Date("2026-03-09T16:00:00Z"));
    await call("2026-03-08T04:59:00Z", "m", 1); // Mar 7 23:59 EST
    await call("2026-03-08T05:00:00Z", "m", 2); // Mar 8 00:00 EST
    await call("2026-03-09T03:59:00Z", "m", 4); // Mar 8 23:59 EDT
    await call("2026-03-09T04:00:00Z", "m", 8); // Mar 9 00:00 EDT
    const days = (await usageDaily(3)).days.map((d) => [d.date, d.total_tokens]);
    expect(days).toEqual([
      ["2026-03-07", 1],
      ["2026-03-08", 6],
      ["2026-03-09", 8],
    ]);
  });

  it("an invalid SERVICE_TIMEZONE falls back to Asia/Shanghai and is logged", async () => {
    const warn = vi.spyOn(logger, "warn").mockImplementation(() => undefined);
    useZone("Mars/Olympus");
    setClock(() => new Date("2026-11-22T04:00:00Z"));
    expect((await usageSummary("today")).time_zone).toBe("Asia/Shanghai");
    expect(warn).toHaveBeenCalledWith(
      expect.objectContaining({ SERVICE_TIMEZONE: "Mars/Olympus" }),
      "invalid SERVICE_TIMEZONE, using the default",
    );
  });

  it("the operations document as OpenAPI with the named wire schemas", () => {
    const doc = buildOpenApiDocument(USAGE_OPERATIONS) as {
      paths: Record<string, unknown>;
      components: { schemas: Record<string, unknown> };
    };
    expect(Object.keys(doc.paths).sort()).toEqual([
      "/api/v1/usage/daily",
      "/api/v1/usage/dashboard",
      "/api/v1/usage/summary",
    ]);
    expect(Object.keys(doc.components.schemas)).toEqual(
      expect.arrayContaining([
        "UsageSummaryResponse",
        "UsageDashboardResponse",
        "UsageDailyResponse",
        "UsageModelBreakdown",
      ]),
    );
  });
});
