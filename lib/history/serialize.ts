import type { AnalysisHistory, AnalysisNews } from "@/generated/prisma/client";
import { actionLabel, normalizeActionValue } from "@/lib/analysis/engine";
import { localizedStockName } from "./stock-name";
import { NEWS_SNIPPET_MAX, type THistoryItem, type TNewsIntelItem, type TStockBarItem } from "./schemas";

// Wire records of the history endpoints (spec 2.6), built from rows: never a Prisma row on the wire.

/** The columns a list row needs: the JSON report parts stay in the database. */
export const HISTORY_ITEM_COLUMNS = {
  id: true,
  queryId: true,
  stockCode: true,
  displayCode: true,
  market: true,
  stockName: true,
  reportType: true,
  reportLanguage: true,
  region: true,
  trendPrediction: true,
  analysisSummary: true,
  sentimentScore: true,
  operationAdvice: true,
  action: true,
  currentPrice: true,
  changePct: true,
  volumeRatio: true,
  turnoverRate: true,
  modelUsed: true,
  createdAt: true,
  marketPhaseSummary: true,
  assetType: true,
} as const;

export type HistoryItemRow = Pick<AnalysisHistory, keyof typeof HISTORY_ITEM_COLUMNS>;

export function recordLanguage(value: string | null | undefined): "zh" | "en" {
  return value === "en" ? "en" : "zh";
}

export function assetTypeOf(value: string | null | undefined): "stock" | "index" | null {
  return value === "stock" || value === "index" ? value : null;
}

export function parseJsonObject(text: string | null | undefined): Record<string, unknown> | null {
  if (!text) return null;
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function actionOf(row: Pick<AnalysisHistory, "action" | "reportLanguage">) {
  const action = normalizeActionValue(row.action);
  return { action, action_label: actionLabel(action, recordLanguage(row.reportLanguage)) };
}

export function toHistoryItem(row: HistoryItemRow): THistoryItem {
  return {
    id: row.id,
    query_id: row.queryId,
    stock_code: row.displayCode,
    stock_name: localizedStockName(row),
    report_type: row.reportType,
    region: row.region,
    trend_prediction: row.trendPrediction,
    analysis_summary: row.analysisSummary,
    sentiment_score: row.sentimentScore,
    operation_advice: row.operationAdvice,
    ...actionOf(row),
    current_price: row.currentPrice,
    change_pct: row.changePct,
    volume_ratio: row.volumeRatio,
    turnover_rate: row.turnoverRate,
    model_used: row.modelUsed,
    created_at: row.createdAt.toISOString(),
    market_phase_summary: parseJsonObject(row.marketPhaseSummary),
    asset_type: assetTypeOf(row.assetType),
  };
}

export function toStockBarItem(row: HistoryItemRow, analysisCount: number): TStockBarItem {
  return {
    id: row.id,
    stock_code: row.displayCode,
    stock_name: localizedStockName(row),
    report_type: row.reportType,
    sentiment_score: row.sentimentScore,
    operation_advice: row.operationAdvice,
    ...actionOf(row),
    analysis_count: analysisCount,
    last_analysis_time: row.createdAt.toISOString(),
    model_used: row.modelUsed,
    market_phase_summary: parseJsonObject(row.marketPhaseSummary),
    asset_type: assetTypeOf(row.assetType),
  };
}

/** Spec 8: at most NEWS_SNIPPET_MAX characters (code points), an ellipsis marking a cut. */
export function clipSnippet(text: string, max = NEWS_SNIPPET_MAX): string {
  const chars = Array.from(text.replace(/\s+/g, " ").trim());
  if (chars.length <= max) return chars.join("");
  return `${chars
    .slice(0, max - 1)
    .join("")
    .trimEnd()}…`;
}

export function toNewsIntelItem(row: Pick<AnalysisNews, "title" | "snippet" | "url">): TNewsIntelItem {
  return { title: row.title, snippet: clipSnippet(row.snippet), url: row.url };
}
