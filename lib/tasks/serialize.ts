import { ANALYSIS_PHASES } from "@/lib/analysis/schemas";
import { displayName } from "@/lib/market/symbols";
import { TASK_KINDS, type TTaskInfo, type TTaskKind, type TTaskStatusValue } from "./schemas";
import type { TaskRow } from "./store";

function parseSkills(text: string | null): string[] | null {
  if (!text) return null;
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((s): s is string => typeof s === "string") : null;
  } catch {
    return null;
  }
}

// TaskInfo's schema enumerates simple and detailed: brief reads as simple, full as detailed.
function wireReportType(value: string | null): TTaskInfo["report_type"] {
  if (value === "simple" || value === "brief") return "simple";
  if (value === "detailed" || value === "full") return "detailed";
  return null;
}

function wirePhase(value: string | null): TTaskInfo["analysis_phase"] {
  return (ANALYSIS_PHASES as readonly string[]).includes(value ?? "") ? (value as TTaskInfo["analysis_phase"]) : "auto";
}

// Both names travel with the task: the stream goes to every browser, each showing the name of its own UI language.
function stockNames(row: TaskRow): TTaskInfo["stock_names"] {
  // A market review and a screening run are about no one stock.
  if (row.kind === "market_review" || row.kind === "screening") return null;
  const target = { market: row.market, code: row.stockCode, kind: row.assetType };
  return { zh: displayName(target, "zh"), en: displayName(target, "en") };
}

function errorParams(text: string | null): Record<string, string> | null {
  if (!text) return null;
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === "object" ? (value as Record<string, string>) : null;
  } catch {
    return null;
  }
}

export function toTaskInfo(row: TaskRow): TTaskInfo {
  return {
    task_id: row.id,
    stock_code: row.stockCode,
    status: row.status as TTaskStatusValue,
    created_at: row.createdAt.toISOString(),
    trace_id: row.traceId,
    stock_name: row.stockName,
    progress: row.progress,
    message: row.message,
    report_type: wireReportType(row.reportType),
    started_at: row.startedAt?.toISOString() ?? null,
    completed_at: row.completedAt?.toISOString() ?? null,
    error: row.error,
    error_code: row.errorCode,
    error_params: errorParams(row.errorParams),
    original_query: row.originalQuery,
    selection_source: row.selectionSource,
    analysis_phase: wirePhase(row.analysisPhase),
    skills: parseSkills(row.skills),
    region: row.region,
    asset_type: row.assetType === "stock" || row.assetType === "index" ? row.assetType : null,
    task_kind: (TASK_KINDS as readonly string[]).includes(row.kind) ? (row.kind as TTaskKind) : null,
    stock_names: stockNames(row),
  };
}

export function taskSkills(row: TaskRow): string[] | null {
  return parseSkills(row.skills);
}
