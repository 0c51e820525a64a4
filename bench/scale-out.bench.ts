import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import pg from "pg";
import { createEmptyDatabase, dropDatabases } from "@/tests/kits/db/postgres-test-databases";
import { startServiceProcess, type ServerProcess } from "../scripts/server-process";
import { startRedisServer } from "../tests/setup/replica-cluster";
import { HISTORY_ITEM_SQL, UNFILTERED_TOTAL_SQL } from "../lib/history/list-sql";
import { analyzeTemplate, reconnect } from "./history-seed";
import {
  load,
  measureCpu,
  percentile,
  startNodeServer,
  type Benchmark,
  type BenchRow,
  type CpuUse,
  type LoadResult,
  type RequestShape,
} from "./harness";

// The scale-out path (PostgreSQL + Redis) measured in one run.
//
// 1. Throughput: one server started with WEB_CONCURRENCY=2 (two node:cluster processes sharing the port) against
//    one with WEB_CONCURRENCY=1, both up at once on the same PostgreSQL database (the same seeded history) and
//    Redis, loaded one after the other with the same autocannon settings: GET /api/v1/history?limit=20 (issue
//    goal: ≥ 1.6× on 2 cores), sync POST /api/v1/analysis/analyze of 600519 on sample data (as the analysis
//    bench), and GET /api/v1/health as the HTTP stack's own scaling for reference. The load generator runs in
//    this process, on the same cores as the servers and PostgreSQL.
// 2. SSE delivery across replicas: 1,000 clients on GET /api/v1/analysis/tasks/stream split evenly over two
//    replicas (two servers, WEB_CONCURRENCY=1 each, on the same database and Redis), tasks submitted to replica A
//    one after another. Delivery delay of an event = arrival at a client minus the timestamp the event carries
//    (task_created: created_at, task_started: started_at, task_completed/failed: completed_at; each is taken
//    just before the row is written, so the database write is included; same machine, same wall clock).
//    Baselines in the same run, with the same client count: one DSA replica alone (all clients on A, same
//    database and Redis), and the task-stream bench's bare node:http SSE broadcaster (one process) whose event
//    carries its creation time.

const RECORDS = Number(process.env.BENCH_SCALE_HISTORY_RECORDS ?? process.env.BENCH_HISTORY_RECORDS ?? 100_000);
const STOCKS = 2_000;
const CLIENTS = Number(process.env.BENCH_SSE_CLIENTS ?? 1000);
const TASKS = Number(process.env.BENCH_SSE_TASKS ?? 5);
/** Sample-catalogue codes the SSE tasks analyse, one task at a time (the first one is the warm-up). */
const TASK_CODES = [
  "600519",
  "000001",
  "300750",
  "601318",
  "000858",
  "AAPL",
  "TSLA",
  "NVDA",
  "MSFT",
  "00700",
  "09988",
  "GOOGL",
  "AMZN",
];

const round = (v: number, d = 2) => Math.round(v * 10 ** d) / 10 ** d;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ---- servers and their teardown

function logTail(server: ServerProcess, chars = 3000): string {
  try {
    return fs.readFileSync(path.join(server.dataDir, "server.log"), "utf8").slice(-chars);
  } catch {
    return "(no server log)";
  }
}

const stopped = new Set<ServerProcess>();

/**
 * SIGTERM (the launcher forwards it), at most 40 s, then SIGKILL of whatever is left of its process group.
 * Once per server: a second call must not signal a process group id the system may have handed out again.
 */
async function stopServer(server: ServerProcess): Promise<void> {
  if (stopped.has(server)) return;
  stopped.add(server);
  await Promise.race([server.stop(), sleep(40_000)]);
  await server.kill();
  fs.rmSync(server.dataDir, { recursive: true, force: true });
}

// ---- history seeded straight into PostgreSQL (the history-list bench's approach: one real record through the
// API as the template, then copies by SQL without the per-run blobs no list query reads)

