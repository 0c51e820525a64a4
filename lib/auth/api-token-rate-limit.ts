import { RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import { getSettings } from "@/lib/settings/settings";
import { ApiError } from "@/lib/errors/api-error";
import { sharedRateLimiter } from "@/lib/redis/rate-limiter";

interface Holder {
  points: number;
  redisUrl: string;
  limiter: RateLimiterAbstract;
}

// One limiter per process (Next loads route modules as separate instances), rebuilt when the setting changes.
// With REDIS_URL its counters are in Redis: a token's budget is per minute across all replicas.
const holder = globalThis as typeof globalThis & { dsaApiTokenLimiter?: Holder };

function limiter(): RateLimiterAbstract {
  const { API_TOKEN_RATE_PER_MINUTE: points, REDIS_URL: redisUrl } = getSettings();
  if (holder.dsaApiTokenLimiter?.points !== points || holder.dsaApiTokenLimiter.redisUrl !== redisUrl) {
    holder.dsaApiTokenLimiter = {
      points,
      redisUrl,
      limiter: sharedRateLimiter({ keyPrefix: "api-token", points, duration: 60 }),
    };
  }
  return holder.dsaApiTokenLimiter.limiter;
}

/** Counts one request of the token; 429 with Retry-After once its per-minute budget is spent. */
export async function takeTokenRequest(tokenId: string): Promise<void> {
  try {
    await limiter().consume(tokenId);
  } catch (result) {
    if (!(result instanceof RateLimiterRes)) throw result;
    const wait = Math.max(1, Math.ceil(result.msBeforeNext / 1000));
    throw ApiError.of("rate_limited", `Too many requests with this API token; try again in ${wait} s`, {
      retry_after: wait,
    }).withHeaders({
      "Retry-After": String(wait),
    });
  }
}

export function resetTokenRateLimit(): void {
  delete holder.dsaApiTokenLimiter;
}
