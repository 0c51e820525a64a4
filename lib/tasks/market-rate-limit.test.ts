import { describe, expect, it } from "vitest";
import { MarketRateLimiter } from "./market-rate-limit";

describe("per-market rate limit of task starts", () => {
  it("allows a burst, then one start per interval, per market independently", () => {
    const limiter = new MarketRateLimiter(() => ({ ratePerMinute: 60, burst: 2 }));
    const t0 = 1_000_000;
    expect(limiter.take("cn", t0)).toBe(true);
    expect(limiter.take("cn", t0)).toBe(true);
    expect(limiter.take("cn", t0)).toBe(false);
    expect(limiter.throttled(["cn", "us"], t0)).toEqual(["cn"]);
    expect(limiter.take("us", t0)).toBe(true);
    expect(limiter.waitMs("cn", t0)).toBe(1000);
    expect(limiter.take("cn", t0 + 999)).toBe(false);
    // Two seconds refill the burst of two, not more.
    expect(limiter.take("cn", t0 + 2000)).toBe(true);
    expect(limiter.take("cn", t0 + 2000)).toBe(true);
    expect(limiter.throttled(["cn"], t0 + 2000)).toEqual(["cn"]);
  });

  it("never lets more than the rate through over a long run", () => {
    const limiter = new MarketRateLimiter(() => ({ ratePerMinute: 120, burst: 3 }));
    let started = 0;
    for (let t = 0; t < 60_000; t += 50) if (limiter.take("hk", t)) started++;
    expect(started).toBeLessThanOrEqual(120 + 3);
    expect(started).toBeGreaterThanOrEqual(118);
  });
});