async function seedPostgresHistory(
  databaseUrl: string,
  templateId: number,
  records: number,
  stocks: number,
): Promise<number> {
  const started = performance.now();
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ column_name: string }>(
      "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'analysis_history' AND column_name <> 'id' ORDER BY ordinal_position",
    );
    const code = `lpad((600000 + (i % ${stocks}))::text, 6, '0')`;
    const overrides: Record<string, string> = {
      query_id: `'bench-pg-' || i`,
      stock_code: code,
      display_code: code,
      stock_name: `'样本' || ${code}`,
      target_key: `'stock:cn:' || ${code}`,
      created_at: `t.created_at - make_interval(secs => ($2::int - i)::double precision)`,
      raw_result: "NULL",
      context_snapshot: "NULL",
      diagnostics: "NULL",
      flow: "NULL",
    };
    const columns = rows.map((r) => r.column_name);
    const select = columns.map((c) => overrides[c] ?? `t."${c}"`).join(", ");
    await client.query(
      `INSERT INTO analysis_history (${columns.map((c) => `"${c}"`).join(", ")}) ` +
        `SELECT ${select} FROM analysis_history t CROSS JOIN generate_series(0, $2::int - 1) AS i WHERE t.id = $1`,
      [templateId, records],
    );
    // As the SQLite seed ends with ANALYZE: statistics and the visibility map in place before the timed part,
    // so autovacuum does not start in the middle of it.
    await client.query("VACUUM (ANALYZE) analysis_history");
  } finally {
    await client.end();
  }
  return (performance.now() - started) / 1000;
}

/** The table's size on disk (heap, TOAST and indexes), for the seed row. */
async function tableSize(databaseUrl: string): Promise<string> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ size: string }>(
      "SELECT pg_size_pretty(pg_total_relation_size('analysis_history')) AS size",
    );
    return rows[0]?.size ?? "?";
  } finally {
    await client.end();
  }
}

interface PlanNode {
  "Node Type": string;
  "Index Name"?: string;
  "Heap Fetches"?: number;
  Plans?: PlanNode[];
}

function planPath(node: PlanNode): string {
  const details = [
    node["Index Name"],
    node["Heap Fetches"] === undefined ? undefined : `heap fetches ${node["Heap Fetches"]}`,
  ].filter(Boolean);
  const name = node["Node Type"] + (details.length ? ` (${details.join(", ")})` : "");
  return node.Plans?.length ? `${name} > ${node.Plans.map(planPath).join(" + ")}` : name;
}

/**
 * PostgreSQL's own execution time (EXPLAIN ANALYZE without per-node timing, which would inflate a 100,000-row
 * scan; median of `rounds`) of a statement GET /history runs, with its plan: the database work under each
 * request, shared by all server processes.
 */
async function explainMedian(databaseUrl: string, sql: string, rounds = 15): Promise<{ ms: number; plan: string }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const times: number[] = [];
    let plan = "";
    for (let i = 0; i < rounds; i++) {
      const { rows } = await client.query<{ "QUERY PLAN": [{ "Execution Time": number; Plan: PlanNode }] }>(
        `EXPLAIN (ANALYZE, TIMING OFF, FORMAT JSON) ${sql}`,
      );
      const [result] = rows[0]!["QUERY PLAN"];
      times.push(result["Execution Time"]);
      plan = planPath(result.Plan);
    }
    return { ms: percentile(times, 50), plan };
  } finally {
    await client.end();
  }
}

// ---- SSE clients

const TIMED = new Set(["task_created", "task_started", "task_completed", "task_failed"]);
const TERMINAL = new Set(["task_completed", "task_failed"]);

interface Arrival {
  type: string;
  taskId: string;
  /** Date.now() when the chunk holding the event was read. */
  at: number;
  /** The data line, parsed after the measurement so parsing does not delay the next client's read. */
  data: string;
}

interface SseClient {
  replica: string;
  request: http.ClientRequest | null;
  arrivals: Arrival[];
  finished: Set<string>;
}

