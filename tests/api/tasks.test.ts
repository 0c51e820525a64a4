import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ZRunFlowSnapshot } from "@/lib/analysis/run-schemas";
import {
  ZBatchTaskAcceptedResponse,
  ZMarketReviewAccepted,
  ZTaskAccepted,
  ZTaskInfo,
  ZTaskListResponse,
  ZTaskStatus,
  type TTaskStatus,
} from "@/lib/tasks/schemas";
import { startTestServer, type TestServer } from "../setup/api-server";
import { readSse, type SseEvent } from "./sse-client";

// Tasks over HTTP: async analyze, task list/status/flow, the SSE stream and market review, on a real
// server with sample data. SAMPLE_LATENCY_MS keeps tasks running long enough to observe them live.

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({
    MARKET_DATA_SOURCES: "sample",
    SAMPLE_LATENCY_MS: "150",
    SSE_HEARTBEAT_SECONDS: "1",
    TASK_MARKET_RATE_PER_MINUTE: "6000",
  });
});
afterAll(() => server?.stop());

function post(path: string, body?: unknown) {
  return fetch(`${server.baseUrl}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

async function getJson(path: string, status = 200): Promise<unknown> {
  const res = await fetch(`${server.baseUrl}${path}`);
  expect(res.status, path).toBe(status);
  return res.json();
}

async function waitForStatus(taskId: string, wanted: string[], timeoutMs = 20_000): Promise<TTaskStatus> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const status = ZTaskStatus.parse(await getJson(`/api/v1/analysis/status/${taskId}`));
    if (wanted.includes(status.status)) return status;
    if (Date.now() > deadline) throw new Error(`task ${taskId} stayed ${status.status}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("POST analyze with async_mode (spec 4.2 rules 7–9)", () => {
  it("rule 8: a single target answers 202 TaskAccepted (pending) and a repeat while it runs is a flat 409 duplicate_task", async () => {
    const res = await post("/api/v1/analysis/analyze", {
      stock_code: "600519",
      async_mode: true,
      stock_name: "茅台",
      original_query: "look at moutai",
    });
    expect(res.status).toBe(202);
    const accepted = ZTaskAccepted.parse(await res.json());
    expect(accepted.status).toBe("pending");
    expect(accepted.analysis_phase).toBe("auto");

    const dup = await post("/api/v1/analysis/analyze", { stock_code: "sh600519", async_mode: true });
    expect(dup.status).toBe(409);
    const body = await dup.json();
    expect(body).toEqual({
      error: "duplicate_task",
      message: expect.any(String),
      stock_code: "600519",
      existing_task_id: accepted.task_id,
    });

    const done = await waitForStatus(accepted.task_id, ["completed", "failed"]);
    expect(done.status).toBe("completed");
    expect(done.progress).toBe(100);
    expect(done.result?.query_id).toBe(accepted.task_id);
    expect(done.result?.report.meta.stock_code).toBe("600519");
    expect(done.original_query).toBe("look at moutai");
    expect(done.market_review_report).toBeNull();

    // Finished: the key is free again, a new submission is accepted.
    const again = await post("/api/v1/analysis/analyze", { stock_code: "600519", async_mode: true });
    expect(again.status).toBe(202);
    await waitForStatus(ZTaskAccepted.parse(await again.json()).task_id, ["completed"]);
  });

  it("rule 9: a batch answers BatchTaskAcceptedResponse with accepted, duplicates and rejected; never 409", async () => {
    const first = await post("/api/v1/analysis/analyze", { stock_code: "000001", async_mode: true });
    expect(first.status).toBe(202);
    const existing = ZTaskAccepted.parse(await first.json());

    const res = await post("/api/v1/analysis/analyze", {
      stock_codes: ["AAPL", "000001.SZ", "sh000001", "csi999999", "00700"],
      async_mode: true,
      stock_name: "dropped in a batch",
      original_query: "dropped too",
      selection_source: "manual",
    });
    expect(res.status).toBe(202);
    const batch = ZBatchTaskAcceptedResponse.parse(await res.json());
    expect(batch.accepted).toHaveLength(3);
    const index = batch.accepted.find((a) => a.asset_type === "index")!;
    expect(index.stock_code).toMatch(/000001/);
    expect(
      batch.accepted
        .filter((a) => a.asset_type === "stock")
        .map((a) => a.stock_code)
        .sort(),
    ).toEqual(["00700", "AAPL"]);
    expect(batch.accepted.find((a) => a.stock_code === "AAPL")!.asset_type).toBe("stock");
    expect(batch.duplicates).toEqual([
      { stock_code: "000001", existing_task_id: existing.task_id, message: expect.any(String) },
    ]);
    expect(batch.rejected).toHaveLength(1);
    expect(batch.rejected![0]).toMatchObject({
      stock_code: "csi999999",
      reason_code: "unregistered_index",
      reason_params: { code: "csi999999" },
    });
    // The reference's newer client reads {token, reason}.
    expect(batch.rejected![0]!.token).toBe("csi999999");
    expect(batch.rejected![0]!.reason).toBe(batch.rejected![0]!.message);
    expect(batch.message).toMatch(/3 tasks submitted, 1 duplicate, 1 rejected/);

    const aapl = batch.accepted.find((a) => a.stock_code === "AAPL")!;
    const status = await waitForStatus(aapl.task_id, ["completed", "failed"]);
    expect(status.stock_name).not.toBe("dropped in a batch");
    expect(status.original_query).toBeNull();
    expect(status.selection_source).toBeNull();
    for (const item of batch.accepted) await waitForStatus(item.task_id, ["completed", "failed"]);
    await waitForStatus(existing.task_id, ["completed", "failed"]);
  });

  it("rule 3: a batch holding an invalid name is 400 validation_error as a whole", async () => {
    const res = await post("/api/v1/analysis/analyze", { stock_codes: ["600519", "abc12xyz"], async_mode: true });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      error: "validation_error",
      message: expect.stringMatching(/^abc12xyz: /),
    });
  });

  it("rule 9: a batch without rejections omits `rejected`; import batches keep original_query and selection_source", async () => {
    const res = await post("/api/v1/analysis/analyze", {
      stock_codes: ["600519", "AAPL"],
      async_mode: true,
      original_query: "my list",
      selection_source: "import",
    });
    expect(res.status).toBe(202);
    const body = (await res.json()) as Record<string, unknown>;
    expect("rejected" in body).toBe(false);
    const batch = ZBatchTaskAcceptedResponse.parse(body);
    for (const item of batch.accepted) {
      const status = await waitForStatus(item.task_id, ["completed", "failed"]);
      expect(status.original_query).toBe("my list");
      expect(status.selection_source).toBe("import");
    }
  });

  it("a task whose analysis fails ends failed with its error; the status carries `error` only then", async () => {
    const res = await post("/api/v1/analysis/analyze", { stock_code: "600036", async_mode: true });
    const accepted = ZTaskAccepted.parse(await res.json());
    const status = await waitForStatus(accepted.task_id, ["completed", "failed"]);
    expect(status.status).toBe("failed");
    expect(status.error).toMatch(/600036/);
    expect(status.result).toBeNull();
  });
});

