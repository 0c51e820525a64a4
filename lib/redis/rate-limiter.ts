import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract } from "rate-limiter-flexible";
import { redisConnection, type RedisConnection } from "./connection";
import { redisKey } from "./keys";

export interface SharedLimiterOptions {
  /** Names the counters (in Redis: under the service's namespace). */
  keyPrefix: string;
  points: number;
  /** Seconds. */
  duration: number;
}

/**
 * A rate limiter whose counters every replica shares when REDIS_URL is set (rate-limiter-flexible's Redis backend:
 * one atomic Lua increment per take), and the plain in-memory limiter without Redis. While Redis cannot answer, the
 * Redis limiter hands each call to an in-memory "insurance" limiter with the same budget, so limits still hold per
 * process instead of failing open or refusing everyone; it does not wait for a reconnect to decide.
 */
export function sharedRateLimiter(
  options: SharedLimiterOptions,
  connection: RedisConnection | null = redisConnection(),
): RateLimiterAbstract {
  const memory = new RateLimiterMemory({
    keyPrefix: options.keyPrefix,
    points: options.points,
    duration: options.duration,
  });
  if (!connection) return memory;
  return new RateLimiterRedis({
    storeClient: connection.client,
    keyPrefix: redisKey("rl", options.keyPrefix),
    points: options.points,
    duration: options.duration,
    rejectIfRedisNotReady: true,
    insuranceLimiter: memory,
  });
}
