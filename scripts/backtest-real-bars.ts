// The engine's track record on every real-bars file (the instrument for judging rule changes):
// step 1, horizons 1/5/10, neutral band 2 %, per file and pooled per market, printed as Markdown tables.
//   npx tsx scripts/backtest-real-bars.ts [folder]      (default: tests/fixtures/real-bars)
import fs from "node:fs";
import path from "node:path";
import { DECISION_ACTIONS } from "@/lib/analysis/engine/schemas";
import { backtestBars } from "@/lib/backtest/backtest-bars";
import type { JudgedCall } from "@/lib/backtest/judge";
import { LONG_SIDE, SHORT_SIDE } from "@/lib/backtest/summary";
import { welchT } from "@/lib/backtest/welch";
import { parseBarsCsv } from "@/lib/market/providers/csv-bars";
import type { TMarket } from "@/lib/market/symbols";

const HORIZONS = [1, 5, 10];
const JUDGE = 10;
const folder = path.resolve(process.argv[2] ?? "tests/fixtures/real-bars");

const fmt = (v: number | null | undefined, d = 2) =>
  v === null || v === undefined || !Number.isFinite(v) ? "–" : v.toFixed(d);
const avg = (xs: number[]) => (xs.length === 0 ? null : xs.reduce((s, x) => s + x, 0) / xs.length);

function returnsOf(calls: readonly JudgedCall[], keep: (c: JudgedCall) => boolean): number[] {
  return calls.filter(keep).flatMap((c) => {
    const r = c.outcomes.find((o) => o.horizon === JUDGE)?.return_pct;
    return r === null || r === undefined ? [] : [r];
  });
}

function hitRate(calls: readonly JudgedCall[], keep: (c: JudgedCall) => boolean): number | null {
  let hit = 0;
  let miss = 0;
  for (const c of calls.filter(keep)) {
    const o = c.outcomes.find((x) => x.horizon === JUDGE)?.outcome;
    if (o === "hit") hit += 1;
    if (o === "miss") miss += 1;
  }
  return hit + miss === 0 ? null : (hit / (hit + miss)) * 100;
}

const isLong = (c: JudgedCall) => LONG_SIDE.includes(c.action);
const isShort = (c: JudgedCall) => SHORT_SIDE.includes(c.action);

async function main() {
  const files = fs
    .readdirSync(folder)
    .filter((f) => f.endsWith(".csv"))
    .sort();
  const pooled = new Map<TMarket, JudgedCall[]>();
  const shareHead = DECISION_ACTIONS.filter((a) => a !== "alert");
  console.log(
    `| file | calls | ${shareHead.map((a) => `${a} %`).join(" | ")} | long n | long hit % | long mean 10d % | short n | short hit % | short mean 10d % | all mean 10d % |`,
  );
  console.log(`|${"---|".repeat(9 + shareHead.length)}`);
  for (const file of files) {
    const market = file.slice(0, 2) as TMarket;
    const bars = parseBarsCsv(fs.readFileSync(path.join(folder, file), "utf8"), file);
    const code = file.split("-")[1]!;
    const { calls } = await backtestBars(bars, {
      market,
      code,
      isSample: false,
      step: 1,
      horizons: HORIZONS,
      neutralBandPct: 2,
    });
    pooled.set(market, [...(pooled.get(market) ?? []), ...calls]);
    const share = shareHead.map((a) => fmt((100 * calls.filter((c) => c.action === a).length) / calls.length, 1));
    const long = returnsOf(calls, isLong);
    const short = returnsOf(calls, isShort);
    console.log(
      `| ${file} | ${calls.length} | ${share.join(" | ")} | ${long.length} | ${fmt(hitRate(calls, isLong), 1)} | ${fmt(avg(long))} | ` +
        `${short.length} | ${fmt(hitRate(calls, isShort), 1)} | ${fmt(avg(short))} | ${fmt(avg(returnsOf(calls, () => true)))} |`,
    );
  }
  console.log("\nPooled 10-day mean by score band (count, Welch t against all calls of the market), per market:\n");
  console.log("| market | 0–19 | 20–39 | 40–59 | 60–79 | 80–100 |");
  console.log("|---|---|---|---|---|---|");
  for (const [market, calls] of pooled) {
    const all = returnsOf(calls, () => true);
    const cells = [
      [0, 20],
      [20, 40],
      [40, 60],
      [60, 80],
      [80, 101],
    ].map(([lo, hi]) => {
      const xs = returnsOf(calls, (c) => c.score !== null && c.score >= lo! && c.score < hi!);
      return xs.length === 0 ? "–" : `${fmt(avg(xs))} (${xs.length}, t ${fmt(welchT(xs, all))})`;
    });
    console.log(`| ${market} | ${cells.join(" | ")} |`);
  }
  console.log("\nPooled per market (10-day returns; t = Welch's t against all calls of the market):\n");
  console.log("| market | all n | all mean % | long n | long mean % | long t | short n | short mean % | short t |");
  console.log("|---|---|---|---|---|---|---|---|---|");
  for (const [market, calls] of pooled) {
    const all = returnsOf(calls, () => true);
    const long = returnsOf(calls, isLong);
    const short = returnsOf(calls, isShort);
    console.log(
      `| ${market} | ${all.length} | ${fmt(avg(all))} | ${long.length} | ${fmt(avg(long))} | ${fmt(welchT(long, all))} | ` +
        `${short.length} | ${fmt(avg(short))} | ${fmt(welchT(short, all))} |`,
    );
  }
}

void main();
