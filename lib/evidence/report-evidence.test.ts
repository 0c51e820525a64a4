import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { analyzeRequest } from "@/lib/analysis/analyze";
import { ZAnalyzeRequest } from "@/lib/analysis/schemas";
import { setClock } from "@/lib/clock";
import { db } from "@/lib/db/client";
import type { TAnalysisResultResponse } from "@/lib/analysis/schemas";
import { parseBarsCsv } from "@/lib/market/providers/csv-bars";
import { withTempDatabase } from "@/tests/kits/db/temp-database";
import { EVIDENCE_BARS } from "./stock-evidence";
import { stockScope } from "./scope";
import { walkForwardCalls } from "./walk-forward";

// docs/api.md §13 end to end: an analysis of a real-bars CSV stock carries `details.evidence` (its stock scope
// recomputable from the same bars, the shipped market scope) and `details.data_quality`; a stale file is insufficient
// and its call is watch.

const FILE = path.resolve("tests/fixtures/real-bars/us-MSFT-2007-2012.csv");
const temp = withTempDatabase("report-evidence", { MARKET_DATA_SOURCES: "csv" });
const bars = parseBarsCsv(fs.readFileSync(FILE, "utf8"), "MSFT.csv");

async function analyze(language: "zh" | "en" = "en") {
  const dir = path.join(temp.dir, "csv");
  fs.mkdirSync(dir, { recursive: true });
  fs.copyFileSync(FILE, path.join(dir, "MSFT.csv"));
  temp.useSettings({ MARKET_DATA_SOURCES: "csv", CSV_DATA_DIR: dir });
  const request = ZAnalyzeRequest.parse({ stock_code: "MSFT", report_language: language });
  const outcome = await analyzeRequest(request, `trace-${language}`);
  expect(outcome.status).toBe(200);
  return (outcome.body as TAnalysisResultResponse).report;
}

describe("evidence and data quality on a report", () => {
  it("on current bars: data good, the stock scope equals the walk-forward of the same bars, the market scope is the shipped one", async () => {
    // The evening after the file's last session (New York): the data are current.
    setClock(() => new Date("2012-12-31T23:30:00Z"));
    const report = await analyze();
    const quality = report.details.data_quality!;
    expect(quality).toEqual({ level: "good", reasons: [], bars: 250, last_bar_date: "2012-12-31", source: "csv" });
    const evidence = report.details.evidence!;
    const action = report.summary.action!;
    expect(evidence).toMatchObject({ engine_version: report.meta.engine_version, action, horizon_days: 10 });
    const calls = await walkForwardCalls(bars.slice(-EVIDENCE_BARS), { market: "us", isSample: false });
    const expected = stockScope(calls, action);
    expect(evidence.scopes[0]).toEqual(expected);
    expect(evidence.scopes[0]!.n_calls).toBeGreaterThan(0);
    const market = evidence.scopes.find((s) => s.scope === "market")!;
    expect(market.universe).toBe("219 US stocks, 2000–2024 (DSA development universe)");
    if (expected!.verdict === "no_measurable_edge") expect(evidence.statement).toContain("no measurable edge");
    expect(evidence.statement).toContain(`${expected!.n_calls} "`);

    // Kept per (stock, engine version, last bar): the next analysis reads it instead of replaying again.
    const before = await db().engineEvidence.findMany();
    expect(before).toHaveLength(1);
    const again = await analyze("zh");
    expect(again.details.evidence!.scopes[0]).toEqual(expected);
    expect(again.details.evidence!.statement).toMatch(/没有可测量的优势|不利记录|可测量的优势|无法判断/);
    const after = await db().engineEvidence.findMany();
    expect(after[0]!.computedAt).toEqual(before[0]!.computedAt);
  });

  it("on a file that ended years ago: data insufficient (stale_bars), the call is watch and says why", async () => {
    setClock(() => new Date("2013-03-15T23:30:00Z"));
    const report = await analyze();
    const quality = report.details.data_quality!;
    expect(quality.level).toBe("insufficient");
    expect(quality.reasons.map((r) => r.code)).toEqual(["stale_bars"]);
    expect(report.summary.action).toBe("watch");
    expect(report.summary.operation_advice).toContain("the data cannot carry a call");
    expect(report.summary.operation_advice).toContain("The last bar is 2012-12-31");
    expect(report.details.evidence!.action).toBe("watch");
    // Nothing else in the report still reads as a call: the rules' conclusion is watch, at low confidence.
    const core = (report.details.raw_result as { dashboard: { core_conclusion: Record<string, unknown> } }).dashboard
      .core_conclusion;
    expect(core).toMatchObject({ signal_type: "watch", confidence: "low" });
    // Nothing speaks of today or the next session: the price is the file's close, the plan is not for this session.
    expect(report.summary.analysis_summary).toContain("(as of 2012-12-31 close)");
    expect(report.summary.analysis_summary).not.toMatch(/quote|next session|today/);
    expect(core.time_sensitivity).toBe("Data end 2012-12-31: not valid for the current session");
    const snapshot = report.details.context_snapshot as { as_of: { live: boolean; date: string } };
    expect(snapshot.as_of).toMatchObject({ date: "2012-12-31", live: false });
    expect(
      (report.details.raw_result as { dashboard: { phase_decision: unknown } }).dashboard.phase_decision,
    ).toBeNull();
    expect(core.position_advice).toEqual({
      no_position: report.summary.operation_advice,
      has_position: report.summary.operation_advice,
    });
  });
});
