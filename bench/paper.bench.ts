import fs from "node:fs";
import path from "node:path";
import { inProcessDatabase, median, seededRandom, type Benchmark, type BenchRow } from "./harness";

// A year of daily runs of a 20-stock paper account: the account made a year ago, a buy and a sell on each stock every
// few weeks, daily bars of the 20 stocks in CSV files (read through the bar cache). The subject walks the year as
// the service does (bars read once, each session one transaction); the baseline is the execution rules alone over
// the same bars and calls in memory, the floor a run cannot beat.

const STOCKS = 20;
const SESSIONS = 250;
const RUNS = 5;

export const paperBenchmark: Benchmark = {
  name: "paper",
  async run(): Promise<BenchRow[]> {
    const { dir } = await inProcessDatabase("paper", { MARKET_DATA_SOURCES: "csv" });
    const csvDir = path.join(dir, "csv");
    fs.mkdirSync(csvDir);
    const { setEnvironmentForTests } = await import("@/lib/settings/settings");
    setEnvironmentForTests({ ...process.env, ...readEnv(dir), CSV_DATA_DIR: csvDir });
    const { db } = await import("@/lib/db/client");
    const { lastClosedTradingDay } = await import("@/lib/market/market-time");
    const { previousTradingDay } = await import("@/lib/market/calendar");
    const { createPaperAccount, rulesOf } = await import("@/lib/paper/store");
    const { runPaperAccount } = await import("@/lib/paper/run");
    const { runSession } = await import("@/lib/paper/engine");
    const { actionableSession } = await import("@/lib/paper/sessions");

    const dates: string[] = [lastClosedTradingDay("cn", new Date())];
    while (dates.length < SESSIONS + 1) dates.unshift(previousTradingDay("cn", dates[0]!));
    const codes = Array.from({ length: STOCKS }, (_, i) => String(600000 + i * 3));
    const rand = seededRandom(7);
    const bars = new Map<
      string,
      Map<string, { date: string; open: number; high: number; low: number; close: number }>
    >();
    for (const code of codes) {
      let close = 10 + rand() * 40;
      const rows = dates.map((date) => {
        const open = close;
        close = Math.max(1, close * (1 + (rand() - 0.49) * 0.04));
        return { date, open, high: Math.max(open, close) * 1.01, low: Math.min(open, close) * 0.99, close };
      });
      bars.set(code, new Map(rows.map((r) => [r.date, r])));
      const lines = rows.map((r) => `${r.date},${r.open},${r.high},${r.low},${r.close},1000000`);
      fs.writeFileSync(path.join(csvDir, `${code}.csv`), ["date,open,high,low,close,volume", ...lines].join("\n"));
    }

    // Calls: on each stock a buy every 30 sessions and a sell 15 sessions later, made at 16:00 Shanghai.
    const signals: { code: string; action: "buy" | "sell"; createdAt: Date; stop: number }[] = [];
    for (const [k, code] of codes.entries()) {
      for (let i = 1 + (k % 30); i < SESSIONS - 1; i += 30) {
        const close = bars.get(code)!.get(dates[i]!)!.close;
        signals.push({ code, action: "buy", createdAt: new Date(`${dates[i]}T08:00:00Z`), stop: close * 0.9 });
        if (i + 15 < SESSIONS)
          signals.push({ code, action: "sell", createdAt: new Date(`${dates[i + 15]}T08:00:00Z`), stop: 0 });
      }
    }
    const rows = [];
    for (const s of signals) {
      rows.push(
        await db().decisionSignal.create({
          data: {
            stockCode: s.code,
            market: "cn",
            assetType: "stock",
            targetKey: `cn:stock:${s.code}`,
            sourceType: "manual",
            triggerSource: "bench",
            action: s.action,
            horizon: "swing",
            stopLoss: s.action === "buy" ? s.stop : null,
            planQuality: "partial",
            status: "active",
            createdAt: s.createdAt,
            updatedAt: s.createdAt,
          },
        }),
      );
    }

    async function freshAccount(): Promise<number> {
      const made = await createPaperAccount({
        name: "bench",
        market: "cn",
        starting_cash: 10_000_000,
        follow: { kind: "codes", codes },
        sizing: { kind: "equal_weight", max_positions: 10 },
      });
      await db().paperAccount.update({
        where: { id: made.id },
        data: { createdAt: new Date(`${dates[0]}T00:00:00Z`), startSession: dates[1]! },
      });
      return made.id;
    }

    const times: number[] = [];
    let fills = 0;
    for (let i = 0; i < RUNS + 1; i++) {
      const id = await freshAccount();
      const started = process.hrtime.bigint();
      const result = await runPaperAccount(id);
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (result.processed.length !== SESSIONS) throw new Error(`walked ${result.processed.length} sessions`);
      fills = result.fills;
      if (i > 0) times.push(ms); // the first run fills the bar cache
      await db().paperAccount.delete({ where: { id } });
    }

    // The baseline: the rules alone, the same bars and calls in memory.
    const account = await db().paperAccount.findUniqueOrThrow({ where: { id: await freshAccount() } });
    const rules = rulesOf(account);
    const calls = new Map<string, Parameters<typeof runSession>[4][number][]>();
    for (const s of rows) {
      const session = actionableSession("cn", s.createdAt);
      const list = calls.get(session) ?? [];
      list.push({
        signalId: s.id,
        reportId: null,
        code: s.stockCode,
        action: s.action as "buy" | "sell",
        stopLoss: s.stopLoss,
        targetPrice: null,
        createdAt: s.createdAt.toISOString(),
      });
      calls.set(session, list);
    }
    const engineTimes: number[] = [];
    let engineFills = 0;
    for (let i = 0; i < RUNS * 20; i++) {
      const started = process.hrtime.bigint();
      let state = { cash: 10_000_000, positions: [], waiting: [] } as Parameters<typeof runSession>[1];
      engineFills = 0;
      for (const date of dates.slice(1)) {
        const day = new Map();
        for (const code of codes) day.set(code, bars.get(code)!.get(date)!);
        const result = runSession(rules, state, date, day, calls.get(date) ?? []);
        state = result.state;
        engineFills += result.fills.length;
      }
      engineTimes.push(Number(process.hrtime.bigint() - started) / 1e6);
    }
    if (engineFills !== fills) throw new Error(`the run made ${fills} fills, the rules alone ${engineFills}`);
    const runMs = median(times);
    const engineMs = median(engineTimes);
    const round = (v: number) => Math.round(v * 1000) / 1000;
    return [
      {
        benchmark: `paper (a year: ${SESSIONS} sessions, ${STOCKS} stocks, ${signals.length} calls)`,
        subject: "baseline: the execution rules alone over the same bars and calls in memory",
        metric: "latency",
        value: round(engineMs),
        unit: "ms",
      },
      {
        benchmark: `paper (a year: ${SESSIONS} sessions, ${STOCKS} stocks, ${signals.length} calls)`,
        subject: "one daily run catching up the year: bars through the cache, each session one transaction",
        metric: "latency",
        value: round(runMs),
        unit: "ms",
        ratio: round(runMs / engineMs),
        note: `median of ${RUNS}; ${fills} fills; goal ≤ 5000 ms`,
      },
    ];
  },
};

function readEnv(dir: string): Record<string, string> {
  return {
    DATABASE_URL: `file:${path.join(dir, "paper.db")}`,
    ENV_FILE: path.join(dir, ".env"),
    LOG_LEVEL: "silent",
    MARKET_DATA_SOURCES: "csv",
  };
}