// The task id is the first field of a TaskInfo (and of the bare server's event): read without JSON.parse.
function taskIdOf(data: string): string {
  const prefix = '{"task_id":"';
  if (data.startsWith(prefix)) return data.slice(prefix.length, data.indexOf('"', prefix.length));
  return /"task_id":"([^"]*)"/.exec(data)?.[1] ?? "";
}

function connect(url: string, agent: http.Agent, replica: string): Promise<SseClient> {
  return new Promise((resolve, reject) => {
    const client: SseClient = { replica, request: null, arrivals: [], finished: new Set() };
    const request = http.get(url, { agent }, (res) => {
      res.on("error", () => {}); // aborted when the bench closes the stream
      if (res.statusCode !== 200) {
        res.resume();
        reject(new Error(`${url}: HTTP ${res.statusCode}`));
        return;
      }
      let buffer = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        const at = Date.now();
        buffer += chunk;
        let end = buffer.indexOf("\n\n");
        while (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const newline = block.indexOf("\n");
          const type = block.slice("event: ".length, newline < 0 ? undefined : newline);
          if (type === "connected") resolve(client);
          else if (TIMED.has(type)) {
            const data = block.slice(newline + 1 + "data: ".length);
            const taskId = taskIdOf(data);
            client.arrivals.push({ type, taskId, at, data });
            if (TERMINAL.has(type)) client.finished.add(taskId);
          }
          end = buffer.indexOf("\n\n");
        }
      });
    });
    client.request = request;
    request.on("error", reject);
  });
}

interface ClientSet {
  clients: SseClient[];
  close(): void;
}

/** CLIENTS streams, client i on targets[i % targets.length], opened 100 at a time. */
async function openClients(targets: { replica: string; url: string }[]): Promise<ClientSet> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
  const clients: SseClient[] = [];
  const close = () => {
    for (const c of clients) c.request?.destroy();
    agent.destroy();
  };
  try {
    for (let i = 0; i < CLIENTS; i += 100) {
      const batch = Array.from({ length: Math.min(100, CLIENTS - i) }, (_, j) => targets[(i + j) % targets.length]!);
      clients.push(...(await Promise.all(batch.map((t) => connect(t.url, agent, t.replica)))));
    }
  } catch (error) {
    close();
    throw error;
  }
  return { clients, close };
}

function reset(clients: SseClient[]): void {
  for (const c of clients) {
    c.arrivals.length = 0;
    c.finished.clear();
  }
}

async function untilFinished(clients: SseClient[], taskId: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (clients.some((c) => !c.finished.has(taskId)) && Date.now() < deadline) await sleep(20);
}

/** Submits the codes to `submitUrl` one after another, each once every client saw its end (or 30 s passed). */
async function runTasks(submitUrl: string, clients: SseClient[], codes: string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const code of codes) {
    const res = await fetch(`${submitUrl}/api/v1/analysis/analyze`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ stock_code: code, async_mode: true }),
    });
    const body = (await res.json()) as { task_id?: string };
    if (res.status !== 202 || !body.task_id)
      throw new Error(`submit ${code}: HTTP ${res.status} ${JSON.stringify(body)}`);
    ids.push(body.task_id);
    await untilFinished(clients, body.task_id);
  }
  return ids;
}

interface Delays {
  byType: Map<string, number[]>;
  byReplica: Map<string, number[]>;
  all: number[];
  /** (client, task, created/started/terminal) triples that never arrived. */
  missed: number;
  failed: number;
}

function eventTime(
  type: string,
  info: { created_at?: string; started_at?: string | null; completed_at?: string | null },
): number {
  const text =
    type === "task_created" ? info.created_at : type === "task_started" ? info.started_at : info.completed_at;
  return text ? Date.parse(text) : NaN;
}

