import type { RateLimiterAbstract } from "rate-limiter-flexible";
import { redisConnection, type RedisConnection } from "@/lib/redis/connection";
import { sharedRateLimiter } from "@/lib/redis/rate-limiter";

/**
 * Token bucket per market: at most `ratePerMinute` task starts per market per minute, with a burst of
 * `burst` so one batch can fill the workers at once. Time is passed in so tests need no sleeping.
 */
export class MarketRateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(private readonly limits: () => { ratePerMinute: number; burst: number }) {}

  private bucket(market: string, at: number) {
    const { ratePerMinute, burst } = this.limits();
    const capacity = Math.max(1, burst);
    const current = this.buckets.get(market) ?? { tokens: capacity, at };
    const refilled = Math.min(capacity, current.tokens + ((at - current.at) * ratePerMinute) / 60_000);
    const next = { tokens: refilled, at };
    this.buckets.set(market, next);
    return next;
  }

  /** Markets that cannot start a task right now. */
  throttled(markets: Iterable<string>, at = Date.now()): string[] {
    return [...markets].filter((market) => this.bucket(market, at).tokens < 1);
  }

  take(market: string, at = Date.now()): boolean {
    const bucket = this.bucket(market, at);
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  }

  /** Milliseconds until `market` may start again (0 when it may now). */
  waitMs(market: string, at = Date.now()): number {
    const bucket = this.bucket(market, at);
    if (bucket.tokens >= 1) return 0;
    return Math.ceil(((1 - bucket.tokens) * 60_000) / this.limits().ratePerMinute);
  }
}

interface SharedBudget {
  ratePerMinute: number;
  limiter: RateLimiterAbstract;
}

/**
 * The start limit the worker pool applies. Alone it is this process's token bucket; with REDIS_URL a shared
 * per-market count (rate-limiter-flexible, Redis backend) caps the starts of all replicas together at
 * `ratePerMinute` per minute, while the local bucket still spreads each process's own starts (its burst).
 * While Redis is unreachable the shared count falls back to memory, so each process keeps its own limit.
 */
export class MarketStartLimiter {
  private readonly local: MarketRateLimiter;
  private shared: SharedBudget | null = null;

  constructor(
    private readonly limits: () => { ratePerMinute: number; burst: number },
    private readonly connection: () => RedisConnection | null = redisConnection,
  ) {
    this.local = new MarketRateLimiter(limits);
  }

  private sharedLimiter(): RateLimiterAbstract | null {
    const connection = this.connection();
    if (!connection) return null;
    const { ratePerMinute } = this.limits();
    if (this.shared?.ratePerMinute !== ratePerMinute) {
      this.shared = {
        ratePerMinute,
        limiter: sharedRateLimiter({ keyPrefix: "market-starts", points: ratePerMinute, duration: 60 }, connection),
      };
    }
    return this.shared.limiter;
  }

  /** Markets that cannot start a task right now (here, or across the replicas). */
  async throttled(markets: readonly string[]): Promise<string[]> {
    const out = new Set(this.local.throttled(markets));
    const shared = this.sharedLimiter();
    if (!shared) return [...out];
    const points = this.limits().ratePerMinute;
    const counts = await Promise.all(
      markets.map((market) => (out.has(market) ? null : shared.get(market).catch(() => null))),
    );
    markets.forEach((market, i) => {
      if ((counts[i]?.consumedPoints ?? 0) >= points) out.add(market);
    });
    return markets.filter((market) => out.has(market));
  }

  /**
   * Counts one start. The task is already claimed, so a start over the shared limit (two replicas taking the last
   * one at once) still runs; its count makes the next ones wait.
   */
  async take(market: string): Promise<void> {
    this.local.take(market);
    await this.sharedLimiter()
      ?.consume(market)
      .catch(() => undefined);
  }
}
