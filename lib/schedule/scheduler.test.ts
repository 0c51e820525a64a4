import { afterEach, describe, expect, it } from "vitest";
import { setClock } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { withTempDatabase } from "@/tests/kits/db/temp-database";
import { claimSlot, STALE_RUN_MS } from "./run-store";
import { runNow } from "./run-watchlist";
import { runDueWork } from "./scheduler";
import { schedulerStatus } from "./status";

// Daily schedule against a real migrated database with a pinned clock. Only the queueing is under test here (no
// worker runs): what each run put in analysis_task, and which slot rows exist.

const BASE = {
  MARKET_DATA_SOURCES: "sample",
  SERVICE_TIMEZONE: "Asia/Shanghai",
  SCHEDULE_ENABLED: "true",
  SCHEDULE_TIME: "18:00",
  STOCK_LIST: "600519, hk00700\nAAPL,sh600519,abc123,000001.SH",
};
const temp = withTempDatabase("schedule", BASE);

// Monday 2026-11-23 18:00 in Shanghai = 10:00 UTC; Saturday 2026-11-28 18:00 = 10:00 UTC.
const MONDAY_SLOT = Date.parse("2026-11-23T10:00:00Z");
const SATURDAY_SLOT = Date.parse("2026-11-28T10:00:00Z");

function at(ms: number): Date {
  setClock(() => new Date(ms));
  return new Date(ms);
}

async function clearAll(): Promise<void> {
  await db().analysisTask.deleteMany({});
  await db().scheduledRun.deleteMany({});
}

afterEach(async () => {
  temp.useSettings(BASE);
  await clearAll();
});

