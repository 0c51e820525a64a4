import net from "node:net";
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { FAILURES_PER_CLIENT, resetLoginRateLimit, takeLoginAttempt } from "@/lib/auth/login-rate-limit";
import { setEnvironmentForTests } from "@/lib/settings/settings";
import { ApiError } from "@/lib/errors/api-error";
import { logger } from "@/lib/log/logger";
import { takeSendLock } from "@/lib/notify/send-lock";
import { InProcessTaskEventBus, taskEventBus, type TaskEvent } from "@/lib/tasks/event-bus";
import { MarketStartLimiter } from "@/lib/tasks/market-rate-limit";
import { RedisTaskEventBus } from "@/lib/tasks/redis-event-bus";
import { closeRedisConnections, RedisConnection, redisConnection } from "./connection";
import { redisKey } from "./keys";
import { LeaderLock } from "./leader-lock";
import { sharedRateLimiter } from "./rate-limiter";
import {
  dropTestNamespace,
  REDIS_CLOSED_URL,
  REDIS_TEST_URL,
  sleep,
  useRedisSettings,
  useTestNamespace,
  waitFor,
} from "@/tests/kits/redis-test";

// REDIS_URL set but nothing answers there. The service keeps working as one process: local events,
// limits in memory, jobs run locally; nothing throws, and the outage is logged once.

const OUTAGE = /^Redis unavailable/;
const redisAddress = new URL(REDIS_TEST_URL);

function progress(id: string): TaskEvent {
  return {
    type: "task_progress",
    task: {
      task_id: id,
      stock_code: "600519",
      status: "processing",
      created_at: "2026-11-22T08:00:00.000Z",
      progress: 5,
      analysis_phase: "auto",
    },
  };
}

/** A TCP relay to the local Redis that can be cut and restored on the same port: an outage without stopping Redis. */
async function startProxy(): Promise<{ port: number; cut(): void; restore(): Promise<void>; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(redisAddress.port || 6379), redisAddress.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("error", () => socket.destroy());
      socket.on("close", () => sockets.delete(socket));
    }
    client.pipe(upstream).pipe(client);
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  });
  const listen = () => new Promise<void>((resolve) => server.listen(port, "127.0.0.1", () => resolve()));
  let port = 0;
  await listen();
  port = (server.address() as net.AddressInfo).port;
  return {
    port,
    cut: () => {
      server.close();
      for (const socket of sockets) socket.destroy();
    },
    restore: listen,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        if (!server.listening) return resolve();
        server.close(() => resolve());
      }),
  };
}

function outageWarnings(spy: ReturnType<typeof vi.spyOn>): number {
  return (spy.mock.calls as unknown[][]).filter((call) =>
    call.some((arg) => typeof arg === "string" && OUTAGE.test(arg)),
  ).length;
}

let warn: ReturnType<typeof vi.spyOn>;

beforeEach(() => {
  useRedisSettings(REDIS_CLOSED_URL);
  resetLoginRateLimit();
  warn = vi.spyOn(logger, "warn");
});
afterEach(() => {
  vi.restoreAllMocks();
  closeRedisConnections();
  resetLoginRateLimit();
  delete (globalThis as { __dsaTaskEventBus?: unknown }).__dsaTaskEventBus;
});
afterAll(() => setEnvironmentForTests(process.env));

