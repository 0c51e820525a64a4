// npm run bench: runs every benchmark under bench/, prints a table and writes bench/results.json.
// Figures are reported as ratios against a baseline measured in the same run, never as absolute targets.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Benchmark, BenchRow } from "../bench/harness";
import { analysisBenchmark } from "../bench/analysis.bench";
import { backtestBenchmark } from "../bench/backtest.bench";
import { dailyBarsBenchmark } from "../bench/daily-bars.bench";
import { healthBenchmark } from "../bench/health.bench";
import { requestOverheadBenchmark } from "../bench/request-overhead.bench";
import { homeBenchmark } from "../bench/home.bench";
import { historyDeleteBenchmark } from "../bench/history-delete.bench";
import { historyListBenchmark } from "../bench/history-list.bench";
import { scaleOutBenchmark } from "../bench/scale-out.bench";
import { screeningBenchmark } from "../bench/screening.bench";
import { paperBenchmark } from "../bench/paper.bench";
import { shareImageBenchmark } from "../bench/share-image.bench";
import { signalOutcomesBenchmark } from "../bench/signal-outcomes.bench";
import { symbolsBenchmark } from "../bench/symbols.bench";
import { taskStreamBenchmark } from "../bench/task-stream.bench";

const BENCHMARKS: Benchmark[] = [
  symbolsBenchmark,
  dailyBarsBenchmark,
  analysisBenchmark,
  backtestBenchmark,
  healthBenchmark,
  requestOverheadBenchmark,
  taskStreamBenchmark,
  signalOutcomesBenchmark,
  shareImageBenchmark,
  historyListBenchmark,
  historyDeleteBenchmark,
  homeBenchmark,
  screeningBenchmark,
  paperBenchmark,
  scaleOutBenchmark,
];

const only = process.argv.slice(2);
const rows: BenchRow[] = [];
for (const bench of BENCHMARKS) {
  if (only.length > 0 && !only.includes(bench.name)) continue;
  process.stdout.write(`running ${bench.name} ...\n`);
  rows.push(...(await bench.run()));
}

console.table(
  rows.map((r) => ({
    benchmark: r.benchmark,
    subject: r.subject,
    metric: r.metric,
    value: `${r.value} ${r.unit}`,
    ratio: r.ratio ?? "",
  })),
);
const out = path.resolve(import.meta.dirname, "..", "bench", "results.json");
fs.writeFileSync(
  out,
  `${JSON.stringify({ generated_at: new Date().toISOString(), node: process.version, cpus: os.cpus().length, rows }, null, 2)}\n`,
);
console.log(`written ${path.relative(process.cwd(), out)}`);
