import { buildRuleReport, computeIndicators } from "@/lib/analysis/engine";
import { getProvider } from "./sample-data";
import { load, startService, type Benchmark, type BenchRow } from "./harness";

const TARGETS = [
  { kind: "stock" as const, market: "cn" as const, code: "600519", displayCode: "600519", name: "贵州茅台" },
  { kind: "stock" as const, market: "us" as const, code: "AAPL", displayCode: "AAPL", name: "Apple" },
  {
    kind: "index" as const,
    market: "cn" as const,
    code: "000300.SH",
    canonicalId: "000300.SH",
    displayCode: "sh000300",
    name: "沪深300",
  },
];

function cpuMsPerCall(fn: () => unknown, rounds: number): number {
  const start = process.cpuUsage();
  for (let i = 0; i < rounds; i++) fn();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000 / rounds;
}

export const analysisBenchmark: Benchmark = {
  name: "analysis",
  async run(): Promise<BenchRow[]> {
    const inputs = await Promise.all(
      TARGETS.map(async (target) => ({ target, ...(await getProvider().load(target)) })),
    );
    const rounds = 60;
    const rule = () =>
      inputs.forEach((i) =>
        buildRuleReport({
          target: i.target,
          bars: i.bars,
          quote: i.quote,
          phase: "postmarket",
          language: "zh",
          dataSource: "sample",
        }),
      );
    const indicatorsOnly = () =>
      inputs.forEach((i) => computeIndicators({ bars: i.bars, quote: i.quote, market: i.target.market }));
    rule();
    indicatorsOnly();
    const ruleMs = cpuMsPerCall(rule, rounds) / inputs.length;
    const indicatorMs = cpuMsPerCall(indicatorsOnly, rounds) / inputs.length;

    // Requests/s of sync analyze through the real server (sample data, no LLM, no news keys), against the
    // same server's health endpoint as the floor of the HTTP stack.
    const service = await startService({ MARKET_DATA_SOURCES: "sample" });
    const body = JSON.stringify({ stock_code: "600519" });
    await fetch(`${service.baseUrl}/api/v1/analysis/analyze`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    });
    const health = await load(`${service.baseUrl}/api/v1/health`, 5, 8);
    const analyze = await load(`${service.baseUrl}/api/v1/analysis/analyze`, 5, 8, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    });
    await service.stop();
    if (analyze.errors + analyze.non2xx > 0)
      throw new Error(`analyze under load: ${analyze.errors} errors, ${analyze.non2xx} non-2xx`);

    const round = (v: number, d = 2) => Math.round(v * 10 ** d) / 10 ** d;
    return [
      {
        benchmark: "rule pipeline (in process)",
        subject: "indicators only",
        metric: "CPU per code",
        value: round(indicatorMs, 3),
        unit: "ms",
      },
      {
        benchmark: "rule pipeline (in process)",
        subject: "indicators + decision + report",
        metric: "CPU per code",
        value: round(ruleMs, 3),
        unit: "ms",
        ratio: round(ruleMs / indicatorMs, 3),
      },
      {
        benchmark: "POST /api/v1/analysis/analyze (sync)",
        subject: "GET /api/v1/health, same server",
        metric: "throughput",
        value: round(health.requestsPerSec),
        unit: "req/s",
      },
      {
        benchmark: "POST /api/v1/analysis/analyze (sync)",
        subject: "analyze 600519, sample data, stored",
        metric: "throughput",
        value: round(analyze.requestsPerSec),
        unit: "req/s",
        ratio: round(analyze.requestsPerSec / health.requestsPerSec, 3),
      },
      {
        benchmark: "POST /api/v1/analysis/analyze (sync)",
        subject: "analyze 600519, sample data, stored",
        metric: "p99 latency",
        value: analyze.p99Ms,
        unit: "ms",
      },
    ];
  },
};