describe("Redis down (degraded mode)", () => {
  it("every feature falls back to this process, nothing throws, the outage is logged once", async () => {
    const connection = redisConnection()!;
    // The first connection attempt fails at once (nothing listens on the port).
    await waitFor(() => connection.isDegraded());

    // Task events: this process's listeners still get every event, once, at once.
    const bus = taskEventBus();
    expect(bus).toBeInstanceOf(RedisTaskEventBus);
    const seen: string[] = [];
    bus.subscribe((e) => seen.push(e.task.task_id));
    for (const id of ["a", "b", "c"]) {
      bus.publish(progress(id));
    }
    expect(seen).toEqual(["a", "b", "c"]);

    // Login limit: enforced in memory.
    for (let i = 0; i < FAILURES_PER_CLIENT; i++) await takeLoginAttempt("10.0.0.9");
    await expect(takeLoginAttempt("10.0.0.9")).rejects.toSatisfy((e) => e instanceof ApiError && e.status === 429);

    // A shared limiter answers from its in-memory insurance.
    const limiter = sharedRateLimiter({ keyPrefix: "degraded", points: 2, duration: 60 });
    await limiter.consume("k");
    await limiter.consume("k");
    await expect(limiter.consume("k")).rejects.toMatchObject({ remainingPoints: 0 });

    // Market starts: the local bucket and the in-memory count still hold.
    const market = new MarketStartLimiter(() => ({ ratePerMinute: 2, burst: 5 }));
    await market.take("cn");
    await market.take("cn");
    expect(await market.throttled(["cn", "us"])).toEqual(["cn"]);

    // Leader lock: the job runs here, as it did before Redis.
    const lock = new LeaderLock("alert-evaluator");
    expect(await lock.claim(1000)).toBe(true);
    expect(await lock.run(1000, async () => "ran")).toEqual({ ran: true, value: "ran" });
    await lock.release();

    // Send lock: none; sending goes on.
    const release = await takeSendLock("custom", "alert:1", 1000);
    await release();

    // Reconnect attempts keep failing in the background without another warning.
    await sleep(700);
    expect(outageWarnings(warn)).toBe(1);
  });

  it("Redis going away and coming back: local delivery throughout, one warning, then other replicas' events again", async () => {
    const proxy = await startProxy();
    const info = vi.spyOn(logger, "info");
    const namespace = useTestNamespace();
    const viaProxy = new RedisConnection(`redis://127.0.0.1:${proxy.port}/0`);
    const direct = new RedisConnection(REDIS_TEST_URL);
    try {
      const a = new RedisTaskEventBus(viaProxy, redisKey("task-events"), new InProcessTaskEventBus());
      const b = new RedisTaskEventBus(direct, redisKey("task-events"), new InProcessTaskEventBus());
      await Promise.all([a.subscribed(), b.subscribed(), viaProxy.usableClient(), direct.usableClient()]);
      const seenByA: string[] = [];
      a.subscribe((e) => seenByA.push(e.task.task_id));
      b.publish(progress("before"));
      await waitFor(() => seenByA.includes("before"));

      proxy.cut();
      await waitFor(() => viaProxy.isDegraded());
      a.publish(progress("local-during-outage"));
      b.publish(progress("lost-during-outage"));
      expect(seenByA).toEqual(["before", "local-during-outage"]);

      await proxy.restore();
      await waitFor(() => !viaProxy.isDegraded(), 10_000);
      // Resubscribed on reconnect: the other replica's events arrive again, each once.
      let n = 0;
      await waitFor(() => {
        if (!seenByA.some((id) => id.startsWith("after-"))) b.publish(progress(`after-${n++}`));
        return seenByA.some((id) => id.startsWith("after-"));
      }, 10_000);
      await sleep(100);
      expect(new Set(seenByA).size).toBe(seenByA.length);
      expect(seenByA).not.toContain("lost-during-outage");
      expect(outageWarnings(warn)).toBe(1);
      expect(
        (info.mock.calls as unknown[][]).some((call) =>
          call.some((arg) => typeof arg === "string" && /^Redis available again/.test(arg)),
        ),
      ).toBe(true);
      a.close();
      b.close();
    } finally {
      viaProxy.close();
      direct.close();
      await proxy.close();
      await dropTestNamespace(namespace);
    }
  }, 20_000);

  it("a failed command on a live socket (a timeout while the event loop was busy) ends once Redis answers again, so a later outage is logged too", async () => {
    const info = vi.spyOn(logger, "info");
    const proxy = await startProxy();
    const connection = new RedisConnection(`redis://127.0.0.1:${proxy.port}/0`);
    try {
      expect(await connection.usableClient()).not.toBeNull();
      connection.degraded(new Error("Command timed out"));
      expect(connection.isDegraded()).toBe(true);
      // No reconnect happens (the socket never dropped); the probe's ping ends the outage.
      await waitFor(() => !connection.isDegraded(), 5000);
      expect(
        (info.mock.calls as unknown[][]).some((call) =>
          call.some((arg) => typeof arg === "string" && /^Redis available again/.test(arg)),
        ),
      ).toBe(true);
      proxy.cut();
      await waitFor(() => connection.isDegraded());
      expect(outageWarnings(warn)).toBe(2);
    } finally {
      connection.close();
      await proxy.close();
    }
  }, 20_000);

  it("the warning names the Redis address but never its password", async () => {
    useRedisSettings("redis://:hunter2-secret@127.0.0.1:6390/2");
    const connection = redisConnection()!;
    await waitFor(() => connection.isDegraded());
    const text = JSON.stringify(warn.mock.calls);
    expect(text).toContain("127.0.0.1:6390/2");
    expect(text).not.toContain("hunter2");
  });
});
