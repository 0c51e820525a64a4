import { resolveToken } from "@/lib/market/symbols";
import type { Benchmark, BenchRow } from "./harness";

// Mixed tokens as traders type them: bare and prefixed codes, suffixes, indices, names, a rejection.
const SAMPLE = [
  "600519",
  "sh000001",
  "0700.HK",
  "AAPL",
  "贵州茅台",
  "BRK-B",
  "csi000905",
  "宁德",
  "abc123",
  "Tesla",
  "000001.SZ",
  "腾讯控股",
];

function tokensPerSecond(fn: (token: string) => unknown, rounds: number): number {
  let sink = 0;
  const started = process.hrtime.bigint();
  for (let i = 0; i < rounds; i++) {
    if (fn(SAMPLE[i % SAMPLE.length]!)) sink++;
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (sink < 0) console.log(sink);
  return rounds / seconds;
}

export const symbolsBenchmark: Benchmark = {
  name: "symbols",
  async run(): Promise<BenchRow[]> {
    // Floor: the least any resolver must do per token, one normalisation and one hash lookup.
    const floorMap = new Map(SAMPLE.map((t) => [t.trim().toUpperCase(), t]));
    const floor = (token: string) => floorMap.get(token.trim().toUpperCase());
    const rounds = 400_000;
    tokensPerSecond(floor, rounds / 4);
    tokensPerSecond(resolveToken, rounds / 4);
    const baseline = tokensPerSecond(floor, rounds);
    const measured = tokensPerSecond(resolveToken, rounds);
    return [
      {
        benchmark: "symbol resolution",
        subject: "normalise + Map.get (floor)",
        metric: "throughput",
        value: Math.round(baseline),
        unit: "tokens/s",
      },
      {
        benchmark: "symbol resolution",
        subject: "resolveToken",
        metric: "throughput",
        value: Math.round(measured),
        unit: "tokens/s",
        ratio: Math.round((measured / baseline) * 1000) / 1000,
      },
    ];
  },
};
