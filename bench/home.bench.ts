import { percentile, startService, type Benchmark, type BenchRow } from "./harness";

// The home page's server render (the cockpit: 20 watchlist stocks with their one price, 30
// closes and latest verdict, the indices of their markets, open signals, today's alerts) on sample data, against
// GET /api/v1/health on the same server. Sequential requests, so the figure is one render's latency.

const WATCHLIST = [
  "600519",
  "000001",
  "300750",
  "601318",
  "000858",
  "601398",
  "600900",
  "600036",
  "000333",
  "002594",
  "00700",
  "09988",
  "00005",
  "01299",
  "AAPL",
  "TSLA",
  "NVDA",
  "MSFT",
  "GOOGL",
  "AMZN",
];
const ROUNDS = Number(process.env.BENCH_HOME_ROUNDS ?? 60);

async function timings(url: string, accept: string): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < ROUNDS + 5; i++) {
    const started = performance.now();
    const res = await fetch(url, { headers: { accept } });
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
    if (i >= 5) out.push(performance.now() - started);
  }
  return out;
}

export const homeBenchmark: Benchmark = {
  name: "home",
  async run(): Promise<BenchRow[]> {
    const service = await startService({ MARKET_DATA_SOURCES: "sample", STOCK_LIST: WATCHLIST.join(",") });
    try {
      const health = await timings(`${service.baseUrl}/api/v1/health`, "application/json");
      const home = await timings(`${service.baseUrl}/`, "text/html");
      const benchmark = `GET / (home cockpit, ${WATCHLIST.length} watchlist stocks, sample data)`;
      const round = (v: number) => Math.round(v * 10) / 10;
      return [
        {
          benchmark,
          subject: "GET /api/v1/health (same server)",
          metric: "p50 latency",
          value: round(percentile(health, 50)),
          unit: "ms",
        },
        {
          benchmark,
          subject: "GET / server render",
          metric: "p50 latency",
          value: round(percentile(home, 50)),
          unit: "ms",
          ratio: round(percentile(home, 50) / percentile(health, 50)),
        },
        {
          benchmark,
          subject: "GET / server render",
          metric: "p90 latency",
          value: round(percentile(home, 90)),
          unit: "ms",
        },
      ];
    } finally {
      await service.stop();
    }
  },
};
