import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RULE_ENGINE_VERSION } from "@/lib/analysis/engine/version";
import {
  ZBacktestAccepted,
  ZBacktestRun,
  ZCallsPage,
  ZRunsPage,
  ZSeriesResponse,
  type TBacktestRun,
} from "@/lib/backtest/schemas";
import { startTestServer, type TestServer } from "../setup/api-server";
import { readSse } from "./sse-client";

// docs/api.md §11 over HTTP on sample data: queue, progress on the task stream, the record, calls, list, delete,
// validation; and a run that survives kill -9 of the server.

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ MARKET_DATA_SOURCES: "sample", TASK_MARKET_RATE_PER_MINUTE: "6000" });
});
afterAll(() => server?.stop());

function call(method: string, path: string, body?: unknown, base = server.baseUrl) {
  return fetch(`${base}/api/v1/backtests${path}`, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

async function json(res: Response, status: number): Promise<unknown> {
  expect(res.status, await res.clone().text()).toBe(status);
  return res.json();
}

async function waitFinished(id: string, base = server.baseUrl, timeoutMs = 60_000): Promise<TBacktestRun> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const run = ZBacktestRun.parse(await json(await call("GET", `/${id}`, undefined, base), 200));
    if (run.status === "completed" || run.status === "failed") return run;
    if (Date.now() > deadline) throw new Error(`backtest ${id} still ${run.status}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("backtest API (docs/api.md §11)", () => {
  it("202, progress events on the task stream, then the completed record with its summary", async () => {
    const stream = await readSse(`${server.baseUrl}/api/v1/analysis/tasks/stream`);
    const progress: number[] = [];
    let accepted;
    try {
      expect((await stream.next()).event).toBe("connected");
      accepted = ZBacktestAccepted.parse(await json(await call("POST", "", { stock_code: "600519.SH", step: 1 }), 202));
      expect(accepted.status).toBe("pending");
      for (;;) {
        const event = await stream.next(30_000);
        const task = event.data as { task_id?: string; progress?: number; task_kind?: string } | null;
        if (task?.task_id !== accepted.backtest_id) continue;
        expect(task.task_kind).toBe("backtest");
        if (event.event === "task_progress") progress.push(task.progress!);
        if (event.event === "task_completed" || event.event === "task_failed") {
          expect(event.event).toBe("task_completed");
          break;
        }
      }
    } finally {
      stream.close();
    }
    expect(progress.length).toBeGreaterThan(3);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));

    const run = await waitFinished(accepted.backtest_id);
    expect(run).toMatchObject({
      backtest_id: accepted.backtest_id,
      stock_code: "600519",
      stock_name: "贵州茅台",
      status: "completed",
      progress: 100,
      engine_version: RULE_ENGINE_VERSION,
      data_source: "sample",
      horizons: [1, 3, 5, 10],
      step: 1,
      neutral_band_pct: 2,
    });
    expect(run.error).toBeUndefined();
    expect(run.completed_at).toEqual(expect.any(String));
    expect(run.calls_total).toBeGreaterThan(100);
    const summary = run.summary!;
    expect(summary.horizons.map((h) => h.horizon)).toEqual([1, 3, 5, 10]);
    for (const h of summary.horizons) {
      // Every known return is in `all`, and the actions partition it.
      expect(h.by_action.reduce((s, a) => s + a.count, 0)).toBe(h.all.count);
      expect(h.all.count).toBe(run.calls_total - h.horizon);
      const long = h.by_action.filter((a) => a.action === "buy" || a.action === "add");
      expect(h.long_side.count).toBe(long.reduce((s, a) => s + a.count, 0));
      const watch = h.by_action.find((a) => a.action === "watch");
      if (watch) expect(watch).toMatchObject({ hit: 0, miss: 0, neutral: 0, hit_rate_pct: null });
    }
    expect(summary.equity!.strategy_max_drawdown_pct).toBeLessThanOrEqual(0);

    // Calls: oldest first, paged; the equity of the series ends at the summary's figures.
    const first = ZCallsPage.parse(await json(await call("GET", `/${run.backtest_id}/calls?page=1&page_size=50`), 200));
    expect(first).toMatchObject({ total: run.calls_total, page: 1, page_size: 50 });
    expect(first.items).toHaveLength(50);
    expect(first.items[0]!.date).toBe(run.start_date);
    expect(first.items.map((c) => c.date)).toEqual([...first.items.map((c) => c.date)].sort());
    expect(first.items[0]!.outcomes.map((o) => o.horizon)).toEqual([1, 3, 5, 10]);
    const lastPage = Math.ceil(run.calls_total / 500);
    const tail = ZCallsPage.parse(
      await json(await call("GET", `/${run.backtest_id}/calls?page=${lastPage}&page_size=500`), 200),
    );
    const lastCall = tail.items.at(-1)!;
    expect(lastCall.date).toBe(run.end_date);
    expect(lastCall.outcomes.every((o) => o.return_pct === null && o.outcome === null)).toBe(true);

    const series = ZSeriesResponse.parse(await json(await call("GET", `/${run.backtest_id}/series`), 200));
    expect(series.items[0]).toMatchObject({ date: run.start_date, strategy_equity: 1, buy_hold_equity: 1 });
    expect(series.items.at(-1)!.date).toBe(run.end_date);
    expect((series.items.at(-1)!.buy_hold_equity - 1) * 100).toBeCloseTo(summary.equity!.buy_hold_return_pct, 9);
    expect((series.items.at(-1)!.strategy_equity - 1) * 100).toBeCloseTo(summary.equity!.strategy_return_pct, 9);
  }, 90_000);

  it("a report of a backtested stock carries the engine's record, not the backtest's pooled track record", async () => {
    const analyzed = await fetch(`${server.baseUrl}/api/v1/analysis/analyze`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ stock_code: "600519", report_language: "en", notify: false }),
    });
    const report = (await json(analyzed, 200)) as {
      report: {
        meta: { id: number; engine_version: string };
        details: { evidence: { statement: string; scopes: { scope: string }[] }; data_quality: { level: string } };
      };
    };
    expect(report.report.meta.engine_version).toBe(RULE_ENGINE_VERSION);
    const { evidence, data_quality: quality } = report.report.details;
    // Sample data: no stock record is computed from synthetic prices; the market's shipped evaluation stays.
    expect(evidence.statement).toMatch(/^Sample data are synthetic prices/);
    expect(evidence.scopes.map((s) => s.scope)).not.toContain("stock");
    expect(quality.level).toBe("degraded");
    const id = report.report.meta.id;
    const markdown = (
      (await json(await fetch(`${server.baseUrl}/api/v1/history/${id}/markdown`), 200)) as { content: string }
    ).content;
    expect(markdown).not.toContain("Track record");
    expect(markdown).toContain(`> **The engine's record**: ${evidence.statement}`);
    const html = await (await fetch(`${server.baseUrl}/api/v1/history/${id}/share-image-html`)).text();
    expect(html).toContain("Sample data are synthetic prices");
    expect(html).toContain("Data quality: degraded");
  });

  it("dates, step, horizons and band are honoured; list is newest first and filters by any code form", async () => {
    const body = {
      stock_code: "AAPL",
      start_date: "2026-03-02",
      end_date: "2026-06-30",
      horizons: [10, 2],
      step: 5,
      neutral_band_pct: 0.5,
    };
    const accepted = ZBacktestAccepted.parse(await json(await call("POST", "", body), 202));
    const run = await waitFinished(accepted.backtest_id);
    expect(run).toMatchObject({
      status: "completed",
      horizons: [2, 10],
      step: 5,
      neutral_band_pct: 0.5,
      stock_code: "AAPL",
    });
    expect(run.start_date! >= "2026-03-02").toBe(true);
    expect(run.end_date! <= "2026-06-30").toBe(true);
    const calls = ZCallsPage.parse(await json(await call("GET", `/${run.backtest_id}/calls?page_size=500`), 200));
    expect(calls.total).toBe(run.calls_total);
    expect(calls.items.length).toBeGreaterThan(10);
    // A call every 5th trading day: 4 weekdays between two calls (the sample calendar has no holidays).
    const gaps = calls.items
      .slice(1)
      .map((c, i) => (Date.parse(c.date) - Date.parse(calls.items[i]!.date)) / 86_400_000);
    expect(gaps.every((g) => g === 7)).toBe(true);

    const list = ZRunsPage.parse(await json(await call("GET", "?stock_code=aapl&page_size=5"), 200));
    expect(list.items[0]).toMatchObject({ backtest_id: run.backtest_id, stock_code: "AAPL" });
    expect(list.items.every((i) => i.stock_code === "AAPL")).toBe(true);
    expect(list.items[0]).not.toHaveProperty("summary");
    const all = ZRunsPage.parse(await json(await call("GET", ""), 200));
    expect(all.total).toBeGreaterThanOrEqual(2);
    expect(all.items.map((i) => i.created_at)).toEqual([...all.items.map((i) => i.created_at)].sort().reverse());
    const moutai = ZRunsPage.parse(await json(await call("GET", "?stock_code=sh600519"), 200));
    expect(moutai.items.every((i) => i.stock_code === "600519")).toBe(true);
    expect(moutai.total).toBeGreaterThanOrEqual(1);
  });

  it("delete removes the run and its calls; unknown ids are 404 not_found", async () => {
    const accepted = ZBacktestAccepted.parse(
      await json(await call("POST", "", { stock_code: "00700", step: 10 }), 202),
    );
    await waitFinished(accepted.backtest_id);
    expect(await json(await call("DELETE", `/${accepted.backtest_id}`), 200)).toEqual({ deleted: 1 });
    for (const path of [
      `/${accepted.backtest_id}`,
      `/${accepted.backtest_id}/calls`,
      `/${accepted.backtest_id}/series`,
    ]) {
      expect(await json(await call("GET", path), 404)).toMatchObject({ error: "not_found" });
    }
    expect(await json(await call("DELETE", `/${accepted.backtest_id}`), 404)).toMatchObject({ error: "not_found" });
  });

  it("validation: 422 for malformed fields, 400 validation_error for a target that does not resolve", async () => {
    for (const body of [
      {},
      { stock_code: "600519", horizons: [5, 5] },
      { stock_code: "600519", horizons: [61] },
      { stock_code: "600519", horizons: [0] },
      { stock_code: "600519", horizons: [] },
      { stock_code: "600519", step: 0 },
      { stock_code: "600519", step: 1.5 },
      { stock_code: "600519", neutral_band_pct: 21 },
      { stock_code: "600519", neutral_band_pct: -1 },
      { stock_code: "600519", start_date: "2026-02-30" },
      { stock_code: "600519", start_date: "2026-05-01", end_date: "2026-04-01" },
    ]) {
      const error = (await json(await call("POST", "", body), 422)) as { error: string; detail: unknown[] };
      expect(error.error, JSON.stringify(body)).toBe("validation_error");
      expect(error.detail.length).toBeGreaterThan(0);
    }
    expect(await json(await call("POST", "", { stock_code: "no such stock xyz" }), 400)).toMatchObject({
      error: "validation_error",
    });
    expect(await json(await call("GET", "/x/calls?page_size=501"), 422)).toMatchObject({ error: "validation_error" });
  });
});

