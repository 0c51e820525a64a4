import { now } from "@/lib/clock";
import type { TDiagnosticComponent, TRunDiagnosticSummary, TRunFlowSnapshot } from "./run-schemas";
import { sanitizeText, sanitizeValue } from "@/lib/log/sanitize";

type StageStatus = TDiagnosticComponent["status"];
type NodeKind = TRunFlowSnapshot["nodes"][number]["kind"];

export interface SourceAttempt {
  provider: string;
  ok: boolean;
  reason: string | null;
  ms: number;
}

export interface StageOutcome {
  status?: StageStatus;
  message?: string;
  provider?: string | null;
  attempts?: SourceAttempt[];
  recordCount?: number;
  details?: Record<string, unknown>;
}

interface StageRecord extends StageOutcome {
  key: string;
  label: string;
  lane: string;
  kind: NodeKind;
  status: StageStatus;
  startedAt: string;
  endedAt: string;
  durationMs: number;
}

export interface RunIdentity {
  queryId: string;
  traceId: string;
  taskId?: string | null;
  stockCode: string;
  stockName?: string | null;
  triggerSource: string;
}

const LANES = [
  { id: "entry", label: "Request", order: 0 },
  { id: "data", label: "Data", order: 1 },
  { id: "analysis", label: "Analysis", order: 2 },
  { id: "model", label: "Model", order: 3 },
  { id: "artifact", label: "Report", order: 4 },
];

const LANE_OF: Record<NodeKind, string> = {
  entry: "entry",
  queue: "entry",
  data_source: "data",
  analysis: "analysis",
  model: "model",
  artifact: "artifact",
  notification: "artifact",
};

const FLOW_STATUS: Record<StageStatus, TRunFlowSnapshot["status"]> = {
  ok: "success",
  degraded: "degraded",
  failed: "failed",
  unknown: "unknown",
  not_configured: "skipped",
  skipped: "skipped",
};

/**
 * Records each pipeline stage (timing, provider, fallbacks) once, and derives from that one record both
 * the diagnostics summary and the run-flow snapshot (docs/api.md §5), so the two never disagree.
 */
export class RunRecorder {
  private readonly stages: StageRecord[] = [];
  private readonly started = now();
  private model: string | null = null;

  constructor(private readonly identity: RunIdentity) {}

  /** Runs one stage; a throw marks it failed and propagates. `describe` turns the result into an outcome. */
  async stage<T>(
    key: string,
    label: string,
    kind: NodeKind,
    work: () => Promise<T> | T,
    describe?: (result: T) => StageOutcome,
  ): Promise<T> {
    const outcome = await this.attempt(key, label, kind, work, describe, "failed");
    if (!outcome.ok) throw outcome.error;
    return outcome.value;
  }

  /** A stage the run can do without: a throw is recorded as degraded and yields null. */
  async optionalStage<T>(
    key: string,
    label: string,
    kind: NodeKind,
    work: () => Promise<T> | T,
    describe?: (result: T) => StageOutcome,
  ): Promise<T | null> {
    const outcome = await this.attempt(key, label, kind, work, describe, "degraded");
    return outcome.ok ? outcome.value : null;
  }

  private async attempt<T>(
    key: string,
    label: string,
    kind: NodeKind,
    work: () => Promise<T> | T,
    describe: ((result: T) => StageOutcome) | undefined,
    onError: StageStatus,
  ): Promise<{ ok: true; value: T } | { ok: false; error: unknown }> {
    const startedAt = now();
    try {
      const value = await work();
      this.push(key, label, kind, startedAt, { status: "ok", ...describe?.(value) });
      return { ok: true, value };
    } catch (error) {
      const attempts = (error as { attempts?: SourceAttempt[] }).attempts;
      this.push(key, label, kind, startedAt, { status: onError, message: (error as Error).message, attempts });
      return { ok: false, error };
    }
  }

  /** A stage that did not run (not configured, skipped by report type). */
  note(key: string, label: string, kind: NodeKind, outcome: StageOutcome & { status: StageStatus }): void {
    this.push(key, label, kind, now(), outcome);
  }

  setModel(model: string | null): void {
    this.model = model;
  }

  private push(
    key: string,
    label: string,
    kind: NodeKind,
    startedAt: Date,
    outcome: StageOutcome & { status?: StageStatus },
  ): void {
    const endedAt = now();
    this.stages.push({
      ...outcome,
      message: outcome.message === undefined ? undefined : sanitizeText(outcome.message),
      attempts: outcome.attempts?.map((a) => ({ ...a, reason: a.reason === null ? null : sanitizeText(a.reason) })),
      details: outcome.details ? sanitizeValue(outcome.details) : undefined,
      key,
      label,
      kind,
      lane: LANE_OF[kind],
      status: outcome.status ?? "ok",
      startedAt: startedAt.toISOString(),
      endedAt: endedAt.toISOString(),
      durationMs: endedAt.getTime() - startedAt.getTime(),
    });
  }

  private overall(): TRunDiagnosticSummary["status"] {
    if (this.stages.some((s) => s.status === "failed" && s.kind !== "model")) return "failed";
    const fellBack = this.stages.some((s) => s.attempts?.some((a) => !a.ok));
    if (fellBack || this.stages.some((s) => s.status === "degraded" || (s.status === "failed" && s.kind === "model")))
      return "degraded";
    return "normal";
  }

