import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import Redis from "ioredis";
import { afterAll, beforeAll, beforeEach, describe, expect, it, type TestContext } from "vitest";
import { ZAlertEvaluation, ZAlertRule } from "@/lib/alerts/schemas";
import {
  ZSystemConfigConflictResponse,
  ZSystemConfigResponse,
  ZUpdateSystemConfigResponse,
} from "@/lib/config/schemas";
import { wallClock } from "@/lib/time/wall-clock";
import { startReceiver, type Receiver } from "@/tests/kits/notify-receiver";
import { ZSchedulerStatus } from "@/lib/schedule/schemas";
import { ZBatchTaskAcceptedResponse, ZDuplicateTaskError, ZTaskAccepted, ZTaskStatus } from "@/lib/tasks/schemas";
import { readSse, type SseEvent, type SseReader } from "../api/sse-client";
import { openServerDatabase, type ServerDatabase } from "../setup/server-database";
import {
  REPLICA_HEADER,
  REPLICA_NAMES,
  startReplicaCluster,
  type ReplicaCluster,
  type ReplicaName,
} from "../setup/replica-cluster";

// The replica test: two replicas of the built service on one PostgreSQL database and one Redis,
// behind a round-robin proxy. Duplicate submissions, task events, crash recovery, the daily slot, config changes,
// alerts and the login session and limit must behave as one service; with Redis gone, tasks still complete.

type Json = Record<string, unknown>;

function post(base: string, path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${base}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
}

/** Async analysis without a report notification (the webhook receiver then only sees what a case expects). */
const instant = (value: unknown) => new Date(value as string | number | Date).getTime();

function submit(base: string, body: Json): Promise<Response> {
  return post(base, "/api/v1/analysis/analyze", { async_mode: true, notify: false, ...body });
}

/** Polls `probe` until it returns a value other than undefined; fails with `what` at the deadline. */
async function until<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs: number,
  intervalMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

async function waitForCompletion(base: string, ids: readonly string[], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (const id of ids) {
    await until(
      `task ${id} to complete`,
      async () => {
        const status = ZTaskStatus.parse(await (await fetch(`${base}/api/v1/analysis/status/${id}`)).json());
        expect(status.status, `task ${id}: ${status.error}`).not.toBe("failed");
        return status.status === "completed" ? true : undefined;
      },
      Math.max(1, deadline - Date.now()),
    );
  }
}

/** Every event of one task on a stream, in order, up to its completion or failure. */
async function eventsOfTask(reader: SseReader, taskId: string, timeoutMs = 60_000): Promise<SseEvent[]> {
  const deadline = Date.now() + timeoutMs;
  const seen: SseEvent[] = [];
  for (;;) {
    const event = await reader.next(Math.max(1, deadline - Date.now()));
    if ((event.data as { task_id?: string } | null)?.task_id !== taskId) continue;
    seen.push(event);
    if (event.event === "task_completed" || event.event === "task_failed") return seen;
  }
}

function slotOneMinuteAgo(): string {
  const wall = wallClock(new Date(Date.now() - 60_000), "Asia/Shanghai");
  return `${String(wall.hour).padStart(2, "0")}:${String(wall.minute).padStart(2, "0")}`;
}

/** On a failed case, the end of both replicas' logs: the evidence for a product bug. */
function printLogsOnFailure(cluster: () => ReplicaCluster | undefined) {
  return ({ onTestFailed }: TestContext) =>
    onTestFailed(() => {
      const c = cluster();
      for (const name of c ? REPLICA_NAMES : [])
        console.error(`---- replica ${name} (${c!.replicas[name].baseUrl}) server.log tail ----\n${c!.logTail(name)}`);
    });
}

