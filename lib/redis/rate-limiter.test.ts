import { RateLimiterRes } from "rate-limiter-flexible";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { resetTokenRateLimit, takeTokenRequest } from "@/lib/auth/api-token-rate-limit";
import { FAILURES_PER_CLIENT, loginFailed, resetLoginRateLimit, takeLoginAttempt } from "@/lib/auth/login-rate-limit";
import { setEnvironmentForTests } from "@/lib/settings/settings";
import { ApiError } from "@/lib/errors/api-error";
import { MarketStartLimiter } from "@/lib/tasks/market-rate-limit";
import { closeRedisConnections, RedisConnection, redisConnection } from "./connection";
import { sharedRateLimiter } from "./rate-limiter";
import { dropTestNamespace, REDIS_TEST_URL, useRedisSettings, useTestNamespace } from "@/tests/kits/redis-test";

// With REDIS_URL the limits count across replicas. A "replica" is a limiter with its own Redis
// connection, or (for the module-level limiters) the same module after its in-process state was dropped.

let namespace = "";
const opened: RedisConnection[] = [];

async function connection(): Promise<RedisConnection> {
  const own = new RedisConnection(REDIS_TEST_URL);
  opened.push(own);
  await own.usableClient();
  return own;
}

async function status(work: () => Promise<void>): Promise<number> {
  try {
    await work();
    return 200;
  } catch (error) {
    if (error instanceof ApiError) return error.status;
    throw error;
  }
}

beforeEach(async () => {
  namespace = useTestNamespace();
  useRedisSettings(REDIS_TEST_URL);
  resetLoginRateLimit();
  resetTokenRateLimit();
  // The server opens its connection at start (instrumentation.ts); until it is ready the limits count in memory.
  await redisConnection()!.usableClient();
});
afterEach(async () => {
  for (const own of opened.splice(0)) own.close();
  closeRedisConnections();
  resetLoginRateLimit();
  resetTokenRateLimit();
  await dropTestNamespace(namespace);
});
afterAll(() => setEnvironmentForTests(process.env));

describe("rate limits shared through Redis", () => {
  it("two limiter instances (two replicas) spend one budget", async () => {
    const options = { keyPrefix: "shared", points: 3, duration: 60 };
    const a = sharedRateLimiter(options, await connection());
    const b = sharedRateLimiter(options, await connection());
    await a.consume("k");
    await b.consume("k");
    await a.consume("k");
    await expect(b.consume("k")).rejects.toBeInstanceOf(RateLimiterRes);
    await expect(a.consume("k")).rejects.toBeInstanceOf(RateLimiterRes);
    // Another key has its own budget.
    await expect(b.consume("other")).resolves.toMatchObject({ remainingPoints: 2 });
  });

  it("concurrent takes from two replicas never pass the budget", async () => {
    const options = { keyPrefix: "burst", points: 5, duration: 60 };
    const limiters = [sharedRateLimiter(options, await connection()), sharedRateLimiter(options, await connection())];
    const results = await Promise.allSettled(Array.from({ length: 100 }, (_, i) => limiters[i % 2]!.consume("k")));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(5);
  });

  it("login: the per-client limit is global, failures on one replica count on the other", async () => {
    for (let i = 0; i < 3; i++) {
      expect(await status(() => takeLoginAttempt("10.0.0.1"))).toBe(200);
      await loginFailed();
    }
    // Another process: no in-memory state of its own, the same counters in Redis.
    resetLoginRateLimit();
    for (let i = 3; i < FAILURES_PER_CLIENT; i++) expect(await status(() => takeLoginAttempt("10.0.0.1"))).toBe(200);
    expect(await status(() => takeLoginAttempt("10.0.0.1"))).toBe(429);
    expect(await status(() => takeLoginAttempt("10.0.0.2"))).toBe(200);
  });

  it("API tokens: one token's budget per minute is shared by the replicas", async () => {
    useRedisSettings(REDIS_TEST_URL, { API_TOKEN_RATE_PER_MINUTE: "3" });
    expect(await status(() => takeTokenRequest("token-1"))).toBe(200);
    expect(await status(() => takeTokenRequest("token-1"))).toBe(200);
    resetTokenRateLimit();
    expect(await status(() => takeTokenRequest("token-1"))).toBe(200);
    expect(await status(() => takeTokenRequest("token-1"))).toBe(429);
    expect(await status(() => takeTokenRequest("token-2"))).toBe(200);
  });

  it("task starts per market: the replicas together start at most the rate per minute", async () => {
    const limits = () => ({ ratePerMinute: 3, burst: 10 });
    const [ca, cb] = [await connection(), await connection()];
    const a = new MarketStartLimiter(limits, () => ca);
    const b = new MarketStartLimiter(limits, () => cb);
    expect(await a.throttled(["cn", "us"])).toEqual([]);
    await a.take("cn");
    await b.take("cn");
    expect(await b.throttled(["cn", "us"])).toEqual([]);
    await a.take("cn");
    // Each replica's own bucket (burst 10) would still allow more; the shared count says no.
    expect(await a.throttled(["cn", "us"])).toEqual(["cn"]);
    expect(await b.throttled(["cn", "us", "hk"])).toEqual(["cn"]);
  });

  it("without REDIS_URL the market limiter is the process's token bucket alone", async () => {
    useRedisSettings(null);
    const limiter = new MarketStartLimiter(() => ({ ratePerMinute: 60, burst: 2 }));
    await limiter.take("hk");
    expect(await limiter.throttled(["hk"])).toEqual([]);
    await limiter.take("hk");
    expect(await limiter.throttled(["hk", "us"])).toEqual(["hk"]);
  });
});
