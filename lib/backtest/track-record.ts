import { RULE_ENGINE_VERSION } from "@/lib/analysis/engine";
import { db } from "@/lib/db/client";
import { parseSummary } from "./serialize";

// The one-line "track record" of a report: from the newest completed backtest of the
// current rule set on the same stock, the long side's hit rate and mean return at the 10-day horizon (the
// longest one the run has when it lacks 10) against the mean of all calls at that horizon (with step 1,
// the stock's unconditional mean over the period). Older rule sets' runs never describe today's calls.

const PREFERRED_HORIZON = 10;

export interface TrackRecord {
  backtestId: string;
  engineVersion: string;
  startDate: string;
  endDate: string;
  horizon: number;
  longCount: number;
  longHitRatePct: number | null;
  longMeanReturnPct: number | null;
  allMeanReturnPct: number | null;
}

/**
 * The run latestTrackRecord reads, as SQL answering one column of it (at most one row): a reader that kept what it
 * built from a track record can tell with its id and completion time whether that record is still the stock's
 * latest. A run taken over after a crash completes again under the same id, with a new completion time.
 */
export function latestTrackRecordSql(
  column: "id" | "completed_at",
  targetKey: string,
): { sql: string; params: string[] } {
  return {
    sql: `SELECT ${column} FROM backtest_run WHERE target_key = ? AND engine_version = ? AND status = 'completed' ORDER BY completed_at DESC, id DESC LIMIT 1`,
    params: [targetKey, RULE_ENGINE_VERSION],
  };
}

export async function latestTrackRecord(targetKey: string): Promise<TrackRecord | null> {
  const row = await db().backtestRun.findFirst({
    where: { targetKey, engineVersion: RULE_ENGINE_VERSION, status: "completed" },
    orderBy: [{ completedAt: "desc" }, { id: "desc" }],
    select: { id: true, engineVersion: true, startDate: true, endDate: true, summary: true },
  });
  const summary = row ? parseSummary(row.summary) : null;
  if (!row || !summary || !row.startDate || !row.endDate) return null;
  const horizon =
    summary.horizons.find((h) => h.horizon === PREFERRED_HORIZON) ??
    [...summary.horizons].filter((h) => h.horizon < PREFERRED_HORIZON).sort((a, b) => b.horizon - a.horizon)[0] ??
    summary.horizons[0];
  if (!horizon) return null;
  return {
    backtestId: row.id,
    engineVersion: row.engineVersion,
    startDate: row.startDate,
    endDate: row.endDate,
    horizon: horizon.horizon,
    longCount: horizon.long_side.count,
    longHitRatePct: horizon.long_side.hit_rate_pct,
    longMeanReturnPct: horizon.long_side.mean_return_pct,
    allMeanReturnPct: horizon.all.mean_return_pct,
  };
}

const signed = (v: number | null) => (v === null ? "—" : `${v > 0 ? "+" : ""}${v.toFixed(2)}%`);
const rate = (v: number | null) => (v === null ? "—" : `${v.toFixed(1)}%`);

/** The line in the report's language; the same words serve the Markdown, the share card and the page. */
export function trackRecordText(record: TrackRecord, lang: "zh" | "en"): string {
  const r = record;
  if (lang === "zh") {
    return (
      `历史表现（规则 ${r.engineVersion} 回测 ${r.startDate} → ${r.endDate}）：做多信号 ${r.longCount} 次，` +
      `${r.horizon}日命中率 ${rate(r.longHitRatePct)}，平均收益 ${signed(r.longMeanReturnPct)}，同期全部判断平均 ${signed(r.allMeanReturnPct)}`
    );
  }
  return (
    `Track record (rules ${r.engineVersion} backtest ${r.startDate} → ${r.endDate}): ${r.longCount} long-side calls, ` +
    `${r.horizon}-day hit rate ${rate(r.longHitRatePct)}, mean return ${signed(r.longMeanReturnPct)} against ${signed(r.allMeanReturnPct)} for all calls of the period`
  );
}
