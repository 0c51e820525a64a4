// The pre-registered evaluation of the rule engine (docs/evaluations/README.md): the current engine walked forward
// over every series of a folder of CSV bars (`<market>-<code>-….csv`), judged per market against each stock's own
// other days, with Newey-West intervals.
//   npm run evaluate -- <folder> [--write <market-evidence.json>] [--universe "<label>"]
// Work is split over the machine's cores by forking this script once per shard.
import { fork } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DECISION_ACTIONS, RULE_ENGINE_VERSION, type TDecisionAction } from "@/lib/analysis/engine";
import { universeText, type MarketEvaluation } from "@/lib/evidence/market-evaluation";
import { neweyWestLags, neweyWestMean, spearman, Z95 } from "@/lib/evidence/robust-stats";
import {
  LONG_ACTIONS,
  pooledScope,
  SHORT_ACTIONS,
  stockFigures,
  type EvidenceCall,
  type StockFigures,
} from "@/lib/evidence/scope";
import { EVIDENCE_HORIZON_DAYS, type TEvidenceScope } from "@/lib/evidence/schemas";
import { walkForwardCalls } from "@/lib/evidence/walk-forward";
import { parseBarsCsv } from "@/lib/market/providers/csv-bars";
import type { TMarket } from "@/lib/market/symbols";

const MARKETS: readonly TMarket[] = ["cn", "hk", "us"];
/** Dates with fewer stocks than this give no cross-sectional rank correlation. */
const MIN_CROSS_SECTION = 10;

interface SeriesResult {
  file: string;
  market: TMarket;
  firstDate: string;
  lastDate: string;
  actionCounts: Partial<Record<TDecisionAction, number>>;
  byAction: Partial<Record<TDecisionAction, StockFigures>>;
  long: StockFigures | null;
  short: StockFigures | null;
  /** [date, score, forward return] of every scored call, for the per-date rank correlation. */
  scored: [string, number, number][];
}

/** Figures of a side (several actions) on one stock: the same computation with the side's calls relabelled. */
function sideFigures(calls: readonly EvidenceCall[], side: readonly TDecisionAction[]): StockFigures | null {
  const relabelled = calls.map((c) => ({
    ...c,
    action: side.includes(c.action) ? ("buy" as const) : ("watch" as const),
  }));
  return stockFigures(relabelled, "buy");
}

async function evaluateSeries(folder: string, file: string): Promise<SeriesResult> {
  const market = file.slice(0, 2) as TMarket;
  const bars = parseBarsCsv(fs.readFileSync(path.join(folder, file), "utf8"), file);
  const calls = await walkForwardCalls(bars, { market, isSample: false });
  const actionCounts: SeriesResult["actionCounts"] = {};
  const byAction: SeriesResult["byAction"] = {};
  for (const action of DECISION_ACTIONS) {
    const n = calls.filter((c) => c.action === action).length;
    if (n === 0) continue;
    actionCounts[action] = n;
    byAction[action] = stockFigures(calls, action)!;
  }
  return {
    file,
    market,
    firstDate: calls[0]?.date ?? "",
    lastDate: calls.at(-1)?.date ?? "",
    actionCounts,
    byAction,
    long: sideFigures(calls, LONG_ACTIONS),
    short: sideFigures(calls, SHORT_ACTIONS),
    scored: calls.flatMap((c) =>
      c.score === null ? [] : [[c.date, c.score, c.returnPct] as [string, number, number]],
    ),
  };
}

const fmt = (v: number | null | undefined, digits = 2) =>
  v === null || v === undefined || !Number.isFinite(v) ? "–" : v.toFixed(digits);
const interval = (s: TEvidenceScope | null) =>
  s === null ? "–" : `${fmt(s.mean_excess_pct)} [${fmt(s.ci95_low_pct)}, ${fmt(s.ci95_high_pct)}]`;
const tOf = (s: TEvidenceScope | null) =>
  s === null || s.mean_excess_pct === null || s.ci95_low_pct === null || s.ci95_high_pct === null
    ? null
    : s.mean_excess_pct / ((s.ci95_high_pct - s.ci95_low_pct) / (2 * Z95));

function rankCorrelation(results: readonly SeriesResult[]) {
  const byDate = new Map<string, { scores: number[]; returns: number[] }>();
  for (const r of results)
    for (const [date, score, ret] of r.scored) {
      const cell = byDate.get(date) ?? { scores: [], returns: [] };
      cell.scores.push(score);
      cell.returns.push(ret);
      byDate.set(date, cell);
    }
  const series = [...byDate.entries()]
    .filter(([, c]) => c.scores.length >= MIN_CROSS_SECTION)
    .sort((a, b) => a[0].localeCompare(b[0]))
    .flatMap(([, c]) => {
      const rho = spearman(c.scores, c.returns);
      return rho === null ? [] : [rho];
    });
  return { dates: series.length, estimate: neweyWestMean(series, neweyWestLags(EVIDENCE_HORIZON_DAYS)) };
}

function universeOf(market: TMarket, results: readonly SeriesResult[], label: string | undefined) {
  const year = (date: string) => Number(date.slice(0, 4));
  const universe = {
    stocks: results.length,
    first_year: Math.min(...results.map((r) => year(r.firstDate))),
    last_year: Math.max(...results.map((r) => year(r.lastDate))),
    label: label ?? null,
  };
  return { ...universe, universe: universeText(market, universe, "en") };
}

