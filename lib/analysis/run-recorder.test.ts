import { describe, expect, it } from "vitest";
import { RunRecorder } from "./run-recorder";
import { ZRunDiagnosticSummary, ZRunFlowSnapshot } from "./run-schemas";

const identity = { queryId: "q1", traceId: "t1", stockCode: "600519", stockName: "贵州茅台", triggerSource: "api" };

describe("docs/api.md §5 run diagnostics and flow", () => {
  it("a clean run is normal, and both records validate against their schemas", async () => {
    const run = new RunRecorder(identity);
    await run.stage(
      "bars",
      "Daily bars",
      "data_source",
      () => [1, 2, 3],
      (bars) => ({ provider: "sample", recordCount: bars.length }),
    );
    await run.stage("decision", "Rule decision", "analysis", () => "ok");
    const diagnostics = ZRunDiagnosticSummary.parse(run.diagnostics());
    expect(diagnostics.status).toBe("normal");
    expect(diagnostics.components.bars).toMatchObject({
      status: "ok",
      details: { provider: "sample", record_count: 3 },
    });
    const flow = ZRunFlowSnapshot.parse(run.flow());
    expect(flow.nodes.map((n) => n.id)).toEqual(["entry", "bars", "decision"]);
    expect(flow.edges.map((e) => `${e.from}->${e.to}`)).toEqual(["entry->bars", "bars->decision"]);
    expect(flow.summary.event_count).toBe(2);
  });

  it("a provider fallback makes the run degraded and shows as a fallback edge", async () => {
    const run = new RunRecorder(identity);
    const attempts = [
      { provider: "eastmoney", ok: false, reason: "timeout after 8000 ms", ms: 8000 },
      { provider: "tencent", ok: true, reason: null, ms: 120 },
    ];
    await run.stage(
      "quote",
      "Quote",
      "data_source",
      () => 1,
      () => ({ provider: "tencent", attempts }),
    );
    const flow = run.flow();
    expect(run.diagnostics().status).toBe("degraded");
    expect(flow.summary).toMatchObject({ failed_attempts: 1, fallback_count: 1, data_source_count: 1 });
    expect(flow.edges.filter((e) => e.kind === "fallback")).toHaveLength(1);
    expect(run.diagnostics().copy_text).toContain("fell back after eastmoney: timeout after 8000 ms");
  });

  it("a failed required stage makes the run failed and rethrows; a failed model stage only degrades it", async () => {
    const model = new RunRecorder(identity);
    await expect(model.stage("llm", "LLM", "model", () => Promise.reject(new Error("HTTP 500")))).rejects.toThrow(
      "HTTP 500",
    );
    expect(model.diagnostics().status).toBe("degraded");
    const data = new RunRecorder(identity);
    await expect(
      data.stage("bars", "Daily bars", "data_source", () => Promise.reject(new Error("no data"))),
    ).rejects.toThrow();
    expect(data.diagnostics().status).toBe("failed");
    expect(data.flow().status).toBe("failed");
  });

  it("messages are sanitised before they are stored", async () => {
    const run = new RunRecorder(identity);
    await expect(
      run.stage("news", "News", "data_source", () =>
        Promise.reject(new Error("GET /search?api_key=supersecret1 -> 401")),
      ),
    ).rejects.toThrow();
    expect(JSON.stringify(run.diagnostics())).not.toContain("supersecret1");
    expect(JSON.stringify(run.flow())).not.toContain("supersecret1");
  });
});
