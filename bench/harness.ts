import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";

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

export const ROOT = path.resolve(import.meta.dirname, "..");

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export async function waitForUrl(url: string, child: ChildProcess, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${url}: process exited with ${child.exitCode}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

export interface RunningServer {
  baseUrl: string;
  stop(): Promise<void>;
}

/** The real service as `npm start` runs it (built app, migrations), on a throw-away database. */
export async function startService(extraEnv: Record<string, string> = {}): Promise<RunningServer> {
  if (!fs.existsSync(path.join(ROOT, process.env.NEXT_DIST_DIR || ".next", "BUILD_ID"))) throw new Error("run `npm run build` before `npm run bench`");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dsa-bench-"));
  const port = await freePort();
  const child = spawn(path.join(ROOT, "node_modules", ".bin", "tsx"), ["scripts/start.ts"], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOSTNAME: "127.0.0.1",
      DATABASE_URL: `file:${path.join(dir, "bench.db")}`,
      ENV_FILE: path.join(dir, ".env"),
      LOG_LEVEL: "warn",
      NEXT_TELEMETRY_DISABLED: "1",
      ...extraEnv,
    },
    stdio: "ignore",
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitForUrl(`${baseUrl}/api/v1/health`, child);
  return { baseUrl, stop: () => stopChild(child) };
}

/** A separate Node process running `source` (an ES module that listens on process.env.PORT). */
export async function startNodeServer(source: string, readyPath: string): Promise<RunningServer> {
  const port = await freePort();
  const child = spawn(process.execPath, ["--input-type=module", "-e", source], {
    env: { ...process.env, PORT: String(port) },
    stdio: "ignore",
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitForUrl(`${baseUrl}${readyPath}`, child);
  return { baseUrl, stop: () => stopChild(child) };
}

function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

export interface LoadResult {
  requestsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
}

/** Load with autocannon after a short warm-up; the same settings are used for a subject and its baseline. */
export async function load(url: string, seconds = Number(process.env.BENCH_SECONDS ?? 8), connections = 32): Promise<LoadResult> {
  await autocannon({ url, connections, duration: 2 });
  const result = await autocannon({ url, connections, duration: seconds });
  return {
    requestsPerSec: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}