describe("GET /api/v1/analysis/tasks, status and flow", () => {
  it("limit is applied first, then the status filter (case-insensitive); counters are queue-wide", async () => {
    const res = await post("/api/v1/analysis/analyze", { stock_codes: ["00700", "AAPL", "600519"], async_mode: true });
    const batch = ZBatchTaskAcceptedResponse.parse(await res.json());
    expect(batch.accepted).toHaveLength(3);
    for (const item of batch.accepted) await waitForStatus(item.task_id, ["completed"]);
    const failing = ZTaskAccepted.parse(
      await (await post("/api/v1/analysis/analyze", { stock_code: "600036", async_mode: true })).json(),
    );
    await waitForStatus(failing.task_id, ["failed"]);

    const all = ZTaskListResponse.parse(await getJson("/api/v1/analysis/tasks?limit=100"));
    expect(all.total).toBe(all.tasks.length);
    expect(all.tasks[0]!.task_id).toBe(failing.task_id);
    // The newest task is the failed one: limit 1 then filter completed leaves nothing, though completed tasks exist.
    const limited = ZTaskListResponse.parse(await getJson("/api/v1/analysis/tasks?limit=1&status=COMPLETED"));
    expect(limited.tasks).toEqual([]);
    expect(limited.total).toBe(all.total);
    const two = ZTaskListResponse.parse(await getJson("/api/v1/analysis/tasks?limit=4&status=completed,%20Failed"));
    expect(two.tasks.map((t) => t.task_id)).toEqual([
      failing.task_id,
      ...batch.accepted.map((a) => a.task_id).reverse(),
    ]);
    expect(two.tasks.every((t) => t.status === "completed" || t.status === "failed")).toBe(true);
    await getJson("/api/v1/analysis/tasks?limit=0", 422);
    await getJson("/api/v1/analysis/tasks?limit=101", 422);
  });

  it("status and flow of an unknown id are 404 not_found; a completed task's flow is the stored one", async () => {
    expect(await getJson("/api/v1/analysis/status/nope", 404)).toMatchObject({ error: "not_found" });
    expect(await getJson("/api/v1/analysis/tasks/nope/flow", 404)).toMatchObject({ error: "not_found" });
    // force_refresh skips the bar and quote caches, so the task is still running when its flow is read.
    const accepted = ZTaskAccepted.parse(
      await (
        await post("/api/v1/analysis/analyze", { stock_code: "AAPL", async_mode: true, force_refresh: true })
      ).json(),
    );
    const live = ZRunFlowSnapshot.parse(await getJson(`/api/v1/analysis/tasks/${accepted.task_id}/flow`));
    expect(live.task_id).toBe(accepted.task_id);
    expect(live.nodes.map((n) => n.id)).toContain("queue");
    await waitForStatus(accepted.task_id, ["completed"]);
    const stored = ZRunFlowSnapshot.parse(await getJson(`/api/v1/analysis/tasks/${accepted.task_id}/flow`));
    expect(stored.status).toBe("success");
    expect(stored.nodes.map((n) => n.id)).toContain("daily_bars");
    expect(stored.nodes.map((n) => n.id)).not.toContain("queue");
  });
});

