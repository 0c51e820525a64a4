import type { AnalysisHistory } from "@/generated/prisma/client";
import {
  ZRunDiagnosticSummary,
  ZRunFlowSnapshot,
  type TRunDiagnosticSummary,
  type TRunFlowSnapshot,
} from "@/lib/analysis/run-schemas";
import { db } from "@/lib/db/client";
import { ApiError, notFound } from "@/lib/errors/api-error";
import { buildMarkdownReport } from "./markdown";
import { toAnalysisReport } from "./report";
import type { TAnalysisReport, TMarkdownReportResponse, TNewsIntelResponse } from "./schemas";
import { parseJsonObject, recordLanguage, toNewsIntelItem } from "./serialize";
import { DB_ID_MAX } from "@/lib/db/id-range";

const INTEGER_ID = /^\d{1,15}$/;

/** Spec 4.3: record_id is the integer id or the query_id; an integer form is tried as an id first. */
export async function findHistoryRecord(recordId: string): Promise<AnalysisHistory | null> {
  const key = recordId.trim();
  if (!key) return null;
  if (INTEGER_ID.test(key) && Number(key) <= DB_ID_MAX) {
    const byId = await db().analysisHistory.findUnique({ where: { id: Number(key) } });
    if (byId) return byId;
  }
  return db().analysisHistory.findUnique({ where: { queryId: key } });
}

export async function getHistoryRecordOrThrow(recordId: string): Promise<AnalysisHistory> {
  const row = await findHistoryRecord(recordId);
  if (!row) throw notFound(`History record ${recordId} not found`);
  return row;
}

// GET /api/v1/history/{record_id} – the AnalysisReport rebuilt from the record (same rules as analyze).
export async function getHistoryReport(recordId: string): Promise<TAnalysisReport> {
  return toAnalysisReport(await getHistoryRecordOrThrow(recordId));
}

const DIAGNOSTICS_MISSING = {
  zh: { label: "未知", reason: "该记录未保存运行诊断" },
  en: { label: "Unknown", reason: "No run diagnostics were stored with this record" },
};

// GET /api/v1/history/{record_id}/diagnostics – as stored; a record without them reads "unknown".
export async function getHistoryDiagnostics(recordId: string): Promise<TRunDiagnosticSummary> {
  const row = await getHistoryRecordOrThrow(recordId);
  const stored = ZRunDiagnosticSummary.safeParse(parseJsonObject(row.diagnostics));
  if (stored.success) return stored.data;
  const text = DIAGNOSTICS_MISSING[recordLanguage(row.reportLanguage)];
  return {
    trace_id: row.traceId,
    query_id: row.queryId,
    stock_code: row.displayCode,
    status: "unknown",
    status_label: text.label,
    reason: text.reason,
    components: {},
    copy_text: `${row.displayCode} ${row.queryId}: ${text.reason}`,
  };
}

// GET /api/v1/history/{record_id}/flow – as stored; a record without one gets an empty skeleton.
export async function getHistoryFlow(recordId: string): Promise<TRunFlowSnapshot> {
  const row = await getHistoryRecordOrThrow(recordId);
  const stored = ZRunFlowSnapshot.safeParse(parseJsonObject(row.flow));
  if (stored.success) return stored.data;
  return {
    task_id: row.queryId,
    trace_id: row.traceId,
    stock_code: row.displayCode,
    stock_name: row.stockName,
    status: "unknown",
    summary: { failed_attempts: 0, fallback_count: 0, model: row.modelUsed, data_source_count: 0, event_count: 0 },
    lanes: [],
    nodes: [],
    edges: [],
    events: [],
    generated_at: row.createdAt.toISOString(),
  };
}

/**
 * GET /api/v1/history/{record_id}/news – the news the analysis used, in the order it showed them. The
 * spec lists no 404 here: an unknown record has no news, which is an empty list (still 200).
 */
export async function getHistoryNews(recordId: string, limit: number): Promise<TNewsIntelResponse> {
  const row = await findHistoryRecord(recordId);
  if (!row) return { total: 0, items: [] };
  const where = { historyId: row.id };
  const [total, news] = await Promise.all([
    db().analysisNews.count({ where }),
    db().analysisNews.findMany({
      where,
      orderBy: { position: "asc" },
      take: limit,
      select: { title: true, snippet: true, url: true },
    }),
  ]);
  return { total, items: news.map(toNewsIntelItem) };
}

/** The news a record's Markdown lists, in the order the analysis showed them. */
export function readRecordNews(historyId: number) {
  return db().analysisNews.findMany({ where: { historyId }, orderBy: { position: "asc" } });
}

/** The record's AnalysisReport and its Markdown text; 500 generation_failed when either cannot be built. */
export async function buildRecordMarkdown(
  row: AnalysisHistory,
): Promise<{ report: TAnalysisReport; markdown: string }> {
  const news = await readRecordNews(row.id);
  try {
    const report = toAnalysisReport(row);
    const markdown = buildMarkdownReport({
      report,
      news,
      dataSource: row.dataSource,
      region: row.region,
      volumeRatio: row.volumeRatio,
      turnoverRate: row.turnoverRate,
    });
    return { report, markdown };
  } catch {
    throw ApiError.of("generation_failed", `The Markdown report of record ${row.id} could not be generated`);
  }
}

// GET /api/v1/history/{record_id}/markdown – the full report as Markdown in the record's language.
export async function getHistoryMarkdown(recordId: string): Promise<TMarkdownReportResponse> {
  const { markdown } = await buildRecordMarkdown(await getHistoryRecordOrThrow(recordId));
  return { content: markdown };
}
