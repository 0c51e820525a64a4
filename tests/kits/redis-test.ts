import { randomUUID } from "node:crypto";
import os from "node:os";
import path from "node:path";
import Redis from "ioredis";
import { setEnvironmentForTests } from "@/lib/settings/settings";
import { setRedisNamespaceForTests } from "@/lib/redis/keys";

// Test support for code that uses Redis: the Redis at DSA_TEST_REDIS_URL (default the machine's local one), a
// port where nothing listens (an outage), and a key namespace of the test file's own, removed afterwards, so
// test files can run at the same time.

export const REDIS_TEST_URL = process.env.DSA_TEST_REDIS_URL || "redis://127.0.0.1:6379";
export const REDIS_CLOSED_URL = "redis://127.0.0.1:6390";

/** Settings for a test: no env file (the working copy's .env must not leak in), REDIS_URL and the extras. */
export function useRedisSettings(redisUrl: string | null, extra: Record<string, string> = {}): void {
  setEnvironmentForTests({
    ENV_FILE: path.join(os.tmpdir(), "dsa-redis-test-missing.env"),
    LOG_LEVEL: "silent",
    ...(redisUrl ? { REDIS_URL: redisUrl } : {}),
    ...extra,
  });
}

/** Starts a fresh namespace (every key and channel built from now on lives under it); returns it. */
export function useTestNamespace(): string {
  const namespace = `dsa-test:${randomUUID()}:`;
  setRedisNamespaceForTests(namespace);
  return namespace;
}

/** Deletes every key of the namespace and goes back to the default one. */
export async function dropTestNamespace(namespace: string): Promise<void> {
  setRedisNamespaceForTests(null);
  const client = new Redis(REDIS_TEST_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await client.connect();
    let cursor = "0";
    do {
      const [next, keys] = await client.scan(cursor, "MATCH", `${namespace}*`, "COUNT", 500);
      if (keys.length > 0) await client.del(...keys);
      cursor = next;
    } while (cursor !== "0");
  } finally {
    client.disconnect();
  }
}

export async function waitFor(check: () => boolean, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("timed out waiting for the condition");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
