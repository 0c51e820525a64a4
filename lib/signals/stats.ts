import { Prisma } from "@/generated/prisma/client";
import { db } from "@/lib/db/client";
import { ENGINE_VERSION } from "./outcome-engine";
import {
  OUTCOME_HORIZONS,
  SIGNAL_STATUSES,
  type TOutcomeHorizon,
  type TOutcomeStatsBucket,
  type TOutcomeStatsQuery,
  type TOutcomeStatsResponse,
  type TSignalAction,
  type TSignalStatus,
} from "./schemas";

/** Spec 4.5 rule 3: stats count every status but archived unless statuses are named. */
export const DEFAULT_STATS_STATUSES: readonly TSignalStatus[] = SIGNAL_STATUSES.filter((s) => s !== "archived");

interface GroupRow {
  horizon: string;
  action: string;
  market: string;
  market_phase: string | null;
  source_type: string;
  plan_quality: string;
  decision_engine_version: string | null;
  eval_status: string;
  outcome: string | null;
  unable_reason: string | null;
  n: number | bigint;
  return_sum: number | null;
  return_n: number | bigint;
}

interface Tally {
  total: number;
  completed: number;
  unable: number;
  hit: number;
  miss: number;
  neutral: number;
  returnSum: number;
  returnN: number;
}

function emptyTally(): Tally {
  return { total: 0, completed: 0, unable: 0, hit: 0, miss: 0, neutral: 0, returnSum: 0, returnN: 0 };
}

function add(t: Tally, row: GroupRow): void {
  const n = Number(row.n);
  t.total += n;
  if (row.eval_status === "completed") t.completed += n;
  if (row.eval_status === "unable") t.unable += n;
  if (row.outcome === "hit") t.hit += n;
  if (row.outcome === "miss") t.miss += n;
  if (row.outcome === "neutral") t.neutral += n;
  t.returnSum += row.return_sum ?? 0;
  t.returnN += Number(row.return_n);
}

function counts(t: Tally) {
  return {
    total: t.total,
    completed: t.completed,
    unable: t.unable,
    hit: t.hit,
    miss: t.miss,
    neutral: t.neutral,
    hit_rate_pct: t.hit + t.miss > 0 ? (t.hit / (t.hit + t.miss)) * 100 : null,
    avg_stock_return_pct: t.returnN > 0 ? t.returnSum / t.returnN : null,
  };
}

type Dimension =
  | "horizon"
  | "action"
  | "market"
  | "market_phase"
  | "source_type"
  | "plan_quality"
  | "decision_engine_version";
const DIMENSIONS: readonly Dimension[] = [
  "horizon",
  "action",
  "market",
  "market_phase",
  "source_type",
  "plan_quality",
  "decision_engine_version",
];

function buckets(rows: readonly GroupRow[], dimension: Dimension): TOutcomeStatsBucket[] {
  const tallies = new Map<string | null, Tally>();
  for (const row of rows) {
    const value = row[dimension];
    const t = tallies.get(value) ?? emptyTally();
    add(t, row);
    tallies.set(value, t);
  }
  return [...tallies.entries()]
    .sort(([a], [b]) => String(a ?? "").localeCompare(String(b ?? "")))
    .map(([value, t]) => ({ value, ...counts(t) }));
}

/** The values of `wanted` that name one of `all`, once each, in the order asked. */
function known<T extends string>(wanted: readonly string[], all: readonly T[]): T[] {
  return [...new Set(wanted)].filter((value): value is T => (all as readonly string[]).includes(value));
}

// GET /api/v1/decision-signals/outcomes/stats – counts, hit rate and average return, overall and per dimension
export async function outcomeStats(query: TOutcomeStatsQuery): Promise<TOutcomeStatsResponse> {
  const engineVersion = query.engine_version ?? ENGINE_VERSION;
  const horizons = query.horizons ? known(query.horizons, OUTCOME_HORIZONS) : [...OUTCOME_HORIZONS];
  const statuses = query.statuses ? known(query.statuses, SIGNAL_STATUSES) : [...DEFAULT_STATS_STATUSES];
  // One grouped query: the groups (horizon × signal facts × result) are few whatever the number of rows.
  const rows =
    horizons.length === 0 || statuses.length === 0
      ? []
      : await db().$queryRaw<GroupRow[]>(Prisma.sql`
    SELECT o.horizon AS horizon, s.action AS action, s.market AS market, s.market_phase AS market_phase,
           s.source_type AS source_type, s.plan_quality AS plan_quality, s.decision_engine_version AS decision_engine_version,
           o.eval_status AS eval_status,
           o.outcome AS outcome, o.unable_reason AS unable_reason, COUNT(*) AS n,
           SUM(CASE WHEN o.eval_status = 'completed' THEN o.stock_return_pct END) AS return_sum,
           SUM(CASE WHEN o.eval_status = 'completed' AND o.stock_return_pct IS NOT NULL THEN 1 ELSE 0 END) AS return_n
    FROM decision_signal_outcome o JOIN decision_signal s ON s.id = o.signal_id
    WHERE o.engine_version = ${engineVersion}
      AND o.horizon IN (${Prisma.join(horizons)})
      AND s.status IN (${Prisma.join(statuses)})
      ${query.decision_engine_version ? Prisma.sql`AND s.decision_engine_version = ${query.decision_engine_version}` : Prisma.empty}
    GROUP BY o.horizon, s.action, s.market, s.market_phase, s.source_type, s.plan_quality, s.decision_engine_version, o.eval_status, o.outcome, o.unable_reason`);

  const total = emptyTally();
  const unableReasons: Record<string, number> = {};
  const cells = new Map<string, { horizon: TOutcomeHorizon; action: TSignalAction; tally: Tally }>();
  for (const row of rows) {
    add(total, row);
    if (row.eval_status === "unable" && row.unable_reason)
      unableReasons[row.unable_reason] = (unableReasons[row.unable_reason] ?? 0) + Number(row.n);
    const key = `${row.horizon}|${row.action}`;
    const cell = cells.get(key) ?? {
      horizon: row.horizon as TOutcomeHorizon,
      action: row.action as TSignalAction,
      tally: emptyTally(),
    };
    add(cell.tally, row);
    cells.set(key, cell);
  }
  const order = (h: string) => (OUTCOME_HORIZONS as readonly string[]).indexOf(h);
  const breakdowns = Object.fromEntries(
    DIMENSIONS.map((d) => [d, buckets(rows, d)]),
  ) as TOutcomeStatsResponse["breakdowns"];
  breakdowns.horizon.sort((a, b) => order(a.value ?? "") - order(b.value ?? ""));
  return {
    engine_version: engineVersion,
    horizons,
    statuses,
    ...counts(total),
    unable_reasons: unableReasons,
    breakdowns,
    by_horizon_action: [...cells.values()]
      .sort((a, b) => order(a.horizon) - order(b.horizon) || a.action.localeCompare(b.action))
      .map((c) => ({ horizon: c.horizon, action: c.action, ...counts(c.tally) })),
  };
}