describe("daily schedule", () => {
  it("runs nothing before the slot, then queues the watchlist and the review once for the slot", async () => {
    expect(await runDueWork(at(MONDAY_SLOT - 60_000))).toEqual([]);
    // Yesterday's slot (Sunday 18:00) is far outside the catch-up window here.
    temp.useSettings({ ...BASE, SCHEDULE_CATCH_UP_MINUTES: "10" });
    expect(await runDueWork(at(MONDAY_SLOT - 60_000))).toEqual([]);

    const [run] = await runDueWork(at(MONDAY_SLOT + 5_000));
    expect(run).toMatchObject({ trigger: "schedule", slot: "2026-11-23 18:00", status: "completed", error: null });
    expect(run!.accepted.map((a) => a.stock_code)).toEqual(["600519", "00700", "AAPL", "sh000001"]);
    expect(run!.rejected).toEqual([{ stock_code: "abc123", message: expect.any(String) }]);
    expect(run!.skipped).toEqual([]);
    expect(run!.market_review).toMatchObject({ outcome: "accepted", region: "cn" });
    expect(run!.message).toBe("4 queued, 1 rejected; market review queued");

    const tasks = await db().analysisTask.findMany({ orderBy: { createdAt: "asc" } });
    expect(tasks.map((t) => t.stockCode)).toEqual(["600519", "00700", "AAPL", "sh000001", "market_review"]);
    expect(tasks.every((t) => t.status === "pending")).toBe(true);
    const request = JSON.parse(tasks[0]!.request) as { notify: boolean; reportType: string };
    expect(request).toMatchObject({ notify: false, reportType: "simple" });

    // Later looks within the window find the slot taken.
    expect(await runDueWork(at(MONDAY_SLOT + 60_000))).toEqual([]);
    expect(await db().scheduledRun.count()).toBe(1);
  });

  it("catches a missed slot up within the window only", async () => {
    temp.useSettings({ ...BASE, SCHEDULE_CATCH_UP_MINUTES: "30" });
    expect(await runDueWork(at(MONDAY_SLOT + 31 * 60_000))).toEqual([]);
    const [late] = await runDueWork(at(MONDAY_SLOT + 29 * 60_000));
    expect(late?.slot).toBe("2026-11-23 18:00");
  });

  it("does nothing while disabled or with a malformed time, and says why", async () => {
    temp.useSettings({ ...BASE, SCHEDULE_ENABLED: "false" });
    expect(await runDueWork(at(MONDAY_SLOT))).toEqual([]);
    let status = await schedulerStatus(10);
    expect(status).toMatchObject({ enabled: false, problem: null, next_run_at: null });

    temp.useSettings({ ...BASE, SCHEDULE_TIME: "25:00" });
    expect(await runDueWork(at(MONDAY_SLOT))).toEqual([]);
    status = await schedulerStatus(10);
    expect(status.enabled).toBe(false);
    expect(status.problem).toContain("25:00");
    expect(await db().scheduledRun.count()).toBe(0);
  });

  it("reports the next slot in the service time zone", async () => {
    at(MONDAY_SLOT - 60_000);
    const status = await schedulerStatus(10);
    expect(status).toMatchObject({
      enabled: true,
      time_zone: "Asia/Shanghai",
      schedule_time: "18:00",
      stock_list: BASE.STOCK_LIST.split(/[,\s]+/),
    });
    expect(status.next_run_at).toBe("2026-11-23T10:00:00.000Z");
  });

  it("skips markets on their weekend and the review when its markets are closed", async () => {
    // Saturday 18:00 in Shanghai is Saturday 05:00 in New York: every market is closed.
    const [run] = await runDueWork(at(SATURDAY_SLOT));
    expect(run!.accepted).toEqual([]);
    expect(run!.skipped.map((s) => `${s.stock_code}:${s.market}`)).toEqual([
      "600519:cn",
      "00700:hk",
      "AAPL:us",
      "sh000001:cn",
    ]);
    expect(run!.market_review.outcome).toBe("skipped");
    expect(await db().analysisTask.count()).toBe(0);

    // Monday 07:00 in Shanghai is still Sunday in New York: only AAPL waits.
    await clearAll();
    temp.useSettings({ ...BASE, SCHEDULE_TIME: "07:00" });
    const [monday] = await runDueWork(at(Date.parse("2026-11-22T23:00:00Z")));
    expect(monday!.skipped.map((s) => s.stock_code)).toEqual(["AAPL"]);
    expect(monday!.accepted).toHaveLength(3);

    // On Thanksgiving (Thursday 2026-11-26) only NYSE is closed: AAPL waits, the rest runs.
    await clearAll();
    temp.useSettings({ ...BASE, SCHEDULE_TIME: "23:30" });
    const [thanksgiving] = await runDueWork(at(Date.parse("2026-11-26T15:30:00Z")));
    expect(thanksgiving!.skipped.map((s) => `${s.stock_code}:${s.reason}`)).toEqual([
      "AAPL:market closed on 2026-11-26 (weekend or exchange holiday)",
    ]);
    expect(thanksgiving!.accepted).toHaveLength(3);

    await clearAll();
    temp.useSettings({ ...BASE, TRADING_DAY_CHECK_ENABLED: "false" });
    const [unchecked] = await runDueWork(at(SATURDAY_SLOT));
    expect(unchecked!.accepted).toHaveLength(4);
    expect(unchecked!.market_review.outcome).toBe("accepted");
  });

  it("run-now reports stocks still queued as duplicates and the review as running, without taking the slot", async () => {
    at(MONDAY_SLOT - 3600_000);
    const first = await runNow();
    expect(first).toMatchObject({ trigger: "manual", slot: null, status: "completed" });
    expect(first.accepted).toHaveLength(4);
    const second = await runNow();
    expect(second.accepted).toEqual([]);
    expect(second.duplicates.map((d) => d.existing_task_id)).toEqual(first.accepted.map((a) => a.task_id));
    expect(second.market_review).toMatchObject({ outcome: "duplicate", task_id: first.market_review.task_id });
    expect(second.message).toBe("0 queued, 4 already running, 1 rejected; market review duplicate");
    expect(await db().analysisTask.count()).toBe(5);

    // The day's slot is still free.
    const [slot] = await runDueWork(at(MONDAY_SLOT));
    expect(slot?.slot).toBe("2026-11-23 18:00");
    const status = await schedulerStatus(2);
    expect(status.recent_runs.map((r) => r.trigger)).toEqual(["schedule", "manual"]);
  });

  it("an empty watchlist with the review off is recorded, not an error", async () => {
    temp.useSettings({ ...BASE, STOCK_LIST: "", MARKET_REVIEW_ENABLED: "false" });
    const run = await runNow();
    expect(run).toMatchObject({ status: "completed", accepted: [], market_review: { outcome: "disabled" } });
    expect(run.message).toBe("STOCK_LIST is empty; 0 queued; market review disabled");
  });

  it("a run left running by a dead process is resumed once, by one caller", async () => {
    at(MONDAY_SLOT);
    const orphan = await claimSlot("2026-11-23 18:00", "schedule");
    expect(orphan).not.toBeNull();
    expect(await claimSlot("2026-11-23 18:00", "schedule")).toBeNull();
    // Not stale yet: left alone.
    expect(await runDueWork(at(MONDAY_SLOT + 60_000))).toEqual([]);
    const resumed = await runDueWork(at(MONDAY_SLOT + STALE_RUN_MS + 1000));
    expect(resumed.map((r) => r.slot)).toEqual(["2026-11-23 18:00"]);
    expect(resumed[0]!.accepted).toHaveLength(4);
    expect(await runDueWork(at(MONDAY_SLOT + STALE_RUN_MS + 2000))).toEqual([]);
    expect(await db().analysisTask.count()).toBe(5);
  });
});
