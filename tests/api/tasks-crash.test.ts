import { afterAll, describe, expect, it } from "vitest";
import { ZBatchTaskAcceptedResponse, ZTaskListResponse, ZTaskStatus } from "@/lib/tasks/schemas";
import { startTestServer, type TestServer } from "../setup/api-server";
import { openServerDatabase } from "../setup/server-database";

// Both databases: the queue's claims and its recovery after kill -9 are SQL of each dialect.
// "done when": accepted tasks survive a crash. 30 analyses and a screening run are queued with slow sample data,
// the whole server process tree is killed with SIGKILL mid-run, and a new server on the same database finishes
// every one of them exactly once (30 history rows, one screening run).

const CODES = [
  "600519",
  "000001",
  "300750",
  "601318",
  "000858",
  "601398",
  "600900",
  "00700",
  "09988",
  "00005",
  "01299",
  "AAPL",
  "TSLA",
  "NVDA",
  "MSFT",
  "GOOGL",
  "AMZN",
  "sh000001",
  "sz399001",
  "sh000300",
  "sh000905",
  "sh000852",
  "sz399006",
  "sh000688",
  "sh000016",
  "HSI",
  "HSTECH",
  "HSCEI",
  "SPX",
  "IXIC",
];
const ENV = {
  MARKET_DATA_SOURCES: "sample",
  SAMPLE_LATENCY_MS: "300",
  MAX_WORKERS: "3",
  TASK_MARKET_RATE_PER_MINUTE: "6000",
};

let server: TestServer | undefined;
afterAll(() => server?.stop());

async function json(url: string): Promise<unknown> {
  const res = await fetch(url);
  return res.json();
}

describe("crash recovery", () => {
  it("30 tasks, kill -9 mid-run, restart: all 30 complete with 30 history rows, none duplicated", async () => {
    server = await startTestServer(ENV);
    const res = await fetch(`${server.baseUrl}/api/v1/analysis/analyze`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ stock_codes: CODES, async_mode: true }),
    });
    expect(res.status).toBe(202);
    const batch = ZBatchTaskAcceptedResponse.parse(await res.json());
    expect(batch.rejected ?? []).toEqual([]);
    expect(batch.accepted).toHaveLength(30);
    const ids = batch.accepted.map((a) => a.task_id);
    // A screening run queued behind them: it too must survive the crash and store its run once.
    const queued = await fetch(`${server.baseUrl}/api/v1/screening/screen/tasks`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ market: "cn", strategy: "trend_pullback" }),
    });
    expect(queued.status).toBe(202);
    const screeningId = ((await queued.json()) as { task_id: string }).task_id;

    // Let some finish and some be in flight, then pull the plug.
    let list = ZTaskListResponse.parse(await json(`${server.baseUrl}/api/v1/analysis/tasks?limit=100`));
    while (list.tasks.filter((t) => t.status === "completed").length < 3) {
      await new Promise((r) => setTimeout(r, 50));
      list = ZTaskListResponse.parse(await json(`${server.baseUrl}/api/v1/analysis/tasks?limit=100`));
    }
    await server.kill();
    const { dataDir } = server;
    // The killed server's database (a restart on the same data folder finds the same one, on either database).
    const db = await openServerDatabase(server);
    const atCrash = await db.all<{ status: string; n: number }>(
      "SELECT status, count(*) AS n FROM analysis_task GROUP BY status",
    );
    await db.close();
    const byStatus = Object.fromEntries(atCrash.map((r) => [r.status, r.n]));
    expect(byStatus.completed ?? 0).toBeLessThan(31);
    expect((byStatus.pending ?? 0) + (byStatus.processing ?? 0)).toBeGreaterThan(0);

    server = await startTestServer(ENV, { dataDir });
    const deadline = Date.now() + 120_000;
    for (const id of ids) {
      for (;;) {
        const status = ZTaskStatus.parse(await json(`${server.baseUrl}/api/v1/analysis/status/${id}`));
        if (status.status === "completed") break;
        expect(status.status, status.error).not.toBe("failed");
        expect(Date.now()).toBeLessThan(deadline);
        await new Promise((r) => setTimeout(r, 100));
      }
    }

    for (;;) {
      const status = (await json(`${server.baseUrl}/api/v1/screening/screen/tasks/${screeningId}`)) as {
        status: string;
        error: string | null;
      };
      if (status.status === "completed") break;
      expect(status.status, status.error ?? "").not.toBe("failed");
      expect(Date.now()).toBeLessThan(deadline);
      await new Promise((r) => setTimeout(r, 100));
    }

    const after = await openServerDatabase(server);
    const runs = await after.all<{ run_id: string }>("SELECT run_id FROM screening_run");
    expect(runs).toEqual([{ run_id: screeningId }]);
    const rows = await after.all<{ query_id: string }>("SELECT query_id FROM analysis_history");
    const tasks = await after.all<{ id: string; status: string; attempts: number }>(
      "SELECT id, status, attempts FROM analysis_task",
    );
    await after.close();
    expect(rows).toHaveLength(30);
    expect(new Set(rows.map((r) => r.query_id))).toEqual(new Set(ids));
    expect(tasks).toHaveLength(31);
    expect(tasks.every((t) => t.status === "completed")).toBe(true);
    // The tasks that were running at the crash were taken up again by the new process.
    expect(tasks.filter((t) => t.attempts > 1).length).toBe(byStatus.processing ?? 0);
  }, 180_000);
});