describe("GET /api/v1/analysis/tasks/stream (spec 6)", () => {
  it("headers, then connected → task_created → task_started → task_progress → task_completed for a new task", async () => {
    const stream = await readSse(`${server.baseUrl}/api/v1/analysis/tasks/stream`);
    try {
      expect(stream.response.status).toBe(200);
      expect(stream.response.headers.get("content-type")).toMatch(/^text\/event-stream/);
      expect(stream.response.headers.get("cache-control")).toBe("no-cache");
      expect(stream.response.headers.get("x-accel-buffering")).toBe("no");
      const first = await stream.next();
      expect(first.event).toBe("connected");

      const accepted = ZTaskAccepted.parse(
        await (
          await post("/api/v1/analysis/analyze", { stock_code: "600519", async_mode: true, force_refresh: true })
        ).json(),
      );
      const mine: SseEvent[] = [];
      while (!mine.some((e) => e.event === "task_completed" || e.event === "task_failed")) {
        const event = await stream.next();
        if (event.event === "heartbeat") continue;
        const task = ZTaskInfo.parse(event.data);
        if (task.task_id === accepted.task_id) mine.push(event);
      }
      const order = mine.map((e) => e.event).filter((e, i, all) => all.indexOf(e) === i);
      expect(order).toEqual(["task_created", "task_started", "task_progress", "task_completed"]);
      const progress = mine.filter((e) => e.event === "task_progress").map((e) => ZTaskInfo.parse(e.data).progress);
      expect(progress).toEqual([...progress].sort((a, b) => a - b));
      expect(ZTaskInfo.parse(mine.at(-1)!.data)).toMatchObject({ status: "completed", progress: 100 });
    } finally {
      stream.close();
    }
  });

  it("on connect, a task_created per task already pending or processing; a heartbeat after the quiet interval", async () => {
    const res = await post("/api/v1/analysis/analyze", {
      stock_codes: ["00700", "AAPL"],
      async_mode: true,
      force_refresh: true,
    });
    const batch = ZBatchTaskAcceptedResponse.parse(await res.json());
    const stream = await readSse(`${server.baseUrl}/api/v1/analysis/tasks/stream`);
    try {
      expect((await stream.next()).event).toBe("connected");
      const created = new Set<string>();
      for (let i = 0; i < batch.accepted.length; i++) {
        const event = await stream.next();
        expect(event.event).toBe("task_created");
        created.add(ZTaskInfo.parse(event.data).task_id);
      }
      expect([...created].sort()).toEqual(batch.accepted.map((a) => a.task_id).sort());
      for (const item of batch.accepted) await waitForStatus(item.task_id, ["completed"]);
      let event = await stream.next();
      while (event.event !== "heartbeat") event = await stream.next(3000);
      expect(Date.parse((event.data as { timestamp: string }).timestamp)).not.toBeNaN();
    } finally {
      stream.close();
    }
  });
});

