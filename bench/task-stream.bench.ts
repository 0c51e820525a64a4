import http from "node:http";
import { groupRssMiB, percentile, startNodeServer, startService, type Benchmark, type BenchRow } from "./harness";

// 1,000 concurrent SSE clients receive a task's events. Delivery delay of an event is
// measured from the moment the trigger request was sent to its arrival at each client (task_created comes
// from the submission; task_completed is measured from the first client that saw it, i.e. the fan-out
// spread). Baseline: a bare node:http SSE server broadcasting the same kind of event to the same clients.

const CLIENTS = Number(process.env.BENCH_SSE_CLIENTS ?? 1000);

const BARE_SSE = `
import http from "node:http";
const clients = new Set();
http.createServer((req, res) => {
  if (req.url === "/stream") {
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    res.write("event: connected\\ndata: {}\\n\\n");
    clients.add(res);
    req.on("close", () => clients.delete(res));
    return;
  }
  if (req.url === "/fire") {
    const data = JSON.stringify({ task_id: "x".repeat(32), stock_code: "600519", status: "pending", progress: 0, created_at: new Date().toISOString() });
    for (const c of clients) c.write("event: task_created\\ndata: " + data + "\\n\\n");
    res.end("ok");
    return;
  }
  res.end("ok");
}).listen(Number(process.env.PORT), "127.0.0.1");
`;

interface Client {
  request: http.ClientRequest;
  arrivals: Map<string, number>;
}

function connect(url: string, agent: http.Agent, wanted: Set<string>): Promise<Client> {
  return new Promise((resolve, reject) => {
    const arrivals = new Map<string, number>();
    const request = http.get(url, { agent }, (res) => {
      let buffer = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        buffer += chunk;
        let end = buffer.indexOf("\n\n");
        while (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const type = block.split("\n")[0]!.slice(7);
          if (type === "connected") resolve(client);
          if (wanted.has(type) && !arrivals.has(type)) arrivals.set(type, performance.now());
          end = buffer.indexOf("\n\n");
        }
      });
    });
    const client: Client = { request, arrivals };
    request.on("error", reject);
  });
}

async function waitFor(clients: Client[], type: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (clients.some((c) => !c.arrivals.has(type))) {
    if (Date.now() > deadline)
      throw new Error(
        `${type}: only ${clients.filter((c) => c.arrivals.has(type)).length}/${clients.length} clients got it`,
      );
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function openClients(url: string, wanted: Set<string>): Promise<{ clients: Client[]; agent: http.Agent }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
  const clients: Client[] = [];
  for (let i = 0; i < CLIENTS; i += 100) {
    clients.push(
      ...(await Promise.all(Array.from({ length: Math.min(100, CLIENTS - i) }, () => connect(url, agent, wanted)))),
    );
  }
  return { clients, agent };
}

function close(clients: Client[], agent: http.Agent): void {
  for (const c of clients) c.request.destroy();
  agent.destroy();
}

const ms = (v: number) => Math.round(v * 100) / 100;

export const taskStreamBenchmark: Benchmark = {
  name: "task-stream",
  async run(): Promise<BenchRow[]> {
    const bare = await startNodeServer(BARE_SSE, "/");
    const bareRssBefore = groupRssMiB(bare.pid!);
    const baseline = await openClients(`${bare.baseUrl}/stream`, new Set(["task_created"]));
    const bareRssAfter = groupRssMiB(bare.pid!);
    const bareFired = performance.now();
    await fetch(`${bare.baseUrl}/fire`);
    await waitFor(baseline.clients, "task_created");
    const bareDelays = baseline.clients.map((c) => c.arrivals.get("task_created")! - bareFired);
    close(baseline.clients, baseline.agent);
    await bare.stop();

    const service = await startService({ MARKET_DATA_SOURCES: "sample" });
    await fetch(`${service.baseUrl}/api/v1/analysis/tasks`); // compile/warm the route modules
    const rssBefore = groupRssMiB(service.pid!);
    const wanted = new Set(["task_created", "task_started", "task_completed"]);
    const { clients, agent } = await openClients(`${service.baseUrl}/api/v1/analysis/tasks/stream`, wanted);
    const rssConnected = groupRssMiB(service.pid!);
    const submitted = performance.now();
    const res = await fetch(`${service.baseUrl}/api/v1/analysis/analyze`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ stock_code: "600519", async_mode: true }),
    });
    if (res.status !== 202) throw new Error(`submit answered ${res.status}`);
    await waitFor(clients, "task_completed");
    const created = clients.map((c) => c.arrivals.get("task_created")! - submitted);
    const firstCompleted = Math.min(...clients.map((c) => c.arrivals.get("task_completed")!));
    const spread = clients.map((c) => c.arrivals.get("task_completed")! - firstCompleted);
    const rssAfter = groupRssMiB(service.pid!);
    close(clients, agent);
    await service.stop();

    const row = (subject: string, metric: string, value: number, unit: string, ratio?: number): BenchRow => ({
      benchmark: `task stream, ${CLIENTS} SSE clients`,
      subject,
      metric,
      value: ms(value),
      unit,
      ...(ratio === undefined ? {} : { ratio: Math.round(ratio * 1000) / 1000 }),
    });
    const bareP50 = percentile(bareDelays, 50);
    const bareP99 = percentile(bareDelays, 99);
    return [
      row("bare node:http SSE", "event delivery p50", bareP50, "ms"),
      row("bare node:http SSE", "event delivery p99", bareP99, "ms"),
      row(
        "DSA task_created (submit → client)",
        "delivery p50",
        percentile(created, 50),
        "ms",
        percentile(created, 50) / Math.max(bareP50, 0.01),
      ),
      row(
        "DSA task_created (submit → client)",
        "delivery p99",
        percentile(created, 99),
        "ms",
        percentile(created, 99) / Math.max(bareP99, 0.01),
      ),
      row("DSA task_completed (fan-out spread)", "delivery p50", percentile(spread, 50), "ms"),
      row("DSA task_completed (fan-out spread)", "delivery p99", percentile(spread, 99), "ms"),
      row("bare node:http SSE", "RSS growth for the clients", bareRssAfter - bareRssBefore, "MiB"),
      row(
        "DSA",
        "RSS growth for the clients",
        rssConnected - rssBefore,
        "MiB",
        (rssConnected - rssBefore) / Math.max(bareRssAfter - bareRssBefore, 0.1),
      ),
      row("DSA", "RSS growth through the task", rssAfter - rssBefore, "MiB"),
    ];
  },
};
