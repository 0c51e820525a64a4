import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { wallClock } from "@/lib/time/wall-clock";
import { startReceiver, type Receiver } from "@/tests/kits/notify-receiver";
import { ZScheduledRun, ZSchedulerStatus, type TSchedulerStatus } from "@/lib/schedule/schemas";
import { ZTaskStatus } from "@/lib/tasks/schemas";
import { startTestServer, type TestServer } from "../setup/api-server";

// Both databases: each slot runs once, across restarts, through a unique claim in the database.
// The daily schedule end to end: a server whose slot passed a minute ago catches it up at start, the queued
// analyses complete into history and their reports reach the webhook; a restart on the same database does not run
// the slot again; run-now queues again without using the slot.

let server: TestServer | undefined;
let receiver: Receiver;

function slotOneMinuteAgo(): string {
  const wall = wallClock(new Date(Date.now() - 60_000), "Asia/Shanghai");
  return `${String(wall.hour).padStart(2, "0")}:${String(wall.minute).padStart(2, "0")}`;
}

function env(slot: string): Record<string, string> {
  return {
    MARKET_DATA_SOURCES: "sample",
    SERVICE_TIMEZONE: "Asia/Shanghai",
    SCHEDULE_ENABLED: "true",
    SCHEDULE_TIME: slot,
    // The suite may run on a weekend.
    TRADING_DAY_CHECK_ENABLED: "false",
    STOCK_LIST: "600519,AAPL,zz9x",
    MARKET_REVIEW_REGION: "us",
    CUSTOM_WEBHOOK_URLS: `${receiver.baseUrl}/hook`,
    // The receiver listens on 127.0.0.1, which the outbound policy refuses by default.
    OUTBOUND_ALLOW_PRIVATE: "true",
    NOTIFICATION_RETRY_BASE_DELAY_MS: "10",
  };
}

async function status(): Promise<TSchedulerStatus> {
  const res = await fetch(`${server!.baseUrl}/api/v1/system/scheduler/status`);
  expect(res.status).toBe(200);
  return ZSchedulerStatus.parse(await res.json());
}

async function waitForCompletion(taskId: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const res = await fetch(`${server!.baseUrl}/api/v1/analysis/status/${taskId}`);
    const body = ZTaskStatus.parse(await res.json());
    if (body.status === "completed") return;
    expect(body.status).not.toBe("failed");
    if (Date.now() > deadline) throw new Error(`task ${taskId} did not complete`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(async () => {
  await server?.stop();
  await receiver?.close();
});

describe("daily schedule API", () => {
  it("catches up a just-missed slot at start, once; analyses land in history and notify; run-now queues again", async () => {
    const slot = slotOneMinuteAgo();
    server = await startTestServer(env(slot));

    let current = await status();
    const deadline = Date.now() + 20_000;
    // A run is listed from its start (status "running"); wait for it to end before reading its outcome.
    while (
      (current.recent_runs.length === 0 || current.recent_runs[0]!.status === "running") &&
      Date.now() < deadline
    ) {
      await new Promise((r) => setTimeout(r, 100));
      current = await status();
    }
    expect(current).toMatchObject({
      enabled: true,
      schedule_time: slot,
      time_zone: "Asia/Shanghai",
      problem: null,
      stock_list: ["600519", "AAPL", "zz9x"],
    });
    expect(Date.parse(current.next_run_at!)).toBeGreaterThan(Date.now() + 22 * 3600_000);
    expect(current.recent_runs).toHaveLength(1);
    const run = current.recent_runs[0]!;
    expect(run).toMatchObject({
      trigger: "schedule",
      status: "completed",
      skipped: [],
      market_review: { outcome: "accepted", region: "us" },
    });
    expect(run.slot).toMatch(new RegExp(` ${slot}$`));
    expect(run.accepted.map((a) => a.stock_code)).toEqual(["600519", "AAPL"]);
    expect(run.rejected.map((r) => r.stock_code)).toEqual(["zz9x"]);

    for (const id of [...run.accepted.map((a) => a.task_id), run.market_review.task_id!]) await waitForCompletion(id);
    const history = (await (await fetch(`${server.baseUrl}/api/v1/history?limit=10`)).json()) as {
      items: { id: number; query_id: string; stock_code: string }[];
    };
    expect(history.items.map((i) => i.query_id).sort()).toEqual(
      [...run.accepted.map((a) => a.task_id), run.market_review.task_id].sort(),
    );

    // One merged report for the watchlist (SINGLE_STOCK_NOTIFY off), plus the review's own message.
    const until = Date.now() + 20_000;
    while (receiver.requests.length < 2 && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    const hooks = receiver.requests.map(
      (r) => r.json as { title: string; content: string; related_kind: string | null; related_id: string | null },
    );
    expect(hooks.map((h) => h.related_kind).sort()).toEqual(["market_review", null]);
    const digest = hooks.find((h) => h.related_kind === null)!;
    expect(digest.title).toMatch(/ · 2 只$/);
    const idOf = (queryId: string) => history.items.find((i) => i.query_id === queryId)!;
    expect(digest.content).toContain(`/history/${idOf(run.accepted[0]!.task_id).id})`);
    expect(digest.content).toContain(`/history/${idOf(run.accepted[1]!.task_id).id})`);
    await expect.poll(async () => (await status()).recent_runs[0]!.digest, { timeout: 15_000 }).toBe("sent");

    // A restart within the catch-up window finds the slot taken.
    const { dataDir } = server;
    await server.stop();
    server = await startTestServer(env(slot), { dataDir });
    await new Promise((r) => setTimeout(r, 1500));
    expect((await status()).recent_runs.map((r) => r.id)).toEqual([run.id]);

    const res = await fetch(`${server.baseUrl}/api/v1/system/scheduler/run-now`, { method: "POST" });
    expect(res.status).toBe(202);
    const manual = ZScheduledRun.parse(await res.json());
    expect(manual).toMatchObject({ trigger: "manual", slot: null, status: "completed" });
    expect(manual.accepted.map((a) => a.stock_code)).toEqual(["600519", "AAPL"]);
    const after = await status();
    expect(after.recent_runs.map((r) => r.id)).toEqual([manual.id, run.id]);
    // Two server starts in the test itself, on a shared 2-core machine.
  }, 180_000);

  it("rejects a recent-runs limit outside 1-100 with 422", async () => {
    for (const limit of ["0", "101", "x"]) {
      const res = await fetch(`${server!.baseUrl}/api/v1/system/scheduler/status?limit=${limit}`);
      expect(res.status).toBe(422);
    }
  });
});
