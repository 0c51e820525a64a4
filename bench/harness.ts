import { execFileSync, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import {
  freePort,
  ROOT,
  startServiceProcess,
  stopChild,
  waitForUrl,
  type ServerProcess,
} from "../scripts/server-process";

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

/**
 * The real service as `npm start` runs it (built app, migrations), quiet, on a throw-away database, once its start-up
 * work is over (settle).
 */
export async function startService(extraEnv: Record<string, string> = {}): Promise<ServerProcess> {
  const service = await startServiceProcess({ LOG_LEVEL: "warn", ...extraEnv });
  await settle(service.pid);
  return service;
}

/** Below this share of one core over a window, a process group counts as idle. */
const IDLE_CORES = 0.25;
const SETTLE_WINDOW_MS = 500;
const SETTLE_LIMIT_MS = 60_000;

/**
 * Waits until a started server's process group is idle: for a few seconds after /health first answers, the service
 * warms its share renderer threads in the background (both cores busy; SHARE_IMAGE_WARMUP), and a load begun then
 * measured the warm-up as much as the route (health: 359 req/s against ~900 once idle). Idle means under a quarter of
 * a core over half a second; after a minute it goes on regardless. Returns how long it waited (ms).
 */
export async function settle(pgid: number): Promise<number> {
  const started = performance.now();
  let before = groupCpuSeconds(pgid);
  while (performance.now() - started < SETTLE_LIMIT_MS) {
    await new Promise((resolve) => setTimeout(resolve, SETTLE_WINDOW_MS));
    const now = groupCpuSeconds(pgid);
    if ((now - before) / (SETTLE_WINDOW_MS / 1000) < IDLE_CORES) break;
    before = now;
  }
  return performance.now() - started;
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
  /** Mean latency of the load's requests. */
  meanMs: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
}

/** Load with autocannon after a short warm-up; the same settings are used for a subject and its baseline. */
export interface RequestShape {
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
  /** Bodies handed out in turn across all connections (each request takes the next). */
  bodies?: string[];
}

export async function load(
  url: string,
  seconds = Number(process.env.BENCH_SECONDS ?? 8),
  connections = 32,
  request: RequestShape = {},
): Promise<LoadResult> {
  const { bodies, ...shape } = request;
  let next = 0;
  const options = bodies?.length
    ? { ...shape, requests: [{ setupRequest: (req: object) => ({ ...req, body: bodies[next++ % bodies.length] }) }] }
    : shape;
  await autocannon({ url, connections, duration: 2, ...options });
  const result = await autocannon({ url, connections, duration: seconds, ...options });
  return {
    requestsPerSec: result.requests.average,
    p50Ms: result.latency.p50,
    meanMs: result.latency.mean,
    p99Ms: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}

/**
 * Loads each of `urls` `rounds` times: a round loads every one once, back to back, in an order that rotates from round
 * to round, so each ratio can be taken within a round (this machine's speed drifts within minutes; medianRatio).
 */
export async function loadInRounds<K extends string>(
  urls: Record<K, string | { url: string; request: RequestShape }>,
  rounds: number,
  connections?: number,
): Promise<Record<K, LoadResult[]>> {
  const order = Object.keys(urls) as K[];
  const runs = Object.fromEntries(order.map((kind) => [kind, [] as LoadResult[]])) as Record<K, LoadResult[]>;
  for (let i = 0; i < rounds; i++) {
    for (let j = 0; j < order.length; j++) {
      const kind = order[(i + j) % order.length]!;
      const target = urls[kind];
      runs[kind].push(
        typeof target === "string"
          ? await load(target, undefined, connections)
          : await load(target.url, undefined, connections, target.request),
      );
    }
  }
  return runs;
}

/** The median over the rounds of a's figure divided by b's in the same round (a divisor below 1 counts as 1). */
export function medianRatio(
  a: readonly LoadResult[],
  b: readonly LoadResult[],
  pick: (r: LoadResult) => number,
): number {
  return median(a.map((r, i) => pick(r) / Math.max(pick(b[i]!), 1)));
}

/** Resident memory (MiB) of every process in a process group, read from ps. */
export function groupRssMiB(pgid: number): number {
  const pids = execFileSync("pgrep", ["-g", String(pgid)], { encoding: "utf8" })
    .trim()
    .split(/\s+/)
    .join(",");
  const out = execFileSync("ps", ["-o", "rss=", "-p", pids], { encoding: "utf8" });
  return (
    out
      .split("\n")
      .map((l) => Number(l.trim()) || 0)
      .reduce((a, b) => a + b, 0) / 1024
  );
}

/** CPU time (s) used so far by every live process of a process group, all their threads included (/proc). */
function groupCpuSeconds(pgid: number): number {
  const ticksPerSecond = 100; // USER_HZ: what /proc reports in on Linux
  let ticks = 0;
  for (const pid of execFileSync("pgrep", ["-g", String(pgid)], { encoding: "utf8" })
    .trim()
    .split(/\s+/)) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      ticks += Number(fields[11]) + Number(fields[12]); // utime, stime
    } catch {
      // exited in between
    }
  }
  return ticks / ticksPerSecond;
}

