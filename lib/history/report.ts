import type { AnalysisHistory } from "@/generated/prisma/client";
import type { StoredReportParts } from "./repository";
import { localizedStockName } from "./stock-name";
import { structuredReport } from "./structured-report";
import type { TAnalysisReport } from "./schemas";

function parseJson<T>(text: string | null): T | null {
  if (!text) return null;
  try {
    return JSON.parse(text) as T;
  } catch {
    return null;
  }
}

/** Spec 2.6: the AnalysisReport rebuilt from a stored record (meta from columns, parts as stored). */
export function toAnalysisReport(row: AnalysisHistory): TAnalysisReport {
  const parts = parseJson<StoredReportParts>(row.reportJson);
  if (!parts) throw new Error(`history record ${row.id} has an unreadable report`);
  const language = row.reportLanguage === "en" ? "en" : "zh";
  const report: Omit<TAnalysisReport, "structured_report"> = {
    meta: {
      id: row.id,
      query_id: row.queryId,
      stock_code: row.displayCode,
      stock_name: localizedStockName(row),
      report_type: row.reportType,
      report_language: language,
      created_at: row.createdAt.toISOString(),
      current_price: row.currentPrice,
      change_pct: row.changePct,
      model_used: row.modelUsed,
      engine_version: row.engineVersion,
      market_phase_summary: parseJson<Record<string, unknown>>(row.marketPhaseSummary),
      asset_type: row.assetType === "stock" || row.assetType === "index" ? row.assetType : null,
    },
    summary: parts.summary,
    strategy: parts.strategy,
    details: parts.details,
  };
  return { ...report, structured_report: structuredReport(report) };
}
