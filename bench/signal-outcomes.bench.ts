import { inProcessDatabase, type Benchmark, type BenchRow } from "./harness";

const SIGNALS = 10_000;
const RUN_LIMIT = 500; // the API's largest limit per run
const STOCKS = ["600519", "000001", "300750", "601318", "000858"];
const ACTIONS = ["buy", "add", "hold", "reduce", "sell", "avoid", "watch"] as const;
const DAY = 86_400_000;

function seconds(started: bigint): number {
  return Number(process.hrtime.bigint() - started) / 1e9;
}

/**
 * Decision-signal outcomes: 10,000 signals spread over the last ~300 days of five sample A-shares,
 * evaluated over 1d/3d/5d/10d by runs of 500 signals (as POST .../outcomes/run with limit 500 would), in one
 * process on a throw-away database. Baseline: the pure outcome engine over the same signals and bars, in memory.
 */
export const signalOutcomesBenchmark: Benchmark = {
  name: "signal-outcomes",
  async run(): Promise<BenchRow[]> {
    await inProcessDatabase("signals", { MARKET_DATA_SOURCES: "sample" });
    const { db } = await import("@/lib/db/client");
    const { runOutcomes } = await import("@/lib/signals/outcomes");
    const { evaluateOutcome } = await import("@/lib/signals/outcome-engine");
    const { getDailyBars } = await import("@/lib/market");
    const { lastClosedTradingDay } = await import("@/lib/market/market-time");

    const now = Date.now();
    const rows = Array.from({ length: SIGNALS }, (_, i) => {
      const code = STOCKS[i % STOCKS.length]!;
      const createdAt = new Date(now - (i % 300) * DAY - (i % 7) * 3600_000);
      return {
        stockCode: code,
        market: "cn",
        assetType: "stock",
        targetKey: `stock:cn:${code}`,
        sourceType: "agent",
        triggerSource: "bench",
        action: ACTIONS[i % ACTIONS.length]!,
        horizon: "3d",
        planQuality: "minimal",
        status: "active",
        createdAt,
        updatedAt: createdAt,
      };
    });
    for (let i = 0; i < rows.length; i += 1000) await db().decisionSignal.createMany({ data: rows.slice(i, i + 1000) });

    // Warm the bar cache once (the first run would otherwise pay the provider fetch).
    for (const code of STOCKS) await getDailyBars({ kind: "stock", market: "cn", code }, 330);

    let started = process.hrtime.bigint();
    let evaluated = 0;
    for (let run = 0; run < SIGNALS / RUN_LIMIT; run += 1) {
      evaluated += (await runOutcomes({ force: false, limit: RUN_LIMIT })).evaluated;
    }
    const fullSeconds = seconds(started);
    const stored = await db().decisionSignalOutcome.count();
    if (evaluated !== SIGNALS * 4 || stored !== SIGNALS * 4)
      throw new Error(`expected ${SIGNALS * 4} rows, evaluated ${evaluated}, stored ${stored}`);

    const bars = new Map<string, Awaited<ReturnType<typeof getDailyBars>>["bars"]>();
    for (const code of STOCKS) bars.set(code, (await getDailyBars({ kind: "stock", market: "cn", code }, 330)).bars);
    started = process.hrtime.bigint();
    for (const row of rows) {
      const anchor = lastClosedTradingDay("cn", row.createdAt);
      for (const n of [1, 3, 5, 10]) {
        evaluateOutcome(
          { action: row.action, entryLow: null, entryHigh: null, stopLoss: null, targetPrice: null },
          bars.get(row.stockCode)!,
          anchor,
          n,
        );
      }
    }
    const engineSeconds = seconds(started);
    await db().$disconnect();
    const round = (v: number) => Math.round(v * 1000) / 1000;
    return [
      {
        benchmark: "signal outcomes (10,000 × 4 horizons)",
        subject: "outcome engine only, in memory",
        metric: "time",
        value: round(engineSeconds),
        unit: "s",
      },
      {
        benchmark: "signal outcomes (10,000 × 4 horizons)",
        subject: `runOutcomes, ${SIGNALS / RUN_LIMIT} runs of ${RUN_LIMIT} (SQLite)`,
        metric: "time",
        value: round(fullSeconds),
        unit: "s",
        ratio: round(fullSeconds / Math.max(engineSeconds, 1e-6)),
      },
    ];
  },
};