// The 30 targets of the crash case: every sample stock and 13 registered indices (offline sample data).
const CRASH_CODES = [
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
const WATCHLIST = ["000858", "NVDA"];

describe("two replicas behind one proxy", () => {
  let cluster: ReplicaCluster | undefined;
  let receiver: Receiver;
  let db: ServerDatabase;
  const A = () => cluster!.replicas.A.baseUrl;
  const B = () => cluster!.replicas.B.baseUrl;
  const proxy = () => cluster!.proxy.baseUrl;
  const activeCount = async () =>
    (await db.get<{ n: number }>("SELECT count(*) AS n FROM analysis_task WHERE status IN ('pending', 'processing')"))!
      .n;

  beforeAll(async () => {
    receiver = await startReceiver();
    cluster = await startReplicaCluster({
      MARKET_DATA_SOURCES: "sample",
      // Slow enough that a task is seen processing (and is still queued when a replica dies), fast enough for 30.
      SAMPLE_LATENCY_MS: "150",
      MAX_WORKERS: "3",
      TASK_MARKET_RATE_PER_MINUTE: "6000",
      // The daily slot passed a minute ago: both replicas look at it as soon as they start (case 4).
      SERVICE_TIMEZONE: "Asia/Shanghai",
      SCHEDULE_ENABLED: "true",
      SCHEDULE_TIME: slotOneMinuteAgo(),
      TRADING_DAY_CHECK_ENABLED: "false",
      STOCK_LIST: WATCHLIST.join(","),
      MARKET_REVIEW_ENABLED: "false",
      CUSTOM_WEBHOOK_URLS: `${receiver.baseUrl}/hook`,
      // The receiver listens on 127.0.0.1, which the outbound policy refuses by default.
      OUTBOUND_ALLOW_PRIVATE: "true",
      NOTIFICATION_RETRY_BASE_DELAY_MS: "10",
      // Alerts are evaluated on request only (case 8), so the test decides when both replicas evaluate.
      ALERT_EVAL_SECONDS: "3600",
    });
    db = await openServerDatabase({ databaseUrl: cluster.databaseUrl });
  });
  beforeEach(printLogsOnFailure(() => cluster));
  afterAll(async () => {
    await db?.close();
    await cluster?.close();
    await receiver?.close();
  });

  it("1: the same stock submitted to A and B at the same instant gives one task and one 409 duplicate_task, directly and through the proxy", async () => {
    const cases: { code: string; send: () => Promise<Response>[] }[] = [
      { code: "600519", send: () => [submit(A(), { stock_code: "600519" }), submit(B(), { stock_code: "600519" })] },
      { code: "AAPL", send: () => [submit(proxy(), { stock_code: "AAPL" }), submit(proxy(), { stock_code: "AAPL" })] },
    ];
    for (const { code, send } of cases) {
      const answers = await Promise.all(send());
      if (answers.every((r) => r.status === 202)) {
        // Legitimate only when one request was held up (a starved Redis on a loaded machine once kept one for 2 s)
        // until the other's task had finished: never two active tasks for one stock.
        const tasks = await db.all<{ created_at: unknown; completed_at: unknown }>(
          "SELECT created_at, completed_at FROM analysis_task WHERE stock_code = ? ORDER BY created_at",
          code,
        );
        expect(tasks).toHaveLength(2);
        expect(tasks[0]!.completed_at).not.toBeNull();
        expect(instant(tasks[1]!.created_at)).toBeGreaterThanOrEqual(instant(tasks[0]!.completed_at));
        continue;
      }
      expect(answers.map((r) => r.status).sort()).toEqual([202, 409]);
      const accepted = ZTaskAccepted.parse(await answers.find((r) => r.status === 202)!.json());
      const duplicate = ZDuplicateTaskError.parse(await answers.find((r) => r.status === 409)!.json());
      expect(duplicate).toMatchObject({
        error: "duplicate_task",
        stock_code: code,
        existing_task_id: accepted.task_id,
      });
      const rows = await db.all<{ id: string }>("SELECT id FROM analysis_task WHERE stock_code = ?", code);
      expect(rows.map((r) => r.id)).toEqual([accepted.task_id]);
    }
    // The proxy pair really went to both replicas.
    expect(new Set(cluster!.proxy.forwarded.slice(-2))).toEqual(new Set(["A", "B"]));
  });

  it("2: an SSE client on A sees every event of a task B runs, the same sequence B's own client sees", async () => {
    const onA = await readSse(`${A()}/api/v1/analysis/tasks/stream`);
    const onB = await readSse(`${B()}/api/v1/analysis/tasks/stream`);
    try {
      expect((await onA.next()).event).toBe("connected");
      expect((await onB.next()).event).toBe("connected");
      // Both replicas claim from the shared queue: B is woken by its own submission, A polls every second, so A
      // wins a claim now and then. Another stock is tried until B ran one; every try must match on both streams.
      let ranOnB = false;
      for (const code of ["601398", "600900", "601318"]) {
        const res = await submit(B(), { stock_code: code });
        expect(res.status).toBe(202);
        const { task_id } = ZTaskAccepted.parse(await res.json());
        const runner = until(
          `a lease owner for ${task_id}`,
          async () => {
            const row = await db.get<{ lease_owner: string | null; status: string }>(
              "SELECT lease_owner, status FROM analysis_task WHERE id = ?",
              task_id,
            );
            if (row?.lease_owner) return cluster!.replicaOfOwner(row.lease_owner);
            if (row && row.status !== "pending" && row.status !== "processing") return null;
            return undefined;
          },
          60_000,
          20,
        );
        const [seenOnA, seenOnB, ranBy] = await Promise.all([
          eventsOfTask(onA, task_id),
          eventsOfTask(onB, task_id),
          runner,
        ]);
        expect(ranBy, "the replica whose worker held the task").not.toBeNull();
        const kinds = seenOnB.map((e) => e.event);
        expect(kinds[0]).toBe("task_created");
        expect(kinds).toContain("task_started");
        expect(kinds).toContain("task_progress");
        expect(kinds.at(-1)).toBe("task_completed");
        expect(seenOnA).toEqual(seenOnB);
        if (ranBy === "B") {
          ranOnB = true;
          break;
        }
      }
      expect(ranOnB, "B ran one of the submitted tasks").toBe(true);
    } finally {
      onA.close();
      onB.close();
    }
  });

  it("3: kill -9 of A with 30 tasks queued: B completes all 30, 30 history rows, none twice", async () => {
    // Earlier cases' tasks (and the scheduled run's) are done first, so the history count is this case's alone.
    await until("an idle queue", async () => ((await activeCount()) === 0 ? true : undefined), 90_000);
    const historyBefore = (await db.get<{ n: number }>("SELECT count(*) AS n FROM analysis_history"))!.n;

    const res = await submit(A(), { stock_codes: CRASH_CODES });
    expect(res.status).toBe(202);
    const batch = ZBatchTaskAcceptedResponse.parse(await res.json());
    expect(batch.rejected ?? []).toEqual([]);
    expect(batch.accepted).toHaveLength(30);
    const ids = batch.accepted.map((a) => a.task_id);

    // Pull the plug once A's workers hold tasks, so their leases are left behind for B to recover.
    const ownerOfA = await until(
      "A to hold a task",
      async () => {
        const rows = await db.all<{ lease_owner: string }>(
          "SELECT lease_owner FROM analysis_task WHERE status = 'processing' AND lease_owner IS NOT NULL",
        );
        return rows.map((r) => r.lease_owner).find((owner) => cluster!.replicaOfOwner(owner) === "A");
      },
      30_000,
      20,
    );
    await cluster!.replicas.A.kill();
    const atKill = await db.all<{ id: string; status: string; lease_owner: string | null }>(
      "SELECT id, status, lease_owner FROM analysis_task",
    );
    const heldByA = new Set(
      atKill.filter((t) => t.status === "processing" && t.lease_owner === ownerOfA).map((t) => t.id),
    );
    expect(heldByA.size, "tasks A held when it died").toBeGreaterThan(0);
    expect(atKill.filter((t) => t.status === "pending").length, "tasks still queued when A died").toBeGreaterThan(0);

    // A's leases must run out (LEASE_MS) before B re-queues them; B alone runs the rest meanwhile.
    await waitForCompletion(B(), ids, 180_000);

    const history = await db.all<{ query_id: string }>(
      `SELECT query_id FROM analysis_history WHERE query_id IN (${ids.map(() => "?").join(", ")})`,
      ...ids,
    );
    expect(history).toHaveLength(30);
    expect(new Set(history.map((r) => r.query_id))).toEqual(new Set(ids));
    expect((await db.get<{ n: number }>("SELECT count(*) AS n FROM analysis_history"))!.n - historyBefore).toBe(30);
    const tasks = await db.all<{ id: string; status: string; attempts: number }>(
      `SELECT id, status, attempts FROM analysis_task WHERE id IN (${ids.map(() => "?").join(", ")})`,
      ...ids,
    );
    expect(tasks.every((t) => t.status === "completed")).toBe(true);
    // B took up what A was running (after its lease ran out), and nothing else was started twice. (A statement A
    // sent just before SIGKILL may still commit, so a task it held can have finished there instead.)
    const startedTwice = tasks.filter((t) => t.attempts > 1).map((t) => t.id);
    expect(startedTwice.length).toBeGreaterThan(0);
    expect(startedTwice.filter((id) => !heldByA.has(id))).toEqual([]);

    // Later cases need two replicas again.
    await cluster!.restart("A");
  });

  it("4: the daily slot, due on both replicas (and again on A's restart), runs once: one scheduled_run row, one set of tasks, one merged report", async () => {
    const runs = await db.all<{ id: number; slot_key: string; trigger: string; trace_id: string | null }>(
      "SELECT id, slot_key, trigger, trace_id FROM scheduled_run",
    );
    expect(runs).toHaveLength(1);
    const run = runs[0]!;
    expect(run.trigger).toBe("schedule");
    const queued = await db.all<{ query_id: string; stock_code: string }>(
      "SELECT query_id, stock_code FROM analysis_history WHERE trace_id = ?",
      run.trace_id,
    );
    expect(queued.map((r) => r.stock_code).sort()).toEqual([...WATCHLIST].sort());

    for (const base of [A(), B()]) {
      const status = ZSchedulerStatus.parse(await (await fetch(`${base}/api/v1/system/scheduler/status`)).json());
      expect(status.recent_runs.map((r) => r.id)).toEqual([run.id]);
      expect(status.recent_runs[0]!.accepted.map((a) => a.task_id).sort()).toEqual(
        queued.map((r) => r.query_id).sort(),
      );
    }

    await until(
      "the merged report to be sent",
      async () =>
        (await db.get<{ digest: string }>("SELECT digest FROM scheduled_run WHERE id = ?", run.id))?.digest === "sent"
          ? true
          : undefined,
      30_000,
    );
    const digests = receiver.requests.filter(
      (r) => (r.json as { related_kind?: unknown } | null)?.related_kind === null,
    );
    expect(digests).toHaveLength(1);
  });

  it("7: a config change on A is seen by B within 2 s; B's write with the now-stale config_version is 409", async () => {
    const read = async (base: string) =>
      ZSystemConfigResponse.parse(await (await fetch(`${base}/api/v1/system/config?include_schema=false`)).json());
    const valueOf = (config: { items: { key: string; value: string }[] }) =>
      config.items.find((i) => i.key === "SHARE_IMAGE_MAX_CHARS")?.value;
    const before = await read(A());
    expect(valueOf(before)).not.toBe("14321");

    const put = await fetch(`${A()}/api/v1/system/config`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        config_version: before.config_version,
        items: [{ key: "SHARE_IMAGE_MAX_CHARS", value: "14321" }],
      }),
    });
    expect(put.status, await put.clone().text()).toBe(200);
    const written = ZUpdateSystemConfigResponse.parse(await put.json());
    const writtenAt = Date.now();
    expect(written.updated_keys).toEqual(["SHARE_IMAGE_MAX_CHARS"]);

    const onB = await until(
      "B to show A's change",
      async () => {
        const config = await read(B());
        return valueOf(config) === "14321" ? config : undefined;
      },
      2000,
      50,
    );
    expect(Date.now() - writtenAt).toBeLessThanOrEqual(2000);
    expect(onB.config_version).toBe(written.config_version);

    const stale = await fetch(`${B()}/api/v1/system/config`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        config_version: before.config_version,
        items: [{ key: "SHARE_IMAGE_MAX_CHARS", value: "13000" }],
      }),
    });
    expect(stale.status).toBe(409);
    expect(ZSystemConfigConflictResponse.parse(await stale.json()).current_config_version).toBe(written.config_version);
    expect(valueOf(await read(A()))).toBe("14321");
  });

  it("8: an alert crossing evaluated by A and B at the same instant fires once: one trigger, one webhook delivery", async () => {
    const quote = await post(proxy(), "/api/v1/analysis/analyze", {
      stock_code: "600519",
      report_type: "brief",
      notify: false,
    });
    expect(quote.status).toBe(200);
    const price = ((await quote.json()) as { report: { meta: { current_price: number } } }).report.meta.current_price;
    const created = await post(proxy(), "/api/v1/alerts/rules", {
      alert_type: "price_cross",
      target: "600519",
      parameters: { direction: "above", price: price - 10 },
      cooldown_policy: { cooldown_seconds: 3600 },
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const rule = ZAlertRule.parse(await created.json());
    const alertsBefore = receiver.requests.filter((r) => (r.json as { kind?: string } | null)?.kind === "alert").length;

    const passes = await Promise.all([
      post(A(), "/api/v1/alerts/evaluate", {}),
      post(B(), "/api/v1/alerts/evaluate", {}),
    ]);
    expect(passes.map((r) => r.status)).toEqual([200, 200]);
    const triggers = (await Promise.all(passes.map(async (r) => ZAlertEvaluation.parse(await r.json()).triggers)))
      .flat()
      .filter((t) => t.rule_id === rule.id);
    expect(triggers).toHaveLength(1);
    expect(triggers[0]).toMatchObject({ status: "triggered", diagnostics: { delivery_status: "sent" } });

    const stored = await db.all<{ id: number }>("SELECT id FROM alert_trigger WHERE rule_id = ?", rule.id);
    expect(stored.map((t) => t.id)).toEqual([triggers[0]!.id]);
    const alerts = receiver.requests.filter((r) => (r.json as { kind?: string } | null)?.kind === "alert");
    expect(alerts).toHaveLength(alertsBefore + 1);
    expect(alerts.at(-1)!.json).toMatchObject({ related_kind: "alert", related_id: String(triggers[0]!.id) });
  });

  it("9: with Redis stopped, tasks submitted to both replicas still complete", async () => {
    await cluster!.redis.kill();
    const submissions: { base: string; code: string }[] = [
      { base: A(), code: "000001" },
      { base: A(), code: "TSLA" },
      { base: B(), code: "00700" },
      { base: B(), code: "MSFT" },
    ];
    const accepted: { base: string; id: string }[] = [];
    for (const { base, code } of submissions) {
      const res = await submit(base, { stock_code: code });
      expect(res.status, `${code}: ${await res.clone().text()}`).toBe(202);
      accepted.push({ base, id: ZTaskAccepted.parse(await res.json()).task_id });
    }
    for (const { base, id } of accepted) await waitForCompletion(base, [id], 90_000);
  });
});

