import { inProcessDatabase, type Benchmark, type BenchRow } from "./harness";

const TARGET = { kind: "stock" as const, market: "cn" as const, code: "600519" };
const DAYS = 250;

function msPerCall(started: bigint, calls: number): number {
  return Number(process.hrtime.bigint() - started) / 1e6 / calls;
}

/**
 * Cached daily bars: a cache hit served from SQLite, against the first fetch that fills
 * the cache from the sample provider (latency 0), in one process on a throw-away database.
 */
export const dailyBarsBenchmark: Benchmark = {
  name: "daily-bars",
  async run(): Promise<BenchRow[]> {
    await inProcessDatabase("bars", { MARKET_DATA_SOURCES: "sample" });
    const { getDailyBars } = await import("@/lib/market");
    const { clearDailyBarMemo } = await import("@/lib/market/bars/daily-bars");

    let started = process.hrtime.bigint();
    const first = await getDailyBars(TARGET, DAYS);
    const missMs = msPerCall(started, 1);
    if (first.cache !== "miss" || first.bars.length === 0)
      throw new Error(`expected a cache miss with bars, got ${first.cache}`);

    const rounds = 200;
    for (let i = 0; i < 20; i++) await getDailyBars(TARGET, DAYS);
    started = process.hrtime.bigint();
    for (let i = 0; i < rounds; i++) {
      clearDailyBarMemo();
      const hit = await getDailyBars(TARGET, DAYS);
      if (hit.cache !== "hit") throw new Error(`expected a cache hit, got ${hit.cache}`);
    }
    const hitMs = msPerCall(started, rounds);
    const round = (v: number) => Math.round(v * 1000) / 1000;
    return [
      {
        benchmark: "dailyBars(600519, 250)",
        subject: "first call: sample provider + cache fill",
        metric: "latency",
        value: round(missMs),
        unit: "ms",
      },
      {
        benchmark: "dailyBars(600519, 250)",
        subject: "cached (SQLite read)",
        metric: "latency",
        value: round(hitMs),
        unit: "ms",
        ratio: round(hitMs / missMs),
      },
    ];
  },
};