describe("a backtest survives kill -9 of the server", () => {
  let crashed: TestServer | undefined;
  afterAll(() => crashed?.stop());

  it("running when the process dies, completed once after the restart", async () => {
    crashed = await startTestServer({ MARKET_DATA_SOURCES: "sample", SAMPLE_LATENCY_MS: "4000" });
    const accepted = ZBacktestAccepted.parse(
      await json(await call("POST", "", { stock_code: "MSFT" }, crashed.baseUrl), 202),
    );
    const deadline = Date.now() + 20_000;
    for (;;) {
      const run = ZBacktestRun.parse(
        await json(await call("GET", `/${accepted.backtest_id}`, undefined, crashed.baseUrl), 200),
      );
      if (run.status === "running") break;
      if (Date.now() > deadline) throw new Error("the backtest never started");
      await new Promise((r) => setTimeout(r, 50));
    }
    await crashed.kill();
    crashed = await startTestServer({ MARKET_DATA_SOURCES: "sample" }, { dataDir: crashed.dataDir });
    const run = await waitFinished(accepted.backtest_id, crashed.baseUrl, 90_000);
    expect(run.status).toBe("completed");
    const calls = ZCallsPage.parse(
      await json(await call("GET", `/${run.backtest_id}/calls?page_size=500`, undefined, crashed.baseUrl), 200),
    );
    expect(calls.total).toBe(run.calls_total);
    const dates = calls.items.map((c) => c.date);
    expect(new Set(dates).size).toBe(dates.length);
  }, 240_000);
});