describe("admin auth across two replicas", () => {
  let cluster: ReplicaCluster | undefined;
  const PASSWORD = "replica-pass";
  const base = (name: ReplicaName | "proxy") =>
    name === "proxy" ? cluster!.proxy.baseUrl : cluster!.replicas[name].baseUrl;
  // TRUST_X_FORWARDED_FOR is on: a distinct X-Forwarded-For per scenario keeps their login limits apart.
  const login = (to: ReplicaName | "proxy", ip: string, body: Json) =>
    post(base(to), "/api/v1/auth/login", body, { origin: base(to), "x-forwarded-for": ip });
  const configStatus = async (to: ReplicaName | "proxy", cookie: string) => {
    const res = await fetch(`${base(to)}/api/v1/system/config?include_schema=false`, { headers: { cookie } });
    return { status: res.status, replica: res.headers.get(REPLICA_HEADER) };
  };

  function sessionCookieOf(res: Response): string {
    const match = /dsa_session=([^;]*)/.exec(res.headers.get("set-cookie") ?? "");
    if (!match) throw new Error(`no dsa_session cookie (status ${res.status})`);
    return `dsa_session=${match[1]}`;
  }

  beforeAll(async () => {
    cluster = await startReplicaCluster({
      MARKET_DATA_SOURCES: "sample",
      ADMIN_AUTH_ENABLED: "true",
      TRUST_X_FORWARDED_FOR: "true",
      MCP_ENABLED: "true",
    });
    // The first login sets the password (from the service's own page: Origin names it).
    const first = await login("A", "10.20.0.1", { password: PASSWORD, password_confirm: PASSWORD });
    expect(first.status, await first.clone().text()).toBe(200);
  });
  beforeEach(printLogsOnFailure(() => cluster));
  afterAll(() => cluster?.close());

  it("5: a login cookie from A works on B (and through the proxy); logout on B ends it on A", async () => {
    const loggedIn = await login("A", "10.20.0.2", { password: PASSWORD });
    expect(loggedIn.status).toBe(200);
    const cookie = sessionCookieOf(loggedIn);

    expect(await (await fetch(`${base("B")}/api/v1/auth/status`, { headers: { cookie } })).json()).toMatchObject({
      loggedIn: true,
    });
    expect((await configStatus("B", cookie)).status).toBe(200);
    expect((await configStatus("B", "")).status).toBe(401);
    const viaProxy = [await configStatus("proxy", cookie), await configStatus("proxy", cookie)];
    expect(viaProxy.map((r) => r.status)).toEqual([200, 200]);
    expect(new Set(viaProxy.map((r) => r.replica))).toEqual(new Set(["A", "B"]));

    const out = await post(
      base("B"),
      "/api/v1/auth/logout",
      {},
      { cookie, origin: base("B"), "x-forwarded-for": "10.20.0.2" },
    );
    expect(out.status).toBe(204);
    expect(await (await fetch(`${base("A")}/api/v1/auth/status`, { headers: { cookie } })).json()).toMatchObject({
      loggedIn: false,
    });
    expect((await configStatus("A", cookie)).status).toBe(401);
    const afterLogout = [await configStatus("proxy", cookie), await configStatus("proxy", cookie)];
    expect(afterLogout.map((r) => r.status)).toEqual([401, 401]);
  });

  it("6: wrong passwords spread over A and B are limited as in one process (5 per client), directly and through the proxy", async () => {
    // Directly: failures alternate A, B, A, B, A; per process B would have seen only two of the five.
    const order: ReplicaName[] = ["A", "B", "A", "B", "A"];
    for (const to of order) {
      const wrong = await login(to, "10.20.1.1", { password: "not-it" });
      expect(wrong.status, `wrong password on ${to}`).toBe(401);
      expect(((await wrong.json()) as Json).error).toBe("invalid_password");
    }
    for (const to of ["B", "A"] as const) {
      const limited = await login(to, "10.20.1.1", { password: PASSWORD });
      expect(limited.status, `sixth attempt on ${to}`).toBe(429);
      expect(((await limited.json()) as Json).error).toBe("rate_limited");
      expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    }

    // Through the proxy: the round robin spreads the same five failures over both replicas.
    const answeredBy: (string | null)[] = [];
    for (let i = 0; i < 5; i++) {
      const wrong = await login("proxy", "10.20.1.2", { password: "not-it" });
      expect(wrong.status).toBe(401);
      answeredBy.push(wrong.headers.get(REPLICA_HEADER));
    }
    expect(new Set(answeredBy)).toEqual(new Set(["A", "B"]));
    for (let i = 0; i < 2; i++) expect((await login("proxy", "10.20.1.2", { password: PASSWORD })).status).toBe(429);

    // Another client is not held back by these failures.
    expect((await login("B", "10.20.1.3", { password: PASSWORD })).status).toBe(200);
  });

  it("11: an MCP client through the proxy is served by both replicas (stateless); a token revoked on A is refused on B", async () => {
    const loggedIn = await login("A", "10.20.2.1", { password: PASSWORD });
    const cookie = sessionCookieOf(loggedIn);
    const minted = await post(
      base("A"),
      "/api/v1/auth/tokens",
      { name: "mcp", scope: "write" },
      { cookie, origin: base("A"), "x-forwarded-for": "10.20.2.1" },
    );
    expect(minted.status).toBe(201);
    const token = (await minted.json()) as { id: string; token: string };
    const answeredBy: string[] = [];
    const client = new Client({ name: "replica-test", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL("/mcp", base("proxy")), {
        requestInit: { headers: { authorization: `Bearer ${token.token}` } },
        fetch: async (url, init) => {
          const res = await fetch(url, init);
          answeredBy.push(res.headers.get(REPLICA_HEADER) ?? "?");
          return res;
        },
      }),
    );
    const progress: number[] = [];
    const analysed = (await client.callTool({ name: "analyze_stock", arguments: { code: "600519" } }, undefined, {
      onprogress: (p) => progress.push(p.progress),
    })) as { isError?: boolean; structuredContent?: Json };
    expect(analysed.isError).toBeFalsy();
    expect(analysed.structuredContent).toMatchObject({ status: "completed" });
    expect(progress.length).toBeGreaterThan(0);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain("get_report");
    expect(new Set(answeredBy)).toEqual(new Set(["A", "B"]));

    const revoked = await fetch(`${base("A")}/api/v1/auth/tokens/${token.id}`, {
      method: "DELETE",
      headers: { cookie, origin: base("A"), "x-forwarded-for": "10.20.2.1" },
    });
    expect(revoked.status).toBe(204);
    const onB = await post(
      base("B"),
      "/mcp",
      { jsonrpc: "2.0", id: 1, method: "ping" },
      {
        authorization: `Bearer ${token.token}`,
        accept: "application/json, text/event-stream",
      },
    );
    expect(onB.status).toBe(401);
    await client.close();
  });

  it("10: replicas stopped with SIGTERM hand their leader locks over at once instead of leaving them to expire", async () => {
    const redis = new Redis(cluster!.redis.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
    try {
      await redis.connect();
      // The schedule tick claims its lock as soon as a replica starts (and every 20 s after).
      const held = await until(
        "a leader lock",
        async () => ((await redis.keys("dsa:leader:*")).length > 0 ? await redis.keys("dsa:leader:*") : undefined),
        30_000,
      );
      const ttls = await Promise.all(held.map((key) => redis.pttl(key)));
      expect(Math.min(...ttls), "each lock would outlive the stop by far").toBeGreaterThan(20_000);
      await Promise.all(REPLICA_NAMES.map((name) => cluster!.replicas[name].stop()));
      expect(await redis.keys("dsa:leader:*")).toEqual([]);
    } finally {
      redis.disconnect();
    }
  });
});