function report(results: readonly SeriesResult[], write: string | null, label: string | undefined): void {
  const heads = DECISION_ACTIONS.map((a) => `${a} %`).join(" | ");
  console.log(`Engine ${RULE_ENGINE_VERSION}, horizon ${EVIDENCE_HORIZON_DAYS} days, ${results.length} series.\n`);
  console.log(
    `| market | stocks | calls | ${heads} | long excess % [95 %] | long NW t | short excess % [95 %] | short NW t | rank corr (dates) | rank corr NW t |`,
  );
  console.log(`|${"---|".repeat(9 + DECISION_ACTIONS.length)}`);
  const perMarket: MarketEvaluation["markets"] = {};
  const verdictRows: string[] = [];
  const actionRows: string[] = [];
  for (const market of MARKETS) {
    const mine = results.filter((r) => r.market === market);
    if (mine.length === 0) continue;
    const calls = mine.reduce((s, r) => s + Object.values(r.actionCounts).reduce((a, b) => a + b, 0), 0);
    const share = DECISION_ACTIONS.map((a) =>
      fmt((100 * mine.reduce((s, r) => s + (r.actionCounts[a] ?? 0), 0)) / calls, 1),
    );
    const long = pooledScope(
      "buy",
      mine.flatMap((r) => (r.long ? [r.long] : [])),
      "market",
      null,
    );
    const short = pooledScope(
      "sell",
      mine.flatMap((r) => (r.short ? [r.short] : [])),
      "market",
      null,
    );
    const rank = rankCorrelation(mine);
    console.log(
      `| ${market} | ${mine.length} | ${calls} | ${share.join(" | ")} | ${interval(long)} | ${fmt(tOf(long))} | ` +
        `${interval(short)} | ${fmt(tOf(short))} | ${fmt(rank.estimate?.estimate, 4)} (${rank.dates}) | ${fmt(rank.estimate?.t)} |`,
    );
    const { universe, ...described } = universeOf(market, mine, label);
    const scopes: Partial<Record<TDecisionAction, TEvidenceScope>> = {};
    for (const action of DECISION_ACTIONS) {
      const figures = mine.flatMap((r) => (r.byAction[action] ? [r.byAction[action]] : []));
      const scope = pooledScope(action, figures, "market", universe);
      if (!scope) continue;
      scopes[action] = scope;
      const verdicts = { edge: 0, no_measurable_edge: 0, adverse: 0, insufficient: 0 };
      for (const f of figures) verdicts[pooledScope(action, [f], "stock", null)!.verdict] += 1;
      actionRows.push(
        `| ${market} | ${action} | ${scope.n_calls} | ${scope.n_independent} | ${interval(scope)} | ${fmt(tOf(scope))} | ` +
          `${fmt(scope.hit_rate === null ? null : scope.hit_rate * 100, 1)} | ${fmt(scope.base_hit_rate === null ? null : scope.base_hit_rate * 100, 1)} | ${scope.verdict} |`,
      );
      verdictRows.push(
        `| ${market} | ${action} | ${figures.length} | ${verdicts.edge} | ${verdicts.no_measurable_edge} | ${verdicts.adverse} | ${verdicts.insufficient} |`,
      );
    }
    perMarket[market] = {
      universe,
      ...described,
      rank_correlation: rank.estimate?.estimate ?? null,
      rank_correlation_t: rank.estimate?.t ?? null,
      rank_dates: rank.dates,
      scopes,
    };
  }
  console.log(
    "\nPer action, pooled over the market's stocks (excess over each stock's other days, weighted by calls):\n",
  );
  console.log("| market | action | calls | independent | excess % [95 %] | NW t | hit % | base hit % | verdict |");
  console.log("|---|---|---|---|---|---|---|---|---|");
  for (const row of actionRows) console.log(row);
  console.log("\nVerdicts of the stock scope, per market and action (stocks):\n");
  console.log("| market | action | stocks | edge | no measurable edge | adverse | insufficient |");
  console.log("|---|---|---|---|---|---|---|");
  for (const row of verdictRows) console.log(row);
  if (write) {
    const evaluation: MarketEvaluation = { engine_version: RULE_ENGINE_VERSION, markets: perMarket };
    fs.writeFileSync(write, `${JSON.stringify(evaluation, null, 1)}\n`);
    console.log(`\nwritten ${write}`);
  }
}

function option(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

async function main() {
  const folder = process.argv[2];
  if (!folder || folder.startsWith("--")) {
    console.error("usage: npm run evaluate -- <folder of CSV bars> [--write <file>] [--universe <label>]");
    process.exit(2);
  }
  const files = fs
    .readdirSync(folder)
    .filter((f) => /^(cn|hk|us)-.+\.csv$/.test(f))
    .sort();
  const shard = process.env.EVALUATE_SHARD;
  if (shard) {
    const [k, of] = shard.split("/").map(Number) as [number, number];
    const results: SeriesResult[] = [];
    for (let i = k; i < files.length; i += of) results.push(await evaluateSeries(folder, files[i]!));
    process.send!(results, () => process.exit(0));
    return;
  }
  const shards = Math.max(1, Math.min(os.availableParallelism(), files.length));
  const started = Date.now();
  const parts = await Promise.all(
    Array.from({ length: shards }, (_, k) => {
      const child = fork(process.argv[1]!, process.argv.slice(2), {
        env: { ...process.env, EVALUATE_SHARD: `${k}/${shards}` },
      });
      return new Promise<SeriesResult[]>((resolve, reject) => {
        child.once("message", (m) => resolve(m as SeriesResult[]));
        child.once("exit", (code) => (code === 0 ? undefined : reject(new Error(`shard ${k} exited ${code}`))));
      });
    }),
  );
  const results = parts.flat().sort((a, b) => a.file.localeCompare(b.file));
  report(results, option("--write") ?? null, option("--universe"));
  console.error(`\n${results.length} series in ${((Date.now() - started) / 1000).toFixed(0)} s on ${shards} processes`);
}

void main();
