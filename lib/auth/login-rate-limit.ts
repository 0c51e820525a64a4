import { RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import { getSettings } from "@/lib/settings/settings";
import { ApiError } from "@/lib/errors/api-error";
import { sharedRateLimiter } from "@/lib/redis/rate-limiter";

// docs/api.md §2: 5 failed logins per client per 300 s. rate-limiter-flexible takes a token atomically
// before the (async, slow) password check, so a burst of concurrent guesses cannot all slip past a
// check-then-record window. With REDIS_URL the counters live in Redis, so the limits hold across all replicas
// instead of N replicas giving N times the guesses.
export const FAILURES_PER_CLIENT = 5;
export const FAILURES_GLOBAL = 50;
export const WINDOW_SECONDS = 300;
// Once many clients fail, a client that has failed itself waits this long per extra try.
export const SLOWDOWN_SECONDS = 30;

interface Limiters {
  redisUrl: string;
  perClient: RateLimiterAbstract;
  global: RateLimiterAbstract;
}

// One set per process: Next loads route modules as separate instances that must share the counters.
const holder = globalThis as typeof globalThis & { dsaLoginLimiters?: Limiters };

function limiters(): Limiters {
  const redisUrl = getSettings().REDIS_URL;
  if (holder.dsaLoginLimiters?.redisUrl !== redisUrl) {
    holder.dsaLoginLimiters = {
      redisUrl,
      perClient: sharedRateLimiter({ keyPrefix: "login", points: FAILURES_PER_CLIENT, duration: WINDOW_SECONDS }),
      global: sharedRateLimiter({ keyPrefix: "login-all", points: FAILURES_GLOBAL, duration: WINDOW_SECONDS }),
    };
  }
  return holder.dsaLoginLimiters;
}

const GLOBAL_KEY = "*";

/**
 * The client's address as the nearest trusted hop saw it. The start-up server (scripts/http-server.ts)
 * drops a client-sent X-Forwarded-For unless TRUST_X_FORWARDED_FOR is on, so Next fills it with the
 * socket address; behind a trusted proxy the last entry is the one that proxy appended.
 */
export function clientKey(req: Request): string {
  const forwarded = req.headers.get("x-forwarded-for")?.split(",");
  return forwarded?.[forwarded.length - 1]?.trim() || "unknown";
}

function limited(seconds: number): ApiError {
  const wait = Math.max(1, Math.ceil(seconds));
  return ApiError.of("rate_limited", `Too many failed logins; try again in ${wait} s`, {
    retry_after: wait,
  }).withHeaders({ "Retry-After": String(wait) });
}

/**
 * Counts one login attempt before the password is checked; throws 429 when the client's budget is spent.
 * When failures from everyone pass the global cap, a client that has itself failed in the window is held
 * back too, while a client with no failures still gets its try: a correct password is never refused
 * because of other people's guesses.
 */
export async function takeLoginAttempt(key: string): Promise<void> {
  const { perClient, global } = limiters();
  const before = await perClient.get(key);
  const globalFailures = (await global.get(GLOBAL_KEY))?.consumedPoints ?? 0;
  if (globalFailures >= FAILURES_GLOBAL && (before?.consumedPoints ?? 0) > 0) {
    throw limited(Math.min(SLOWDOWN_SECONDS, (before?.msBeforeNext ?? 0) / 1000));
  }
  try {
    await perClient.consume(key);
  } catch (result) {
    if (result instanceof RateLimiterRes) throw limited(result.msBeforeNext / 1000);
    throw result;
  }
}

/** The attempt failed: it stays counted for the client and adds to the global tally. */
export async function loginFailed(): Promise<void> {
  await limiters().global.penalty(GLOBAL_KEY);
}

/** The attempt succeeded: the client starts again with a full budget. */
export async function loginSucceeded(key: string): Promise<void> {
  await limiters().perClient.delete(key);
}

export function resetLoginRateLimit(): void {
  delete holder.dsaLoginLimiters;
}
