import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { setEnvironmentForTests } from "@/lib/settings/settings";
import { closeRedisConnections, RedisConnection } from "@/lib/redis/connection";
import { dropTestNamespace, REDIS_TEST_URL, sleep, useRedisSettings, useTestNamespace } from "@/tests/kits/redis-test";
import { sendBudgetMs, takeSendLock } from "./send-lock";

// The same message is not sent to the same channel by two replicas at once. Each "replica" has its
// own Redis connection.

let namespace = "";
const opened: RedisConnection[] = [];

async function replica(): Promise<RedisConnection> {
  const connection = new RedisConnection(REDIS_TEST_URL);
  opened.push(connection);
  await connection.usableClient();
  return connection;
}

beforeEach(() => {
  namespace = useTestNamespace();
});
afterEach(async () => {
  for (const connection of opened.splice(0)) connection.close();
  closeRedisConnections();
  await dropTestNamespace(namespace);
});
afterAll(() => setEnvironmentForTests(process.env));

describe("notification send lock", () => {
  it("a second replica with the same message and channel waits until the first has sent and recorded it", async () => {
    const [a, b] = [await replica(), await replica()];
    const releaseA = await takeSendLock("custom", "alert:12", 10_000, a);
    const started = Date.now();
    let bHolds = false;
    const second = takeSendLock("custom", "alert:12", 10_000, b).then((release) => {
      bHolds = true;
      return release;
    });
    await sleep(250);
    expect(bHolds).toBe(false);
    await releaseA();
    const releaseB = await second;
    expect(Date.now() - started).toBeGreaterThanOrEqual(240);
    await releaseB();
  });

  it("another message or another channel is not held up", async () => {
    const [a, b] = [await replica(), await replica()];
    await takeSendLock("custom", "alert:12", 10_000, a);
    const started = Date.now();
    await takeSendLock("custom", "alert:13", 10_000, b);
    await takeSendLock("telegram", "alert:12", 10_000, b);
    // Held up would mean waiting out the 10 s lock; the margin absorbs a loaded machine.
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it("a replica that dies holding the lock frees it when its send budget runs out", async () => {
    const [a, b] = [await replica(), await replica()];
    await takeSendLock("custom", "digest:3", 300, a);
    a.close();
    const started = Date.now();
    // b's own budget is long (it gives up waiting after 3 s + 1 s): getting the lock well before that is a's TTL
    // (300 ms) running out, not b giving up.
    const release = await takeSendLock("custom", "digest:3", 3000, b);
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
    expect(Date.now() - started).toBeLessThan(3000);
    await release();
  });

  it("without REDIS_URL there is no lock: both go at once", async () => {
    useRedisSettings(null);
    const first = await takeSendLock("custom", "k", 10_000);
    const started = Date.now();
    await takeSendLock("custom", "k", 10_000);
    // A lock would make this wait the first one's 10 s.
    expect(Date.now() - started).toBeLessThan(2000);
    await first();
  });

  it("the lock is held at most as long as every attempt of every part may take", () => {
    const settings = {
      NOTIFICATION_RETRY_ATTEMPTS: 3,
      NOTIFICATION_TIMEOUT_MS: 10_000,
      NOTIFICATION_RETRY_BASE_DELAY_MS: 1000,
    };
    // 3 × (10 s + 1 s backstop) + 1 s + 2 s backoff per part, plus 5 s to record.
    expect(sendBudgetMs(settings, 1)).toBe(36_000 + 5000);
    expect(sendBudgetMs(settings, 2)).toBe(72_000 + 5000);
  });
});
