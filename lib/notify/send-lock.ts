import { createHash, randomUUID } from "node:crypto";
import type { TSettings } from "@/lib/settings/settings-schema";
import { redisConnection, type RedisConnection } from "@/lib/redis/connection";
import { redisKey } from "@/lib/redis/keys";
import { releaseLock, tryLock } from "@/lib/redis/lock";

export type ReleaseSendLock = () => Promise<void>;

const POLL_MS = 100;
const RECORD_SLACK_MS = 5000;
const noLock: ReleaseSendLock = async () => {};

/**
 * The longest one channel's send of `parts` parts can take (every attempt timing out, the backoff between them, the
 * record written): how long the send lock is held at most, so a replica that dies mid-send frees it by itself.
 */
export function sendBudgetMs(
  settings: Pick<
    TSettings,
    "NOTIFICATION_RETRY_ATTEMPTS" | "NOTIFICATION_TIMEOUT_MS" | "NOTIFICATION_RETRY_BASE_DELAY_MS"
  >,
  parts: number,
): number {
  const attempts = settings.NOTIFICATION_RETRY_ATTEMPTS;
  const backoff = settings.NOTIFICATION_RETRY_BASE_DELAY_MS * (2 ** Math.max(0, attempts - 1) - 1);
  return Math.max(1, parts) * (attempts * (settings.NOTIFICATION_TIMEOUT_MS + 1000) + backoff) + RECORD_SLACK_MS;
}

/**
 * One replica at a time sends a given message (dedup key) to a given channel. The lock is taken before
 * the duplicate check and released once the outcome is recorded, so a second replica with the same message waits,
 * then finds the first one's "sent" row and suppresses its copy, or sends it itself when the first failed: across
 * replicas what the in-flight map does inside one process. Without Redis, or while it is unreachable, there is no
 * lock and sending goes on as in one process (the outage is logged once by the connection).
 */
export async function takeSendLock(
  channel: string,
  dedupKey: string,
  holdMs: number,
  connection: RedisConnection | null = redisConnection(),
): Promise<ReleaseSendLock> {
  if (!connection) return noLock;
  const client = connection.readyClient();
  if (!client) {
    connection.degraded();
    return noLock;
  }
  const key = redisKey("notify-send", channel, createHash("sha256").update(dedupKey).digest("hex").slice(0, 32));
  const token = randomUUID();
  // The holder's lock expires within holdMs even if it died; past that, go on rather than wait for ever.
  const deadline = Date.now() + holdMs + 1000;
  try {
    while (!(await tryLock(client, key, token, holdMs))) {
      if (Date.now() > deadline) return noLock;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  } catch (error) {
    connection.degraded(error);
    return noLock;
  }
  return async () => {
    await releaseLock(client, key, token).catch((error: unknown) => connection.degraded(error));
  };
}
