import { execFileSync, spawn } from "node:child_process";
import autocannon from "autocannon";
import { freePort, startServiceProcess, stopChild, waitForUrl, type ServerProcess } from "../scripts/server-process";

export interface BenchRow {
  benchmark: string;
  subject: string;
  metric: string;
  value: number;
  unit: string;
  /** value divided by the baseline measured in the same run (when there is one). */
  ratio?: number;
  note?: string;
}

export interface Benchmark {
  name: string;
  run(): Promise<BenchRow[]>;
}

export interface RunningServer {
  baseUrl: string;
  /** Leader of the server's process group (for memory readings). */
  pid?: number;
  stop(): Promise<void>;
}

/** The real service as `npm start` runs it (built app, migrations), quiet, on a throw-away database. */
export function startService(extraEnv: Record<string, string> = {}): Promise<ServerProcess> {
  return startServiceProcess({ LOG_LEVEL: "warn", ...extraEnv });
}

/** A separate Node process running `source` (an ES module that listens on process.env.PORT). */
export async function startNodeServer(source: string, readyPath: string): Promise<RunningServer> {
  const port = await freePort();
  const child = spawn(process.execPath, ["--input-type=module", "-e", source], {
    env: { ...process.env, PORT: String(port) },
    detached: true,
    stdio: "ignore",
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitForUrl(`${baseUrl}${readyPath}`, child);
  return { baseUrl, pid: child.pid, stop: () => stopChild(child) };
}

export interface LoadResult {
  requestsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
}

/** Load with autocannon after a short warm-up; the same settings are used for a subject and its baseline. */
export interface RequestShape {
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
}

export async function load(
  url: string,
  seconds = Number(process.env.BENCH_SECONDS ?? 8),
  connections = 32,
  request: RequestShape = {},
): Promise<LoadResult> {
  await autocannon({ url, connections, duration: 2, ...request });
  const result = await autocannon({ url, connections, duration: seconds, ...request });
  return {
    requestsPerSec: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}

/** Resident memory (MiB) of every process in a process group, read from ps. */
export function groupRssMiB(pgid: number): number {
  const pids = execFileSync("pgrep", ["-g", String(pgid)], { encoding: "utf8" }).trim().split(/\s+/).join(",");
  const out = execFileSync("ps", ["-o", "rss=", "-p", pids], { encoding: "utf8" });
  return out.split("\n").map((l) => Number(l.trim()) || 0).reduce((a, b) => a + b, 0) / 1024;
}
