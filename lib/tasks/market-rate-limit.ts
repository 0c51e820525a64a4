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
