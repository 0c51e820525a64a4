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
