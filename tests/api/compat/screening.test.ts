import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../setup/api-server";
import { expectKeys, loginCookie, referenceClient, type Call, type Wire } from "./reference-client";

// CONTRACT §14.1 as the reference's newer client walks its screening page, on the wire (admin auth on, its session
// cookie and Origin, sample data): the sidebar's status, the strategies, the hot sectors, a queued run followed to
// its result, then the history and one run of it. Each answer has the fields the client reads.

let server: TestServer;
let call: Call;

beforeAll(async () => {
  server = await startTestServer({ ADMIN_AUTH_ENABLED: "true", MARKET_DATA_SOURCES: "sample" });
  call = referenceClient(server.baseUrl, await loginCookie(server.baseUrl));
});
afterAll(async () => {
  await server?.stop();
});

async function ok(method: string, path: string, body?: unknown, status = 200): Promise<Wire> {
  const res = await call(method, path, body);
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  return res.body;
}

describe("the reference client's screening page against DSA", () => {
  it("status, strategies and hotspots, a queued run to its result, the history and the run", async () => {
    const status = await ok("GET", "/api/v1/screening/status");
    expectKeys(status, ["enabled", "available", "engine", "contract_version", "strategy_count", "diagnostics"]);
    expect(status).toMatchObject({ enabled: true, available: true });

    const strategies = await ok("GET", "/api/v1/screening/strategies");
    expect(strategies.enabled).toBe(true);
    expect(strategies.strategy_count).toBe(strategies.strategies.length);
    for (const s of strategies.strategies)
      expectKeys(s, ["id", "name", "title", "description", "category", "tags", "market_scope", "market"]);

    const hot = await ok("GET", "/api/v1/screening/hotspots?top=10");
    expectKeys(hot, ["enabled", "provider_used", "stale", "message", "source_errors", "hotspots", "hotspot_count"]);
    expect(hot.hotspots).toEqual([]);
    expect(hot.source_errors).toEqual(["sample: the sample catalogue has no sectors"]);

    const strategy = strategies.strategies[0].id as string;
    const queued = await ok(
      "POST",
      "/api/v1/screening/screen/tasks",
      { market: "cn", strategy, max_results: 20, variant_seed: "3f2504e0-4f89-11d3-9a0c-0305e82c3301" },
      202,
    );
    expectKeys(queued, ["task_id", "trace_id", "status", "message", "strategy", "market", "max_results"]);
    let task: Wire;
    const deadline = Date.now() + 30_000;
    do {
      expect(Date.now()).toBeLessThan(deadline);
      await new Promise((r) => setTimeout(r, 100));
      task = await ok("GET", `/api/v1/screening/screen/tasks/${queued.task_id}`);
      expectKeys(task, ["task_id", "status", "progress", "message"]);
    } while (task.status !== "completed" && task.status !== "failed");
    expect(task.status).toBe("completed");
    expectKeys(task.result, [
      "candidates",
      "candidate_count",
      "run_id",
      "snapshot_count",
      "after_filter_count",
      "ranking_mode",
      "warnings",
      "source_errors",
      "quality_status",
      "llm_ranked",
      "snapshot_fallback_used",
    ]);
    expect(task.result).toMatchObject({ run_id: queued.task_id, strategy, market: "cn", snapshot_source: "sample" });
    expect(task.result.snapshot_count).toBeGreaterThan(0);

    const history = await ok("GET", "/api/v1/screening/history?limit=20");
    expect(history.runs.map((r: Wire) => r.run_id)).toContain(queued.task_id);
    for (const run of history.runs)
      expectKeys(run, ["run_id", "strategy", "market", "snapshot_count", "candidate_count", "created_at"]);
    const one = await ok("GET", `/api/v1/screening/history/${queued.task_id}`);
    expect(one).toMatchObject({ enabled: true, run_id: queued.task_id, result: { run_id: queued.task_id } });
  });
});