  diagnostics(): TRunDiagnosticSummary {
    const status = this.overall();
    const components: Record<string, TDiagnosticComponent> = {};
    for (const stage of this.stages) {
      const details: Record<string, unknown> = { ...stage.details, duration_ms: stage.durationMs };
      if (stage.provider) details.provider = stage.provider;
      if (stage.attempts) details.attempts = stage.attempts;
      if (stage.recordCount !== undefined) details.record_count = stage.recordCount;
      components[stage.key] = {
        key: stage.key,
        label: stage.label,
        status: stage.status,
        message: stage.message ?? stage.status,
        details,
      };
    }
    const troubled = this.stages.filter(
      (s) => s.status !== "ok" && s.status !== "skipped" && s.status !== "not_configured",
    );
    const reason =
      troubled.length > 0
        ? troubled.map((s) => `${s.label}: ${s.message ?? s.status}`).join("; ")
        : this.stages.some((s) => s.attempts?.some((a) => !a.ok))
          ? "a data source failed and the next one answered"
          : "all stages completed";
    const label = { normal: "Normal", degraded: "Degraded", failed: "Failed", unknown: "Unknown" }[status];
    const lines = [
      `DSA run ${this.identity.queryId} (${this.identity.stockCode}) – ${label}: ${reason}`,
      `trace_id=${this.identity.traceId} trigger=${this.identity.triggerSource}`,
      ...this.stages.map((s) => {
        const failed = s.attempts?.filter((a) => !a.ok).map((a) => `${a.provider}: ${a.reason}`) ?? [];
        return `- ${s.label}: ${s.status} in ${s.durationMs} ms${s.provider ? ` via ${s.provider}` : ""}${failed.length ? ` (fell back after ${failed.join(", ")})` : ""}`;
      }),
    ];
    return {
      trace_id: this.identity.traceId,
      task_id: this.identity.taskId ?? null,
      query_id: this.identity.queryId,
      stock_code: this.identity.stockCode,
      trigger_source: this.identity.triggerSource,
      status,
      status_label: label,
      reason,
      components,
      copy_text: lines.join("\n"),
    };
  }

  flow(): TRunFlowSnapshot {
    const nodes: TRunFlowSnapshot["nodes"] = [
      {
        id: "entry",
        lane: "entry",
        kind: "entry",
        label: this.identity.triggerSource,
        status: "success",
        started_at: this.started.toISOString(),
        metadata: {},
      },
    ];
    const edges: TRunFlowSnapshot["edges"] = [];
    const events: TRunFlowSnapshot["events"] = [];
    let previous = "entry";
    let failedAttempts = 0;
    let fallbacks = 0;
    const sources = new Set<string>();
    for (const stage of this.stages) {
      const status = FLOW_STATUS[stage.status];
      nodes.push({
        id: stage.key,
        lane: stage.lane,
        kind: stage.kind,
        label: stage.label,
        status,
        provider: stage.provider ?? null,
        started_at: stage.startedAt,
        ended_at: stage.endedAt,
        duration_ms: stage.durationMs,
        attempts: stage.attempts?.length ?? null,
        record_count: stage.recordCount ?? null,
        message: stage.message ?? null,
        metadata: stage.details ?? {},
      });
      edges.push({
        id: `${previous}->${stage.key}`,
        from: previous,
        to: stage.key,
        kind: "control",
        status,
        metadata: {},
      });
      stage.attempts?.forEach((attempt, index) => {
        const id = `${stage.key}:${attempt.provider}:${index}`;
        nodes.push({
          id,
          lane: "data",
          kind: stage.kind === "model" ? "model" : "data_source",
          label: attempt.provider,
          status: attempt.ok ? "success" : "failed",
          provider: attempt.provider,
          duration_ms: attempt.ms,
          message: attempt.reason,
          metadata: {},
        });
        edges.push({
          id: `${id}->${stage.key}`,
          from: id,
          to: stage.key,
          kind: index === 0 ? "data" : "fallback",
          status: attempt.ok ? "success" : "failed",
          metadata: {},
        });
        if (!attempt.ok) failedAttempts++;
        if (index > 0) fallbacks++;
        if (attempt.ok) sources.add(attempt.provider);
      });
      if (stage.provider && stage.kind === "data_source") sources.add(stage.provider);
      events.push({
        id: `${stage.key}:done`,
        timestamp: stage.endedAt,
        severity:
          stage.status === "ok"
            ? "success"
            : stage.status === "failed"
              ? "danger"
              : stage.status === "degraded"
                ? "warning"
                : "info",
        type: `stage_${stage.status}`,
        node_id: stage.key,
        title: `${stage.label}: ${stage.status}`,
        message: stage.message ?? null,
        metadata: {},
      });
      previous = stage.key;
    }
    const bottleneck = [...this.stages].sort((a, b) => b.durationMs - a.durationMs)[0];
    const overall = this.overall();
    return {
      task_id: this.identity.taskId ?? this.identity.queryId,
      trace_id: this.identity.traceId,
      stock_code: this.identity.stockCode,
      stock_name: this.identity.stockName ?? null,
      status: overall === "failed" ? "failed" : overall === "degraded" ? "degraded" : "success",
      summary: {
        elapsed_ms: now().getTime() - this.started.getTime(),
        bottleneck_node_id: bottleneck?.key ?? null,
        failed_attempts: failedAttempts,
        fallback_count: fallbacks,
        model: this.model,
        data_source_count: sources.size,
        event_count: events.length,
      },
      lanes: LANES,
      nodes,
      edges,
      events,
      generated_at: now().toISOString(),
    };
  }
}
