import type { AnalysisHistory } from "@/generated/prisma/client";
import { ZRunFlowSnapshot, type TRunFlowSnapshot } from "@/lib/analysis/run-schemas";
import { db } from "@/lib/db/client";
import { getHistoryFlow } from "@/lib/history/record";
import { toAnalysisResult } from "@/lib/history/result";
import { parseJsonObject } from "@/lib/history/serialize";
import { notFound } from "@/lib/errors/api-error";
import { getMarketReviewParts, MARKET_REVIEW_REPORT_TYPE } from "@/lib/market-review";
import { TASK_STATUSES, type TTaskListQuery, type TTaskListResponse, type TTaskStatus } from "./schemas";
import { taskSkills, toTaskInfo } from "./serialize";
import { skeletonFlow } from "./skeleton-flow";
import { findVisibleTask, listVisibleTasks, queueCounters, type TaskRow } from "./store";

function parseStatusFilter(text: string | undefined): Set<string> | null {
  const wanted = (text ?? "")
    .split(",")
    .map((s) => s.trim().toLowerCase())
    .filter((s) => s !== "");
  return wanted.length > 0 ? new Set(wanted) : null;
}

// GET /api/v1/analysis/tasks – the queue view: limit first, then the status filter (spec 4.2).
export async function listTasks(query: TTaskListQuery): Promise<TTaskListResponse> {
  const [rows, counters] = await Promise.all([listVisibleTasks(query.limit), queueCounters()]);
  const wanted = parseStatusFilter(query.status);
  const tasks = rows.filter((row) => !wanted || wanted.has(row.status)).map(toTaskInfo);
  return { ...counters, tasks };
}

function isReview(record: Pick<AnalysisHistory, "reportType">): boolean {
  return record.reportType === MARKET_REVIEW_REPORT_TYPE;
}

function fromRecord(
  record: AnalysisHistory,
): Pick<TTaskStatus, "result" | "market_review_report" | "market_review_payload" | "region"> {
  if (isReview(record)) {
    const parts = getMarketReviewParts(record);
    return {
      result: null,
      market_review_report: parts.report,
      market_review_payload: parts.payload,
      region: parts.region ?? record.region,
    };
  }
  return {
    result: toAnalysisResult(record),
    market_review_report: null,
    market_review_payload: null,
    region: record.region,
  };
}

async function recordOf(queryId: string): Promise<AnalysisHistory | null> {
  return db().analysisHistory.findUnique({ where: { queryId } });
}

function statusFromTask(row: TaskRow): TTaskStatus {
  return {
    task_id: row.id,
    trace_id: row.traceId,
    status: (TASK_STATUSES as readonly string[]).includes(row.status)
      ? (row.status as TTaskStatus["status"])
      : "pending",
    progress: row.progress,
    result: null,
    market_review_report: null,
    market_review_payload: null,
    region: row.region,
    ...(row.status === "failed" ? { error: row.error ?? "failed" } : {}),
    stock_name: row.stockName,
    original_query: row.originalQuery,
    selection_source: row.selectionSource,
    analysis_phase: toTaskInfo(row).analysis_phase,
    skills: taskSkills(row),
  };
}

// GET /api/v1/analysis/status/{task_id} – the queue first, then history by query_id (spec 4.2).
export async function getTaskStatus(taskId: string): Promise<TTaskStatus> {
  const row = await findVisibleTask(taskId);
  if (row) {
    const status = statusFromTask(row);
    if (row.status !== "completed") return status;
    const record = await recordOf(row.id);
    return record ? { ...status, ...fromRecord(record), region: row.region ?? record.region } : status;
  }
  const record = await recordOf(taskId);
  if (!record) throw notFound(`Task ${taskId} not found`);
  return {
    task_id: taskId,
    trace_id: record.traceId,
    status: "completed",
    progress: 100,
    ...fromRecord(record),
    stock_name: record.stockName,
    original_query: null,
    selection_source: null,
    // The record keeps the market phase it saw (closed, intraday, ...), not the request's analysis_phase.
    analysis_phase: null,
    skills: null,
  };
}

// GET /api/v1/analysis/tasks/{task_id}/flow – live skeleton, stored flow, or history by query_id.
export async function getTaskFlow(taskId: string): Promise<TRunFlowSnapshot> {
  const row = await findVisibleTask(taskId);
  if (row) {
    if (row.status === "completed") {
      const record = await recordOf(row.id);
      const stored = ZRunFlowSnapshot.safeParse(parseJsonObject(record?.flow));
      if (stored.success) return stored.data;
    }
    return skeletonFlow(row);
  }
  const record = await recordOf(taskId);
  if (!record) throw notFound(`Task ${taskId} not found`);
  return getHistoryFlow(record.queryId);
}