/** Busy and total CPU time of the whole machine so far (/proc/stat, in ticks). */
function machineTicks(): { busy: number; total: number } {
  const [, ...values] = fs.readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/);
  const n = values.map(Number);
  const total = n.slice(0, 8).reduce((a, b) => a + b, 0);
  return { busy: total - n[3]! - n[4]!, total };
}

export interface CpuUse {
  /** Cores the process group kept busy on average (1.5 = one and a half cores). */
  groupCores: number;
  /** Share of the whole machine's CPU time that was busy (every process), in percent. */
  machineBusyPct: number;
}

/** Runs `work` and reports how much CPU a server's process group and the whole machine used meanwhile. */
export async function measureCpu<T>(pgid: number, work: () => Promise<T>): Promise<{ result: T; cpu: CpuUse }> {
  const [groupBefore, machineBefore, started] = [groupCpuSeconds(pgid), machineTicks(), performance.now()];
  const result = await work();
  const [groupAfter, machineAfter, seconds] = [
    groupCpuSeconds(pgid),
    machineTicks(),
    (performance.now() - started) / 1000,
  ];
  return {
    result,
    cpu: {
      groupCores: (groupAfter - groupBefore) / seconds,
      machineBusyPct:
        (100 * (machineAfter.busy - machineBefore.busy)) / Math.max(1, machineAfter.total - machineBefore.total),
    },
  };
}

/**
 * Little's law for a closed-loop load (each connection sends its next request when its answer arrives, as autocannon
 * and alternating-load do): connections = throughput × (mean latency + the client's own time per request). So the
 * throughput at which `connections` wait `meanMs` on average is connections ÷ (meanMs + the client's time); with the
 * client's time taken as zero, connections ÷ meanMs, a little above what is needed when the client is busy. A bench
 * sets it beside measured throughputs and mean latencies, which are the evidence.
 */
export function throughputForMeanLatency(connections: number, meanMs: number): number {
  return (1000 * connections) / meanMs;
}

/** The middle value (the mean of the two middle ones for an even count). */
/** A seeded random source (mulberry32), so every run of a benchmark builds the same data. */
export function seededRandom(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The nearest-rank percentile `p` (0–100); NaN for no values. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/**
 * A migrated SQLite database in a new temporary folder, and this process's settings pointed at it (no env file,
 * quiet logs, plus `env`): for the benches that call the library in-process.
 */
export async function inProcessDatabase(name: string, env: Record<string, string>): Promise<{ dir: string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `dsa-bench-${name}-`));
  const url = `file:${path.join(dir, `${name}.db`)}`;
  const migrate = spawnSync(path.join(ROOT, "node_modules", ".bin", "prisma"), ["migrate", "deploy"], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: url },
    stdio: "ignore",
  });
  if (migrate.status !== 0) throw new Error("prisma migrate deploy failed for the benchmark database");
  const { setEnvironmentForTests } = await import("@/lib/settings/settings");
  setEnvironmentForTests({
    ...process.env,
    DATABASE_URL: url,
    ENV_FILE: path.join(dir, ".env"),
    LOG_LEVEL: "silent",
    ...env,
  });
  return { dir };
}
