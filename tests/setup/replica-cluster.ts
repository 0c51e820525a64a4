import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import type { AddressInfo } from "node:net";
import path from "node:path";
import pg from "pg";
import { createEmptyDatabase, POSTGRES_ADMIN_URL, testDatabasePrefix } from "../kits/db/postgres-test-databases";
import { freePort, startServiceProcess, type ServerProcess } from "../../scripts/server-process";
import { TEST_SERVER_ENV } from "./api-server";

// The replica test: two replicas of the built service on one PostgreSQL database and one Redis of
// their own, behind a round-robin proxy. Everything here is started by the test and torn down by close().

export type ReplicaName = "A" | "B";
export const REPLICA_NAMES: readonly ReplicaName[] = ["A", "B"];

/** Response header naming the replica that answered a request sent through the proxy. */
export const REPLICA_HEADER = "x-dsa-replica";

// ---- Redis

export interface RedisServer {
  url: string;
  /** kill -9: the outage a crashed Redis causes (the replicas keep reconnecting in the background). */
  kill(): Promise<void>;
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once("exit", () => resolve()));
}

function redisAnswersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.once("error", () => done(false));
    socket.once("data", (data) => done(data.toString().startsWith("+PONG")));
    socket.once("connect", () => socket.write("PING\r\n"));
  });
}

/** A redis-server of the test's own on a free port, without persistence, so stopping it touches nothing else. */
export async function startRedisServer(): Promise<RedisServer> {
  const port = await freePort();
  const child = spawn(
    "/usr/bin/redis-server",
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    {
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000));
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const deadline = Date.now() + 10_000;
  while (!(await redisAnswersPing(port))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`redis-server on port ${port} did not start:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url: `redis://127.0.0.1:${port}/0`,
    kill: async () => {
      child.kill("SIGKILL");
      await exited(child);
    },
  };
}

// ---- the round-robin proxy

export interface RoundRobinProxy {
  baseUrl: string;
  /** The replica each request went to, in arrival order. */
  forwarded: ReplicaName[];
  close(): Promise<void>;
}

/**
 * One address in front of the replicas: each request goes to the next replica in turn, request and response
 * bodies piped as streams (an SSE response reaches the client event by event, unbuffered), status and headers
 * copied, Host kept (the service checks Origin against it). `targets` is read per request, so a restarted
 * replica on a new port takes its old turn.
 */
export async function startRoundRobinProxy(
  targets: () => { name: ReplicaName; baseUrl: string }[],
): Promise<RoundRobinProxy> {
  const forwarded: ReplicaName[] = [];
  // No pooled sockets: a killed replica must not leave a dead keep-alive socket for the next request.
  const agent = new http.Agent({ keepAlive: false });
  let turn = 0;
  const server = http.createServer((req, res) => {
    const list = targets();
    const target = list[turn++ % list.length]!;
    forwarded.push(target.name);
    const upstream = http.request(
      new URL(req.url ?? "/", target.baseUrl),
      { method: req.method, headers: req.headers, agent },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, { ...answer.headers, [REPLICA_HEADER]: target.name });
        res.flushHeaders();
        answer.pipe(res);
      },
    );
    upstream.on("error", (error) => {
      if (res.headersSent) return void res.destroy();
      res.writeHead(502, { "content-type": "application/json", [REPLICA_HEADER]: target.name });
      res.end(JSON.stringify({ error: "bad_gateway", message: error.message }));
    });
    // A client that goes away (an SSE reader closing) closes its upstream request too.
    res.on("close", () => upstream.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    forwarded,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// ---- the cluster

export interface ReplicaCluster {
  databaseUrl: string;
  redis: RedisServer;
  proxy: RoundRobinProxy;
  /** The running replicas; restart() replaces an entry. */
  replicas: Record<ReplicaName, ServerProcess>;
  /** Starts a replica again on its data folder (after kill()), with the environment it had. */
  restart(name: ReplicaName): Promise<ServerProcess>;
  /**
   * The replica a task's lease owner ("<host>:<pid>:<random>") belongs to: the pid's process group is the one the
   * replica's launcher leads. Only while that process lives.
   */
  replicaOfOwner(owner: string): ReplicaName | null;
  /** The end of a replica's server log (failure reports). */
  logTail(name: ReplicaName, chars?: number): string;
  close(): Promise<void>;
}

function processGroupOf(pid: number): number | null {
  try {
    // /proc/<pid>/stat: "pid (comm) state ppid pgrp ..."; comm may hold spaces, so count from its closing paren.
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2]);
  } catch {
    return null;
  }
}

async function dropDatabase(url: string): Promise<void> {
  const name = new URL(url).pathname.slice(1);
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

/**
 * A fresh PostgreSQL database and redis-server, replicas A and B started at the same time on both with `env`
 * (their launchers migrate the empty database concurrently, as replicas of a deployment would), and the proxy.
 * On a failure half way, whatever was started is torn down before the error is rethrown.
 */
export async function startReplicaCluster(env: Record<string, string>): Promise<ReplicaCluster> {
  const cleanup: (() => Promise<void>)[] = [];
  const dataDirs = new Set<string>();
  const replicas = {} as Record<ReplicaName, ServerProcess>;
  const tearDown = async () => {
    for (const step of cleanup.reverse()) await step().catch(() => {});
    for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    const databaseUrl = await createEmptyDatabase(
      `${testDatabasePrefix()}_replica_${Math.random().toString(36).slice(2, 10)}`,
    );
    cleanup.push(() => dropDatabase(databaseUrl));
    const redis = await startRedisServer();
    cleanup.push(() => redis.kill());
    const replicaEnv = { ...TEST_SERVER_ENV, ...env, DATABASE_URL: databaseUrl, REDIS_URL: redis.url };
    // Stopped at close, whichever process holds the name by then (restart() replaces it).
    cleanup.push(async () => {
      await Promise.all(REPLICA_NAMES.map((name) => replicas[name]?.stop()));
    });
    const started = await Promise.allSettled(REPLICA_NAMES.map(() => startServiceProcess(replicaEnv)));
    started.forEach((result, i) => {
      if (result.status !== "fulfilled") return;
      replicas[REPLICA_NAMES[i]!] = result.value;
      dataDirs.add(result.value.dataDir);
    });
    const failed = started.find((r) => r.status === "rejected");
    if (failed) throw failed.reason;
    const proxy = await startRoundRobinProxy(() =>
      REPLICA_NAMES.map((name) => ({ name, baseUrl: replicas[name].baseUrl })),
    );
    cleanup.push(() => proxy.close());

    return {
      databaseUrl,
      redis,
      proxy,
      replicas,
      restart: async (name) => {
        replicas[name] = await startServiceProcess(replicaEnv, { dataDir: replicas[name].dataDir });
        return replicas[name];
      },
      replicaOfOwner: (owner) => {
        const group = processGroupOf(Number(owner.split(":")[1]));
        return REPLICA_NAMES.find((name) => replicas[name].pid === group) ?? null;
      },
      logTail: (name, chars = 4000) => {
        try {
          return fs.readFileSync(path.join(replicas[name].dataDir, "server.log"), "utf8").slice(-chars);
        } catch {
          return "(no server log)";
        }
      },
      close: tearDown,
    };
  } catch (error) {
    await tearDown();
    throw error;
  }
}