function delays(clients: SseClient[], taskIds: string[], kinds: string[]): Delays {
  const wanted = new Set(taskIds);
  const result: Delays = { byType: new Map(), byReplica: new Map(), all: [], missed: 0, failed: 0 };
  const push = (map: Map<string, number[]>, key: string, value: number) => {
    const list = map.get(key);
    if (list) list.push(value);
    else map.set(key, [value]);
  };
  const failedTasks = new Set<string>();
  for (const c of clients) {
    const seen = new Set<string>();
    for (const a of c.arrivals) {
      if (!wanted.has(a.taskId)) continue;
      const kind = TERMINAL.has(a.type) ? "terminal" : a.type;
      if (seen.has(`${a.taskId}/${kind}`)) continue;
      seen.add(`${a.taskId}/${kind}`);
      if (a.type === "task_failed") failedTasks.add(a.taskId);
      const delay = a.at - eventTime(a.type, JSON.parse(a.data) as Parameters<typeof eventTime>[1]);
      if (!Number.isFinite(delay)) continue;
      push(result.byType, a.type === "task_failed" ? "task_completed" : a.type, delay);
      push(result.byReplica, c.replica, delay);
      result.all.push(delay);
    }
    result.missed += taskIds.length * kinds.length - seen.size;
  }
  result.failed = failedTasks.size;
  return result;
}

const BARE_SSE = `
import http from "node:http";
const clients = new Set();
let fired = 0;
http.createServer((req, res) => {
  if (req.url === "/stream") {
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    res.write("event: connected\\ndata: {}\\n\\n");
    clients.add(res);
    req.on("close", () => clients.delete(res));
    return;
  }
  if (req.url === "/fire") {
    const id = String(++fired).padStart(32, "0");
    const data = JSON.stringify({ task_id: id, stock_code: "600519", status: "completed", progress: 100, created_at: new Date().toISOString(), completed_at: new Date().toISOString() });
    for (const c of clients) c.write("event: task_completed\\ndata: " + data + "\\n\\n");
    res.end(id);
    return;
  }
  res.end("ok");
}).listen(Number(process.env.PORT), "127.0.0.1");
`;

// ---- the benchmark

