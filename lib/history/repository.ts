import type { AnalysisHistory } from "@/generated/prisma/client";
import { db } from "@/lib/db/client";
import type { TReportDetails, TReportStrategy, TReportSummary } from "./schemas";

export interface NewsEvidence {
  title: string;
  snippet: string;
  url: string;
  source?: string | null;
  published_at?: string | null;
}

/** Everything one analysis stores; the parts are kept as produced so the report can be rebuilt exactly. */
export interface NewAnalysisRecord {
  queryId: string;
  traceId: string | null;
  stockCode: string;
  displayCode: string;
  stockName: string | null;
  market: string;
  assetType: "stock" | "index" | null;
  targetKey: string;
  reportType: string;
  reportLanguage: "zh" | "en";
  region: string | null;
  analysisPhase: string | null;
  currentPrice: number | null;
  changePct: number | null;
  volumeRatio: number | null;
  turnoverRate: number | null;
  modelUsed: string | null;
  engineVersion: string | null;
  dataSource: string | null;
  marketPhaseSummary: Record<string, unknown> | null;
  summary: TReportSummary;
  strategy: TReportStrategy;
  details: TReportDetails;
  rawResult: Record<string, unknown> | null;
  contextSnapshot: Record<string, unknown> | null;
  diagnostics: Record<string, unknown>;
  flow: Record<string, unknown>;
  news: NewsEvidence[];
}

export interface StoredReportParts {
  summary: TReportSummary;
  strategy: TReportStrategy;
  details: TReportDetails;
}

/** One transaction: the record and its news land together or not at all. */
export async function createAnalysisRecord(record: NewAnalysisRecord): Promise<AnalysisHistory> {
  const parts: StoredReportParts = { summary: record.summary, strategy: record.strategy, details: record.details };
  return db().analysisHistory.create({
    data: {
      queryId: record.queryId,
      traceId: record.traceId,
      stockCode: record.stockCode,
      displayCode: record.displayCode,
      stockName: record.stockName,
      market: record.market,
      assetType: record.assetType,
      targetKey: record.targetKey,
      reportType: record.reportType,
      reportLanguage: record.reportLanguage,
      region: record.region,
      analysisPhase: record.analysisPhase,
      sentimentScore: record.summary.sentiment_score,
      trendPrediction: record.summary.trend_prediction,
      operationAdvice: record.summary.operation_advice,
      action: record.summary.action,
      analysisSummary: record.summary.analysis_summary,
      currentPrice: record.currentPrice,
      changePct: record.changePct,
      volumeRatio: record.volumeRatio,
      turnoverRate: record.turnoverRate,
      modelUsed: record.modelUsed,
      engineVersion: record.engineVersion,
      dataSource: record.dataSource,
      marketPhaseSummary: record.marketPhaseSummary ? JSON.stringify(record.marketPhaseSummary) : null,
      reportJson: JSON.stringify(parts),
      rawResult: record.rawResult ? JSON.stringify(record.rawResult) : null,
      contextSnapshot: record.contextSnapshot ? JSON.stringify(record.contextSnapshot) : null,
      diagnostics: JSON.stringify(record.diagnostics),
      flow: JSON.stringify(record.flow),
      news: {
        create: record.news.map((item, position) => ({
          position,
          title: item.title,
          snippet: item.snippet,
          url: item.url,
          source: item.source ?? null,
          publishedAt: item.published_at ?? null,
        })),
      },
    },
  });
}

/**
 * The provider of the bars each stored report was made from (its data quality), by record id; null for records
 * stored before reports rated their data. Outcomes of calls made from a report are graded on that source only.
 */
export async function reportBarSources(ids: readonly number[]): Promise<Map<number, string | null>> {
  if (ids.length === 0) return new Map();
  const rows = await db().analysisHistory.findMany({
    where: { id: { in: [...new Set(ids)] } },
    select: { id: true, reportJson: true },
  });
  const sourceOf = (json: string | null): string | null => {
    try {
      const parts = JSON.parse(json ?? "null") as Partial<StoredReportParts> | null;
      return parts?.details?.data_quality?.source ?? null;
    } catch {
      return null;
    }
  };
  return new Map(rows.map((r) => [r.id, sourceOf(r.reportJson)]));
}