describe("POST /api/v1/analysis/market-review (spec 4.2, docs/api.md §7)", () => {
  it("202 accepted, 409 duplicate_market_review while it runs, then stored as a market_review history record", async () => {
    const res = await post("/api/v1/analysis/market-review", { region: "cn", report_language: "en" });
    expect(res.status).toBe(202);
    const accepted = ZMarketReviewAccepted.parse(await res.json());
    expect(accepted).toMatchObject({ status: "accepted", region: "cn", send_notification: true });

    const second = await post("/api/v1/analysis/market-review");
    expect(second.status).toBe(409);
    expect(await second.json()).toMatchObject({ error: "duplicate_market_review" });

    const listed = ZTaskListResponse.parse(await getJson("/api/v1/analysis/tasks"));
    expect(listed.tasks.find((t) => t.task_id === accepted.task_id)).toMatchObject({
      stock_code: "market_review",
      stock_name: "大盘复盘",
      region: "cn",
    });

    const done = await waitForStatus(accepted.task_id, ["completed", "failed"], 30_000);
    expect(done.status, done.error).toBe("completed");
    expect(done.result).toBeNull();
    expect(done.market_review_report).toMatch(/\S/);
    expect(done.market_review_payload).not.toBeNull();

    const history = (await getJson(`/api/v1/history?report_type=market_review`)) as {
      items: { query_id: string; stock_code: string }[];
    };
    expect(history.items.find((i) => i.query_id === accepted.task_id)?.stock_code).toBe("MARKET");
  });

  it("the region defaults to cn and bad values are 422", async () => {
    expect((await post("/api/v1/analysis/market-review", { region: "mars" })).status).toBe(422);
    const res = await post("/api/v1/analysis/market-review", {});
    const accepted = ZMarketReviewAccepted.parse(await res.json());
    expect(accepted.region).toBe("cn");
    await waitForStatus(accepted.task_id, ["completed", "failed"], 30_000);
  });
});

describe("retention window (spec 3.1)", () => {
  let shortServer: TestServer;
  beforeAll(async () => {
    shortServer = await startTestServer({ MARKET_DATA_SOURCES: "sample", TASK_RETENTION_MINUTES: "0" });
  });
  afterAll(() => shortServer?.stop());

  it("after the window a finished task leaves the queue view and its status comes from history by query_id", async () => {
    const res = await fetch(`${shortServer.baseUrl}/api/v1/analysis/analyze`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ stock_code: "AAPL", async_mode: true, original_query: "kept only by the queue" }),
    });
    const accepted = ZTaskAccepted.parse(await res.json());
    let status: TTaskStatus;
    const deadline = Date.now() + 20_000;
    do {
      await new Promise((r) => setTimeout(r, 100));
      const r = await fetch(`${shortServer.baseUrl}/api/v1/analysis/status/${accepted.task_id}`);
      status = ZTaskStatus.parse(await r.json());
    } while (status.status !== "completed" && Date.now() < deadline);
    expect(status).toMatchObject({ status: "completed", progress: 100 });
    // History answered: the queue's own fields (original_query) are gone, the report is rebuilt from the record.
    expect(status.original_query).toBeNull();
    expect(status.result?.query_id).toBe(accepted.task_id);
    const list = ZTaskListResponse.parse(await (await fetch(`${shortServer.baseUrl}/api/v1/analysis/tasks`)).json());
    expect(list.tasks.find((t) => t.task_id === accepted.task_id)).toBeUndefined();
    const flow = ZRunFlowSnapshot.parse(
      await (await fetch(`${shortServer.baseUrl}/api/v1/analysis/tasks/${accepted.task_id}/flow`)).json(),
    );
    expect(flow.status).toBe("success");
  });
});
