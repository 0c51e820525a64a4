import { inProcessDatabase, median, seededRandom, type Benchmark, type BenchRow } from "./harness";

// A screening run over a 5,000-stock market whose 300 most-traded stocks have their bars cached: Eastmoney's list
// answered by a stubbed fetch (pages of 100, sorted by amount, as the real endpoint sorts them), the bars read from
// the SQLite bar cache, the figures computed and the strategy applied, the run stored. The baseline is the same
// filters written as one SQL query over a table of the snapshot whose figures are already computed: the floor a
// screen cannot beat, since it skips reading bars and computing figures.

const MARKET_SIZE = 5000;
const LISTED = 300;
const DAYS = 300;
const RUNS = 5;
const SQL_RUNS = 200;

export const screeningBenchmark: Benchmark = {
  name: "screening",
  async run(): Promise<BenchRow[]> {
    await inProcessDatabase("screening", { MARKET_DATA_SOURCES: "eastmoney" });
    const { db } = await import("@/lib/db/client");
    const { symbolKey } = await import("@/lib/market");
    const { lastClosedTradingDay } = await import("@/lib/market/market-time");
    const { previousTradingDay } = await import("@/lib/market/calendar");
    const { runScreen } = await import("@/lib/screening/run");
    const { computeMetrics } = await import("@/lib/screening/metrics");
    const { ZScreenRequest } = await import("@/lib/screening/schemas");

    // The market: 5,000 Shanghai main-board codes, amount falling with the index (the list's sort order).
    const codes = Array.from({ length: MARKET_SIZE }, (_, i) => String(600000 + i));
    const dates: string[] = [lastClosedTradingDay("cn", new Date())];
    while (dates.length < DAYS) dates.unshift(previousTradingDay("cn", dates[0]!));
    const rand = seededRandom(42);
    const barsOf = new Map<
      string,
      { date: string; open: number; high: number; low: number; close: number; volume: number; amount: number }[]
    >();
    for (const code of codes.slice(0, LISTED)) {
      let close = 10 + rand() * 50;
      const bars = dates.map((date) => {
        const open = close;
        close = Math.max(1, close * (1 + (rand() - 0.48) * 0.04));
        const volume = Math.round(1e6 * (0.5 + rand()));
        return {
          date,
          open,
          high: Math.max(open, close) * 1.01,
          low: Math.min(open, close) * 0.99,
          close,
          volume,
          amount: volume * close,
        };
      });
      barsOf.set(code, bars);
      const key = symbolKey({ kind: "stock", market: "cn", code });
      const fetched = new Date().toISOString();
      await db().$transaction(
        bars.map((b) =>
          db().dailyBar.create({
            data: {
              symbolKey: key,
              tradeDate: b.date,
              open: b.open,
              high: b.high,
              low: b.low,
              close: b.close,
              volume: b.volume,
              amount: b.amount,
              turnoverRate: null,
              source: "eastmoney",
              fetchedAt: new Date(fetched),
            },
          }),
        ),
      );
    }
    const rows = codes.map((code, i) => ({
      f2: 10 + (i % 50),
      f3: 0.5,
      f6: (MARKET_SIZE - i) * 1e6,
      f8: 1.2,
      f10: 1.1,
      f12: code,
      f13: 1,
      f14: `Stock ${code}`,
      f20: 1e10,
    }));
    const realFetch = globalThis.fetch;
    globalThis.fetch = (async (input: string | URL | Request) => {
      const target = new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url);
      if (target.pathname !== "/api/qt/clist/get") throw new TypeError(`no network in the benchmark: ${target.href}`);
      const page = Number(target.searchParams.get("pn"));
      const size = Number(target.searchParams.get("pz"));
      const diff = rows.slice((page - 1) * size, page * size);
      return new Response(JSON.stringify({ rc: 0, data: { total: MARKET_SIZE, diff } }));
    }) as typeof fetch;

    try {
      const request = ZScreenRequest.parse({ market: "cn", strategy: "trend_pullback", max_results: 20 });
      const warm = await runScreen(request);
      if (warm.bars_loaded_count !== LISTED)
        throw new Error(`expected ${LISTED} cached stocks, read ${warm.bars_loaded_count}`);
      const times: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const started = process.hrtime.bigint();
        await runScreen(request);
        times.push(Number(process.hrtime.bigint() - started) / 1e6);
      }
      const runMs = median(times);

      // The baseline: the snapshot as a table with the figures computed, screened by one query.
      await db().$executeRawUnsafe(
        "CREATE TABLE bench_snapshot (code TEXT PRIMARY KEY, amount REAL, close_vs_ma60_pct REAL, ma20_vs_ma60_pct REAL, ma20_slope_pct REAL, close_vs_ma20_pct REAL, ret_60d_pct REAL)",
      );
      for (const [i, code] of codes.entries()) {
        const bars = barsOf.get(code);
        const m = bars
          ? computeMetrics(
              bars.map((b) => ({ ...b, turnover_rate: null, source: "eastmoney" })),
              null,
            )
          : null;
        await db().$executeRawUnsafe(
          "INSERT INTO bench_snapshot VALUES (?, ?, ?, ?, ?, ?, ?)",
          code,
          rows[i]!.f6,
          m?.close_vs_ma60_pct ?? null,
          m?.ma20_vs_ma60_pct ?? null,
          m?.ma20_slope_pct ?? null,
          m?.close_vs_ma20_pct ?? null,
          m?.ret_60d_pct ?? null,
        );
      }
      const query =
        "WITH listed AS (SELECT * FROM bench_snapshot ORDER BY amount DESC LIMIT 300) SELECT code FROM listed " +
        "WHERE close_vs_ma60_pct >= 0 AND ma20_vs_ma60_pct >= 0 AND ma20_slope_pct >= 0 AND close_vs_ma20_pct >= -3 " +
        "AND close_vs_ma20_pct <= 2 ORDER BY ret_60d_pct DESC, code LIMIT 20";
      const sqlCodes = ((await db().$queryRawUnsafe(query)) as { code: string }[]).map((r) => r.code);
      if (sqlCodes.join() !== warm.candidates.map((c) => c.code).join())
        throw new Error(
          `the SQL baseline and the run disagree: ${sqlCodes.join()} vs ${warm.candidates.map((c) => c.code).join()}`,
        );
      const sqlTimes: number[] = [];
      for (let i = 0; i < SQL_RUNS; i++) {
        const started = process.hrtime.bigint();
        await db().$queryRawUnsafe(query);
        sqlTimes.push(Number(process.hrtime.bigint() - started) / 1e6);
      }
      const sqlMs = median(sqlTimes);
      const round = (v: number) => Math.round(v * 1000) / 1000;
      return [
        {
          benchmark: "screening (5,000-stock market, 300 listed)",
          subject: "baseline: the filters as one SQL query over the snapshot with its figures computed",
          metric: "latency",
          value: round(sqlMs),
          unit: "ms",
        },
        {
          benchmark: "screening (5,000-stock market, 300 listed)",
          subject: "runScreen trend_pullback: list, 300 cached bar reads, figures, filters, stored run",
          metric: "latency",
          value: round(runMs),
          unit: "ms",
          ratio: round(runMs / sqlMs),
          note: `${warm.candidate_count} candidates; goal ≤ 3000 ms`,
        },
      ];
    } finally {
      globalThis.fetch = realFetch;
    }
  },
};
