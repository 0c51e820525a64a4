import type { TRunFlowSnapshot } from "@/lib/analysis/run-schemas";
import { now } from "@/lib/clock";
import type { TaskRow } from "./store";

type FlowStatus = TRunFlowSnapshot["status"];
type NodeKind = TRunFlowSnapshot["nodes"][number]["kind"];

// The stages a task passes, with the progress at which each one starts (as the pipelines report them).
const ANALYSIS_STAGES: readonly { id: string; label: string; lane: string; kind: NodeKind; from: number }[] = [
  { id: "daily_bars", label: "Daily bars", lane: "data", kind: "data_source", from: 10 },
  { id: "quote", label: "Realtime quote", lane: "data", kind: "data_source", from: 30 },
  { id: "news", label: "News search", lane: "data", kind: "data_source", from: 45 },
  { id: "decision", label: "Indicators and rule decision", lane: "analysis", kind: "analysis", from: 60 },
  { id: "llm", label: "LLM report", lane: "model", kind: "model", from: 70 },
  { id: "report", label: "Stored report", lane: "artifact", kind: "artifact", from: 90 },
];
const REVIEW_STAGES: typeof ANALYSIS_STAGES = [
  { id: "overview", label: "Market overview", lane: "data", kind: "data_source", from: 10 },
  { id: "news", label: "Market news", lane: "data", kind: "data_source", from: 40 },
  { id: "review", label: "Review text", lane: "model", kind: "model", from: 60 },
  { id: "report", label: "Stored review", lane: "artifact", kind: "artifact", from: 90 },
];
const LANES = [
  { id: "entry", label: "Request", order: 0 },
  { id: "data", label: "Data", order: 1 },
  { id: "analysis", label: "Analysis", order: 2 },
  { id: "model", label: "Model", order: 3 },
  { id: "artifact", label: "Report", order: 4 },
];

function stageStatus(task: TaskRow, from: number, next: number): FlowStatus {
  if (task.status === "pending") return "pending";
  if (task.progress >= next) return "success";
  if (task.progress >= from)
    return task.status === "failed" ? "failed" : task.status === "processing" ? "running" : "unknown";
  return task.status === "failed" ? "skipped" : "pending";
}

/** The flow of a task before (or without) stored diagnostics: its stages, placed by the task's progress. */
export function skeletonFlow(task: TaskRow): TRunFlowSnapshot {
  const stages = task.kind === "market_review" ? REVIEW_STAGES : ANALYSIS_STAGES;
  const queueStatus: FlowStatus = task.status === "pending" ? "running" : "success";
  const nodes: TRunFlowSnapshot["nodes"] = [
    {
      id: "entry",
      lane: "entry",
      kind: "entry",
      label: "api_async",
      status: "success",
      started_at: task.createdAt.toISOString(),
      metadata: {},
    },
    {
      id: "queue",
      lane: "entry",
      kind: "queue",
      label: "Task queue",
      status: queueStatus,
      started_at: task.createdAt.toISOString(),
      ended_at: task.startedAt?.toISOString() ?? null,
      message: task.message,
      metadata: {},
    },
  ];
  const edges: TRunFlowSnapshot["edges"] = [
    { id: "entry->queue", from: "entry", to: "queue", kind: "control", status: "success", metadata: {} },
  ];
  let previous = "queue";
  stages.forEach((stage, index) => {
    const status = stageStatus(task, stage.from, stages[index + 1]?.from ?? 100);
    nodes.push({ id: stage.id, lane: stage.lane, kind: stage.kind, label: stage.label, status, metadata: {} });
    edges.push({ id: `${previous}->${stage.id}`, from: previous, to: stage.id, kind: "control", status, metadata: {} });
    previous = stage.id;
  });
  const overall: FlowStatus =
    task.status === "pending"
      ? "pending"
      : task.status === "processing"
        ? "running"
        : task.status === "failed"
          ? "failed"
          : task.status === "completed"
            ? "success"
            : "unknown";
  const events: TRunFlowSnapshot["events"] = task.error
    ? [
        {
          id: "task:failed",
          timestamp: task.completedAt?.toISOString() ?? null,
          severity: "danger",
          type: "task_failed",
          node_id: null,
          title: "Task failed",
          message: task.error,
          metadata: {},
        },
      ]
    : [];
  return {
    task_id: task.id,
    trace_id: task.traceId,
    stock_code: task.stockCode,
    stock_name: task.stockName,
    status: overall,
    summary: {
      elapsed_ms: task.startedAt ? (task.completedAt ?? now()).getTime() - task.startedAt.getTime() : null,
      bottleneck_node_id: null,
      failed_attempts: 0,
      fallback_count: 0,
      model: null,
      data_source_count: 0,
      event_count: events.length,
    },
    lanes: LANES,
    nodes,
    edges,
    events,
    generated_at: now().toISOString(),
  };
}
