import "server-only";
import { db } from "@/lib/db/client";
import { activeDatabaseKind, placeholders } from "@/lib/db/raw-sql";
import type { TMarket } from "@/lib/market/symbols";
import { levelPrice } from "@/lib/signals/from-analysis";
import { signalTarget } from "@/lib/signals/target";

// Each position of the Portfolio page shows its stock's latest verdict (the newest stored report by
// target_key, over the [targetKey, id] index) and that report's stop, and is flagged when its last price is under
// the stop. The stop is the report's numeric stop-loss level: the newest decision signal linked to the report
// (source_report_id) that holds one, else the number of the report's strategy.stop_loss text. A short-side call
// (reduce, sell, avoid) puts its stop above the price (where the call is wrong), so the price is below it by
// design: such a stop is shown but never flags the holding.

const SHORT_SIDE = ["reduce", "sell", "avoid"];

export interface PositionPrice {
  symbol: string;
  market: string;
  last_price: number;
  price_available: boolean;
}

export interface PositionVerdict {
  recordId: number;
  action: string | null;
  score: number | null;
  createdAt: string;
  stop: number | null;
  /** The decision signal the stop comes from; null when it is the report's own strategy text (or there is no stop). */
  stopSignalId: number | null;
  /** below: a protective stop under the price (long side, hold, watch); above: a short-side call's invalidation level. */
  stopSide: "below" | "above" | null;
  /** The position's last price is below a protective stop. */
  belowStop: boolean;
}

/** The key of a position in the verdict map: its market and code as the snapshot names them. */
export function positionKey(p: Pick<PositionPrice, "market" | "symbol">): string {
  return `${p.market}:${p.symbol}`;
}

interface Latest {
  id: number;
  targetKey: string;
  action: string | null;
  sentimentScore: number | null;
  createdAt: Date;
}

async function latestReports(keys: readonly string[]): Promise<Latest[]> {
  const groups = await db().analysisHistory.groupBy({
    by: ["targetKey"],
    where: { targetKey: { in: [...keys] } },
    _max: { id: true },
  });
  const ids = groups.map((g) => g._max.id).filter((id): id is number => id !== null);
  if (ids.length === 0) return [];
  return db().analysisHistory.findMany({
    where: { id: { in: ids } },
    select: { id: true, targetKey: true, action: true, sentimentScore: true, createdAt: true },
  });
}

// report_json is always written by JSON.stringify; SQLite still checks it, PostgreSQL's cast would fail loudly.
const STOP_SQL = {
  sqlite: `CASE WHEN json_valid(report_json) THEN json_extract(report_json, '$.strategy.stop_loss') END`,
  postgres: `report_json::jsonb #>> '{strategy,stop_loss}'`,
};

/** The strategy.stop_loss text of each report, read inside the database (report_json also holds the bars, not needed here). */
async function strategyStops(ids: readonly number[]): Promise<Map<number, number | null>> {
  const rows = await db().$queryRawUnsafe<{ id: number | bigint; stop: unknown }[]>(
    placeholders(
      `SELECT id, ${STOP_SQL[activeDatabaseKind()]} AS stop FROM analysis_history WHERE id IN (${ids.map(() => "?").join(", ")})`,
    ),
    ...ids,
  );
  return new Map(
    rows.map((r) => [
      Number(r.id),
      typeof r.stop === "string" ? levelPrice(r.stop) : typeof r.stop === "number" && r.stop > 0 ? r.stop : null,
    ]),
  );
}

/** The newest signal with a stop linked to each report. */
async function signalStops(ids: readonly number[]): Promise<Map<number, { id: number; action: string; stop: number }>> {
  const rows = await db().decisionSignal.findMany({
    where: { sourceReportId: { in: [...ids] }, stopLoss: { not: null } },
    orderBy: { id: "desc" },
    select: { id: true, sourceReportId: true, action: true, stopLoss: true },
  });
  const out = new Map<number, { id: number; action: string; stop: number }>();
  for (const r of rows)
    if (!out.has(r.sourceReportId!)) out.set(r.sourceReportId!, { id: r.id, action: r.action, stop: r.stopLoss! });
  return out;
}

/** The latest verdict and stop of each position's stock, keyed by positionKey; a stock never analysed has no entry. */
export async function positionVerdicts(positions: readonly PositionPrice[]): Promise<Record<string, PositionVerdict>> {
  const keyOf = new Map<string, string>();
  for (const p of positions) keyOf.set(positionKey(p), signalTarget(p.symbol, p.market as TMarket).targetKey);
  if (keyOf.size === 0) return {};
  const reports = await latestReports([...new Set(keyOf.values())]);
  if (reports.length === 0) return {};
  const ids = reports.map((r) => r.id);
  const [texts, signals] = await Promise.all([strategyStops(ids), signalStops(ids)]);
  const byTarget = new Map(reports.map((r) => [r.targetKey, r]));

  const out: Record<string, PositionVerdict> = {};
  for (const p of positions) {
    const report = byTarget.get(keyOf.get(positionKey(p))!);
    if (!report) continue;
    const signal = signals.get(report.id);
    const stop = signal?.stop ?? texts.get(report.id) ?? null;
    const stopAction = signal?.action ?? report.action;
    const stopSide = stop === null ? null : SHORT_SIDE.includes(stopAction ?? "") ? "above" : "below";
    out[positionKey(p)] = {
      recordId: report.id,
      action: report.action,
      score: report.sentimentScore,
      createdAt: report.createdAt.toISOString(),
      stop,
      stopSignalId: signal?.id ?? null,
      stopSide,
      belowStop: stopSide === "below" && p.price_available && p.last_price < stop!,
    };
  }
  return out;
}
