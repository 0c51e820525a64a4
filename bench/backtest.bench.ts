import fs from "node:fs";
import path from "node:path";
import { median } from "simple-statistics";
import { ANALYSIS_WINDOW_BARS, decideAtClose } from "@/lib/analysis/engine";
import { backtestBars } from "@/lib/backtest/backtest-bars";
import { callIndices } from "@/lib/backtest/replay";
import { parseBarsCsv } from "@/lib/market/providers/csv-bars";
import type { Benchmark, BenchRow } from "./harness";

// A 10-year daily series (NVDA 2005–2014, 2,517 real bars), step 1, horizons 1/3/5/10. The
// whole run (replay + judging + summary) against the floor of the same decisions made by bare engine calls
// on the same slices: the replay should add bookkeeping, not a second engine.

const FILE = path.resolve(import.meta.dirname, "..", "tests", "fixtures", "real-bars", "us-NVDA-2005-2014.csv");
const ROUNDS = 5;

export const backtestBenchmark: Benchmark = {
  name: "backtest",
  async run(): Promise<BenchRow[]> {
    const bars = parseBarsCsv(fs.readFileSync(FILE, "utf8"), path.basename(FILE));
    const params = { market: "us" as const, isSample: false, step: 1, horizons: [1, 3, 5, 10], neutralBandPct: 2 };
    const indices = callIndices(bars, null, null, 1);
    await backtestBars(bars, params); // warm-up (JIT)

    const runMs: number[] = [];
    const bareMs: number[] = [];
    for (let r = 0; r < ROUNDS; r += 1) {
      let started = performance.now();
      await backtestBars(bars, params);
      runMs.push(performance.now() - started);
      started = performance.now();
      for (const i of indices) decideAtClose(bars.slice(Math.max(0, i + 1 - ANALYSIS_WINDOW_BARS), i + 1), "us", false);
      bareMs.push(performance.now() - started);
    }
    const run = median(runMs);
    const bare = median(bareMs);
    const perCall = run / indices.length;
    const perBare = bare / indices.length;
    const round = (v: number, d = 3) => Math.round(v * 10 ** d) / 10 ** d;
    const subject = `${bars.length} bars, ${indices.length} calls, step 1, horizons 1/3/5/10`;
    return [
      {
        benchmark: "backtest (in process)",
        subject: "bare decideAtClose on the same slices",
        metric: "time per call",
        value: round(perBare),
        unit: "ms",
      },
      {
        benchmark: "backtest (in process)",
        subject,
        metric: "time per call",
        value: round(perCall),
        unit: "ms",
        ratio: round(perCall / perBare),
      },
      {
        benchmark: "backtest (in process)",
        subject,
        metric: "whole run, median of 5",
        value: Math.round(run),
        unit: "ms",
        note: "goal ≤ 5000 ms",
      },
    ];
  },
};
