import { z } from "zod";

// docs/api.md §5: the run diagnostics summary and the run-flow snapshot stored with every analysis.
export const COMPONENT_STATUSES = ["ok", "degraded", "failed", "unknown", "not_configured", "skipped"] as const;
export const FLOW_STATUSES = [
  "pending",
  "running",
  "success",
  "failed",
  "degraded",
  "fallback",
  "timeout",
  "cancel_requested",
  "cancelled",
  "skipped",
  "unknown",
] as const;

export const ZDiagnosticComponent = z
  .object({
    key: z.string(),
    label: z.string(),
    status: z.enum(COMPONENT_STATUSES),
    message: z.string(),
    details: z.record(z.string(), z.unknown()).optional(),
  })
  .meta({ id: "RunDiagnosticComponent" });

export const ZRunDiagnosticSummary = z
  .object({
    trace_id: z.string().nullish(),
    task_id: z.string().nullish(),
    query_id: z.string().nullish(),
    stock_code: z.string().nullish(),
    trigger_source: z.string().nullish(),
    status: z.enum(["normal", "degraded", "failed", "unknown"]),
    status_label: z.string(),
    reason: z.string(),
    components: z.record(z.string(), ZDiagnosticComponent),
    copy_text: z.string().describe("Plain-text summary a user can paste into a bug report"),
  })
  .meta({ id: "RunDiagnosticSummaryResponse" });

const ZFlowMetadata = z.record(z.string(), z.unknown());

export const ZRunFlowSnapshot = z
  .object({
    task_id: z.string(),
    trace_id: z.string().nullish(),
    stock_code: z.string(),
    stock_name: z.string().nullish(),
    status: z.enum(FLOW_STATUSES),
    summary: z.object({
      elapsed_ms: z.number().nullish(),
      bottleneck_node_id: z.string().nullish(),
      failed_attempts: z.number().int(),
      fallback_count: z.number().int(),
      model: z.string().nullish(),
      data_source_count: z.number().int(),
      event_count: z.number().int(),
    }),
    lanes: z.array(z.object({ id: z.string(), label: z.string(), order: z.number().int() })),
    nodes: z.array(
      z.object({
        id: z.string(),
        lane: z.string(),
        kind: z.enum(["entry", "queue", "data_source", "analysis", "model", "artifact", "notification"]),
        label: z.string(),
        status: z.enum(FLOW_STATUSES),
        provider: z.string().nullish(),
        started_at: z.string().nullish(),
        ended_at: z.string().nullish(),
        duration_ms: z.number().nullish(),
        attempts: z.number().int().nullish(),
        record_count: z.number().int().nullish(),
        message: z.string().nullish(),
        metadata: ZFlowMetadata,
      }),
    ),
    edges: z.array(
      z.object({
        id: z.string(),
        from: z.string(),
        to: z.string(),
        kind: z.enum(["data", "control", "fallback", "retry"]),
        status: z.enum(FLOW_STATUSES),
        label: z.string().nullish(),
        message: z.string().nullish(),
        metadata: ZFlowMetadata,
      }),
    ),
    events: z.array(
      z.object({
        id: z.string(),
        timestamp: z.string().nullish(),
        severity: z.enum(["info", "success", "warning", "danger"]),
        type: z.string(),
        node_id: z.string().nullish(),
        title: z.string(),
        message: z.string().nullish(),
        metadata: ZFlowMetadata,
      }),
    ),
    generated_at: z.string(),
  })
  .meta({ id: "RunFlowSnapshot" });

export type TRunDiagnosticSummary = z.infer<typeof ZRunDiagnosticSummary>;
export type TRunFlowSnapshot = z.infer<typeof ZRunFlowSnapshot>;
export type TDiagnosticComponent = z.infer<typeof ZDiagnosticComponent>;
