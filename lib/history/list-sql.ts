import type { Prisma } from "@/generated/prisma/client";
import type { HistoryItemRow } from "./serialize";

// The two hot list reads (GET /history and /history/stocks) run as parameterised SQL: through Prisma's
// client engine each query paid ~7 ms of query compilation on top of a sub-millisecond SQLite read (bench
// history-list: 93 vs 2,012 req/s against bare SQL at 100,000 records). The filters are still built from
// the same Prisma-style condition objects (historyWhere, stockRowsWhere) so there is one definition of each.

/** The list columns, aliased to the model's field names (quoted: PostgreSQL folds bare aliases to lower case) so rows feed the same serializers. */
export const HISTORY_ITEM_SQL = [
  "id",
  'query_id AS "queryId"',
  'stock_code AS "stockCode"',
  'display_code AS "displayCode"',
  "market",
  'stock_name AS "stockName"',
  'report_type AS "reportType"',
  'report_language AS "reportLanguage"',
  "region",
  'trend_prediction AS "trendPrediction"',
  'analysis_summary AS "analysisSummary"',
  'sentiment_score AS "sentimentScore"',
  'operation_advice AS "operationAdvice"',
  "action",
  'current_price AS "currentPrice"',
  'change_pct AS "changePct"',
  'volume_ratio AS "volumeRatio"',
  'turnover_rate AS "turnoverRate"',
  'model_used AS "modelUsed"',
  'created_at AS "createdAt"',
  'market_phase_summary AS "marketPhaseSummary"',
  'asset_type AS "assetType"',
].join(", ");

/** The total of an unfiltered page: the per-target counts history_target's triggers keep (a row per stock, not per record). */
export const UNFILTERED_TOTAL_SQL = "SELECT COALESCE(SUM(record_count), 0) AS n FROM history_target";

export interface SqlCondition {
  /** The condition, "" when there is none. */
  sql: string;
  params: unknown[];
}

/** " WHERE <condition>", or "" without one: a bare COUNT(*) lets SQLite count the smallest index instead of scanning. */
export function whereClause(condition: SqlCondition): string {
  return condition.sql ? ` WHERE ${condition.sql}` : "";
}

const COLUMN: Record<string, string> = {
  targetKey: "target_key",
  stockCode: "stock_code",
  reportType: "report_type",
  createdAt: "created_at",
};

function column(field: string): string {
  const name = COLUMN[field];
  if (!name) throw new Error(`history SQL: no column for ${field}`);
  return name;
}

/**
 * Translates the subset of Prisma where-input the history filters produce (equality, `in`, `startsWith`,
 * gte/lt ranges, OR) into SQL. Anything else is a programming error and throws.
 */
export function toSqlCondition(where: Prisma.AnalysisHistoryWhereInput): SqlCondition {
  const parts: string[] = [];
  const params: unknown[] = [];
  for (const [field, value] of Object.entries(where)) {
    if (value === undefined) continue;
    if (field === "OR") {
      const alternatives = (value as Prisma.AnalysisHistoryWhereInput[]).map(toSqlCondition);
      parts.push(`(${alternatives.map((a) => a.sql).join(" OR ")})`);
      params.push(...alternatives.flatMap((a) => a.params));
      continue;
    }
    const name = column(field);
    if (typeof value === "string") {
      parts.push(`${name} = ?`);
      params.push(value);
      continue;
    }
    const filter = value as { in?: string[]; startsWith?: string; gte?: Date; lt?: Date };
    if (filter.in) {
      parts.push(`${name} IN (${filter.in.map(() => "?").join(", ")})`);
      params.push(...filter.in);
    }
    if (filter.startsWith !== undefined) {
      // A range on the prefix keeps the index usable (LIKE would not, with SQLite's default case folding).
      parts.push(`(${name} >= ? AND ${name} < ?)`);
      params.push(filter.startsWith, `${filter.startsWith}\uffff`);
    }
    if (filter.gte) {
      parts.push(`${name} >= ?`);
      params.push(filter.gte);
    }
    if (filter.lt) {
      parts.push(`${name} < ?`);
      params.push(filter.lt);
    }
  }
  return { sql: parts.join(" AND "), params };
}

/** COUNT(*) comes back as a BigInt from the driver. */
export function countOf(rows: { n: bigint | number }[]): number {
  return Number(rows[0]?.n ?? 0);
}

export type HistoryItemSqlRow = HistoryItemRow;
