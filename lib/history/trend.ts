import { db } from "@/lib/db/client";
import { sourceFamily } from "@/lib/market/source-family";

// A stock's score and price over its reports up to one report, for the small trend beside that
// report's headline, with the change since the report before it. The stored target_key groups every code form of
// one stock (600519, sh600519), and the read runs on the [targetKey, id] index. Only reports whose prices come from
// the same source family as the report's are compared (a CSV report is never set against a sample price).

/** Points a trend shows at most. */
export const TREND_POINTS = 20;

export interface StockTrendPoint {
  id: number;
  created_at: string;
  sentiment_score: number | null;
  current_price: number | null;
}

export interface StockTrendChange {
  previous_id: number;
  /** Score now minus the previous report's score; null when either has none. */
  score_delta: number | null;
  /** (price now − previous price) / previous price, in percent; null when either has none. */
  price_change_pct: number | null;
}

export interface StockTrend {
  /** Oldest first, ending with the report asked for. */
  points: StockTrendPoint[];
  change: StockTrendChange | null;
  /** Earlier reports of the stock left out because their prices come from another source. */
  other_sources: number;
}

/** The change from the second-to-last point to the last one; null with fewer than two points. */
export function changeSincePrevious(points: readonly StockTrendPoint[]): StockTrendChange | null {
  if (points.length < 2) return null;
  const now = points[points.length - 1]!;
  const before = points[points.length - 2]!;
  const score =
    now.sentiment_score !== null && before.sentiment_score !== null
      ? now.sentiment_score - before.sentiment_score
      : null;
  const price =
    now.current_price !== null && before.current_price !== null && before.current_price !== 0
      ? ((now.current_price - before.current_price) / before.current_price) * 100
      : null;
  return { previous_id: before.id, score_delta: score, price_change_pct: price };
}

/** The trend of the stock of record `recordId` up to that record; empty for an unknown id. */
export async function getStockTrend(recordId: number, limit: number = TREND_POINTS): Promise<StockTrend> {
  const record = await db().analysisHistory.findUnique({
    where: { id: recordId },
    select: { targetKey: true, dataSource: true },
  });
  if (!record) return { points: [], change: null, other_sources: 0 };
  const family = sourceFamily(record.dataSource);
  // Read a little deeper than shown, so the points left out for their source do not empty the trend.
  const rows = await db().analysisHistory.findMany({
    where: { targetKey: record.targetKey, id: { lte: recordId } },
    orderBy: { id: "desc" },
    take: limit * 3,
    select: { id: true, createdAt: true, sentimentScore: true, currentPrice: true, dataSource: true },
  });
  const same = rows.filter((row) => family === null || sourceFamily(row.dataSource) === family);
  const points = same
    .slice(0, limit)
    .reverse()
    .map((row) => ({
      id: row.id,
      created_at: row.createdAt.toISOString(),
      sentiment_score: row.sentimentScore,
      current_price: row.currentPrice,
    }));
  return { points, change: changeSincePrevious(points), other_sources: rows.length - same.length };
}