export const scaleOutBenchmark: Benchmark = {
  name: "scale-out",
  async run(): Promise<BenchRow[]> {
    const rows: BenchRow[] = [];
    const prefix = `dsa_bench_${process.pid}`;
    const cleanup: (() => Promise<unknown>)[] = [];
    const servers: ServerProcess[] = [];
    const track = (s: ServerProcess) => {
      servers.push(s);
      cleanup.push(() => stopServer(s));
      return s;
    };
    try {
      const databaseUrl = await createEmptyDatabase(`${prefix}_scale`);
      cleanup.push(() => dropDatabases(prefix));
      const redis = await startRedisServer();
      cleanup.push(() => redis.kill());
      const env = { LOG_LEVEL: "warn", MARKET_DATA_SOURCES: "sample", DATABASE_URL: databaseUrl, REDIS_URL: redis.url };

      // ---- part 1: one process against two, same database, both servers up (they migrate it together)
      const started = await Promise.allSettled([
        startServiceProcess({ ...env, WEB_CONCURRENCY: "1" }),
        startServiceProcess({ ...env, WEB_CONCURRENCY: "2" }),
      ]);
      for (const s of started) if (s.status === "fulfilled") track(s.value);
      for (const s of started) if (s.status === "rejected") throw s.reason;
      const [one, two] = started.map((s) => (s as PromiseFulfilledResult<ServerProcess>).value) as [
        ServerProcess,
        ServerProcess,
      ];

      const templateId = await analyzeTemplate(one);
      const seedSeconds = await seedPostgresHistory(databaseUrl, templateId, RECORDS - 1, STOCKS);
      rows.push({
        benchmark: "scale-out history seed (PostgreSQL)",
        subject: `${RECORDS} records, ${STOCKS} stocks (INSERT … SELECT), table ${await tableSize(databaseUrl)}`,
        metric: "time",
        value: round(seedSeconds),
        unit: "s",
      });
      // The two statements listHistory (lib/history/list.ts) runs per GET /api/v1/history?limit=20.
      for (const [subject, sql] of [
        ["the total: SUM over history_target (kept by triggers)", UNFILTERED_TOTAL_SQL],
        [
          "the total as it was: SELECT COUNT(*) over the records (not run by DSA now)",
          "SELECT COUNT(*) AS n FROM analysis_history",
        ],
        [
          "SELECT … ORDER BY created_at DESC, id DESC LIMIT 20",
          `SELECT ${HISTORY_ITEM_SQL} FROM analysis_history ORDER BY created_at DESC, id DESC LIMIT 20 OFFSET 0`,
        ],
      ] as const) {
        const { ms, plan } = await explainMedian(databaseUrl, sql);
        rows.push({
          benchmark: `GET /api/v1/history?limit=20: its SQL in PostgreSQL (${RECORDS} records)`,
          subject,
          metric: "execution time (median)",
          value: round(ms),
          unit: "ms",
          note: plan,
        });
        process.stdout.write(`plan of ${subject}: ${plan}\n`);
      }
      await reconnect(one.baseUrl);
      await reconnect(two.baseUrl);

      const compare = async (
        benchmark: string,
        pathAndQuery: string,
        connections: number,
        request: RequestShape = {},
      ) => {
        const measured: { result: LoadResult; cpu: CpuUse }[] = [];
        for (const server of [one, two])
          measured.push(
            await measureCpu(server.pid, () =>
              load(`${server.baseUrl}${pathAndQuery}`, undefined, connections, request),
            ),
          );
        const [a, b] = measured.map((m) => m.result) as [LoadResult, LoadResult];
        const subjectOne = "1 process (WEB_CONCURRENCY=1)";
        const subjectTwo = "2 processes (WEB_CONCURRENCY=2)";
        // Where the ratio's ceiling is: one process already keeps more than one core busy (its main thread plus V8's
        // garbage-collector and compiler threads), and PostgreSQL and the load generator share the same two cores.
        const [cpuOne, cpuTwo] = measured.map((m) => m.cpu) as [CpuUse, CpuUse];
        rows.push(
          {
            benchmark,
            subject: subjectOne,
            metric: "server CPU (all threads)",
            value: round(cpuOne.groupCores),
            unit: "cores",
          },
          {
            benchmark,
            subject: subjectTwo,
            metric: "server CPU (all threads)",
            value: round(cpuTwo.groupCores),
            unit: "cores",
            ratio: round(cpuTwo.groupCores / Math.max(cpuOne.groupCores, 0.01), 3),
          },
          {
            benchmark,
            subject: subjectOne,
            metric: "machine CPU busy",
            value: round(cpuOne.machineBusyPct, 1),
            unit: "%",
          },
          {
            benchmark,
            subject: subjectTwo,
            metric: "machine CPU busy",
            value: round(cpuTwo.machineBusyPct, 1),
            unit: "%",
          },
        );
        rows.push(
          { benchmark, subject: subjectOne, metric: "throughput", value: round(a.requestsPerSec), unit: "req/s" },
          {
            benchmark,
            subject: subjectTwo,
            metric: "throughput",
            value: round(b.requestsPerSec),
            unit: "req/s",
            ratio: round(b.requestsPerSec / a.requestsPerSec, 3),
          },
          { benchmark, subject: subjectOne, metric: "p99 latency", value: a.p99Ms, unit: "ms" },
          {
            benchmark,
            subject: subjectTwo,
            metric: "p99 latency",
            value: b.p99Ms,
            unit: "ms",
            ratio: round(b.p99Ms / Math.max(a.p99Ms, 1), 3),
          },
        );
        for (const [subject, r] of [
          [subjectOne, a],
          [subjectTwo, b],
        ] as const) {
          if (r.errors + r.non2xx > 0)
            rows.push({
              benchmark,
              subject,
              metric: "errors + non-2xx",
              value: r.errors + r.non2xx,
              unit: "responses",
              note: "throughput counts them too",
            });
        }
      };

      for (const server of [one, two]) {
        const check = (await (await fetch(`${server.baseUrl}/api/v1/history?limit=20`)).json()) as { total: number };
        if (check.total !== RECORDS) throw new Error(`history total ${check.total}, expected ${RECORDS}`);
      }
      // Connections as the health, history-list and analysis benches use them.
      await compare("GET /api/v1/health (PostgreSQL, 32 connections)", "/api/v1/health", 32);
      await compare(
        `GET /api/v1/history?limit=20 (${RECORDS} records, PostgreSQL, 16 connections; goal ≥ 1.6×)`,
        "/api/v1/history?limit=20",
        16,
      );
      const analyzeBody = JSON.stringify({ stock_code: "600519" });
      // One stock from every client (as the analysis bench): its analyses also queue for that stock's locks (the
      // decision-signal lock, held for one read and the commit; its history_target row) across both processes.
      await compare(
        "POST /api/v1/analysis/analyze sync, 600519 sample data (PostgreSQL, 8 connections)",
        "/api/v1/analysis/analyze",
        8,
        {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: analyzeBody,
        },
      );
      // What a service with many users sees: each request the next of the sample catalogue's stocks.
      await compare(
        `POST /api/v1/analysis/analyze sync, ${TASK_CODES.length} stocks in turn, sample data (PostgreSQL, 8 connections)`,
        "/api/v1/analysis/analyze",
        8,
        {
          method: "POST",
          headers: { "content-type": "application/json" },
          bodies: TASK_CODES.map((code) => JSON.stringify({ stock_code: code })),
        },
      );

      // The two-process server must not claim the SSE part's tasks.
      servers.splice(servers.indexOf(two), 1);
      await stopServer(two);

      // ---- part 2: SSE delivery
      const benchmark = `task stream across replicas, ${CLIENTS} SSE clients (PostgreSQL + Redis, ${TASKS} tasks)`;
      const row = (
        subject: string,
        metric: string,
        value: number,
        unit: string,
        ratio?: number,
        note?: string,
      ): BenchRow => ({
        benchmark,
        subject,
        metric,
        value: round(value),
        unit,
        ...(ratio === undefined || !Number.isFinite(ratio) ? {} : { ratio: round(ratio, 3) }),
        ...(note ? { note } : {}),
      });
      const codes = (offset: number) =>
        Array.from({ length: TASKS }, (_, i) => TASK_CODES[(offset + i) % TASK_CODES.length]!);

      // Baseline of the task-stream bench: a bare node:http broadcaster, one process, the same clients.
      const bare = await startNodeServer(BARE_SSE, "/");
      cleanup.push(() => bare.stop());
      let bareDelays: Delays;
      {
        const set = await openClients([{ replica: "bare", url: `${bare.baseUrl}/stream` }]);
        try {
          const fire = async () => {
            const id = await (await fetch(`${bare.baseUrl}/fire`)).text();
            await untilFinished(set.clients, id);
            return id;
          };
          await fire();
          reset(set.clients);
          const ids: string[] = [];
          for (let i = 0; i < TASKS; i++) ids.push(await fire());
          bareDelays = delays(set.clients, ids, ["terminal"]);
        } finally {
          set.close();
        }
      }
      await bare.stop();
      const bareP50 = percentile(bareDelays.all, 50);
      const bareP99 = percentile(bareDelays.all, 99);
      rows.push(
        row("bare node:http SSE, 1 process", "delivery p50", bareP50, "ms"),
        row("bare node:http SSE, 1 process", "delivery p99", bareP99, "ms"),
      );

      // One DSA replica (A) alone, every client on it.
      const kinds = ["task_created", "task_started", "terminal"];
      let single: Delays;
      {
        const set = await openClients([{ replica: "A", url: `${one.baseUrl}/api/v1/analysis/tasks/stream` }]);
        try {
          await runTasks(one.baseUrl, set.clients, [TASK_CODES[0]!]);
          reset(set.clients);
          single = delays(set.clients, await runTasks(one.baseUrl, set.clients, codes(1)), kinds);
        } finally {
          set.close();
        }
      }
      const singleP50 = percentile(single.all, 50);
      const singleP99 = percentile(single.all, 99);
      const singleCreatedP99 = percentile(single.byType.get("task_created") ?? [], 99);
      rows.push(
        row(
          "DSA 1 replica, all clients on it: task_created",
          "delivery p50",
          percentile(single.byType.get("task_created") ?? [], 50),
          "ms",
          percentile(single.byType.get("task_created") ?? [], 50) / Math.max(bareP50, 0.01),
        ),
        row(
          "DSA 1 replica, all clients on it: task_created",
          "delivery p99",
          singleCreatedP99,
          "ms",
          singleCreatedP99 / Math.max(bareP99, 0.01),
        ),
        row(
          "DSA 1 replica, all clients on it: all events",
          "delivery p50",
          singleP50,
          "ms",
          singleP50 / Math.max(bareP50, 0.01),
        ),
        row(
          "DSA 1 replica, all clients on it: all events",
          "delivery p99",
          singleP99,
          "ms",
          singleP99 / Math.max(bareP99, 0.01),
        ),
        row("DSA 1 replica", "missed deliveries", single.missed, "events", undefined, `${single.failed} tasks failed`),
      );

      // Two replicas: B joins, clients split evenly, tasks still submitted to A.
      const b = track(await startServiceProcess({ ...env, WEB_CONCURRENCY: "1" }));
      let double: Delays;
      {
        const set = await openClients([
          { replica: "A", url: `${one.baseUrl}/api/v1/analysis/tasks/stream` },
          { replica: "B", url: `${b.baseUrl}/api/v1/analysis/tasks/stream` },
        ]);
        try {
          // Warm-up: B's Redis subscription may still be settling right after its start.
          await runTasks(one.baseUrl, set.clients, [TASK_CODES[0]!]);
          reset(set.clients);
          double = delays(set.clients, await runTasks(one.baseUrl, set.clients, codes(1 + TASKS)), kinds);
        } finally {
          set.close();
        }
      }
      const vsSingle = (v: number, base: number) => v / Math.max(base, 0.01);
      const twoP50 = percentile(double.all, 50);
      const twoP99 = percentile(double.all, 99);
      const bareNote = (v: number, base: number) =>
        `${round(v / Math.max(base, 0.01), 3)}× the bare node:http SSE baseline`;
      for (const type of ["task_created", "task_started", "task_completed"]) {
        const p50 = percentile(double.byType.get(type) ?? [], 50);
        const p99 = percentile(double.byType.get(type) ?? [], 99);
        const s50 = percentile(single.byType.get(type) ?? [], 50);
        const s99 = percentile(single.byType.get(type) ?? [], 99);
        rows.push(
          row(`DSA 2 replicas, clients split: ${type}`, "delivery p50", p50, "ms", vsSingle(p50, s50)),
          row(`DSA 2 replicas, clients split: ${type}`, "delivery p99", p99, "ms", vsSingle(p99, s99)),
        );
      }
      for (const [replica, label] of [
        ["A", "clients on A (submit replica)"],
        ["B", "clients on B (events via Redis)"],
      ] as const) {
        const values = double.byReplica.get(replica) ?? [];
        rows.push(
          row(
            `DSA 2 replicas, ${label}: all events`,
            "delivery p99",
            percentile(values, 99),
            "ms",
            vsSingle(percentile(values, 99), singleP99),
          ),
        );
      }
      rows.push(
        row(
          "DSA 2 replicas, clients split: all events",
          "delivery p50",
          twoP50,
          "ms",
          vsSingle(twoP50, singleP50),
          bareNote(twoP50, bareP50),
        ),
        row(
          "DSA 2 replicas, clients split: all events (goal ≤ 150 ms)",
          "delivery p99",
          twoP99,
          "ms",
          vsSingle(twoP99, singleP99),
          bareNote(twoP99, bareP99),
        ),
        row("DSA 2 replicas", "missed deliveries", double.missed, "events", undefined, `${double.failed} tasks failed`),
      );
    } catch (error) {
      for (const s of servers) process.stderr.write(`--- server log ${s.baseUrl} (${s.dataDir}):\n${logTail(s)}\n`);
      throw error;
    } finally {
      for (const step of cleanup.reverse()) {
        await step().catch((error: unknown) => process.stderr.write(`scale-out cleanup: ${String(error)}\n`));
      }
    }
    return rows;
  },
};
