import { load, startNodeServer, startService, type Benchmark, type BenchRow } from "./harness";

// The floor any HTTP service on this machine can reach: a bare node:http server with the same JSON.
const BARE_SERVER = `
import http from "node:http";
http.createServer((req, res) => {
  const body = JSON.stringify({ status: "ok", timestamp: new Date().toISOString() });
  res.writeHead(200, { "content-type": "application/json; charset=utf-8" });
  res.end(body);
}).listen(Number(process.env.PORT), "127.0.0.1");
`;

export const healthBenchmark: Benchmark = {
  name: "health",
  async run(): Promise<BenchRow[]> {
    const bare = await startNodeServer(BARE_SERVER, "/");
    const baseline = await load(`${bare.baseUrl}/api/v1/health`);
    await bare.stop();

    const service = await startService();
    const measured = await load(`${service.baseUrl}/api/v1/health`);
    await service.stop();

    if (measured.errors + measured.non2xx > 0)
      throw new Error(`health under load: ${measured.errors} errors, ${measured.non2xx} non-2xx`);
    const row = (subject: string, metric: string, value: number, unit: string, ratio?: number): BenchRow => ({
      benchmark: "GET /api/v1/health",
      subject,
      metric,
      value: Math.round(value * 100) / 100,
      unit,
      ...(ratio === undefined ? {} : { ratio: Math.round(ratio * 1000) / 1000 }),
    });
    return [
      row("bare node:http", "throughput", baseline.requestsPerSec, "req/s"),
      row(
        "DSA (next start)",
        "throughput",
        measured.requestsPerSec,
        "req/s",
        measured.requestsPerSec / baseline.requestsPerSec,
      ),
      row("bare node:http", "p99 latency", baseline.p99Ms, "ms"),
      row("DSA (next start)", "p99 latency", measured.p99Ms, "ms", measured.p99Ms / Math.max(baseline.p99Ms, 1)),
    ];
  },
};
