import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ZHistoryResponse,
  ZRunDetail,
  ZScreenResponse,
  ZScreenTaskAccepted,
  ZScreenTaskStatus,
  ZScheduledLatestResponse as ZScheduledLatest,
  ZStrategiesResponse,
} from "@/lib/screening/schemas";
import { ZHotspotsResponse } from "@/lib/screening/hotspots";
import { startTestServer, type TestServer } from "../setup/api-server";
import { expectKeys } from "./compat/reference-client";

// Both databases: runs are stored, listed and filtered in each dialect.
// CONTRACT §14.1 and docs/api.md §14.1 over HTTP: a real server whose only source is a CSV folder of real bars
// (tests/fixtures/real-bars), some files cut off on a day a strategy fires, so the run has known candidates whose
// figures the test recomputes from the files with its own arithmetic.

const REAL_BARS = path.resolve("tests/fixtures/real-bars");
const DIR = fs.mkdtempSync(path.join(os.tmpdir(), "dsa-screening-api-"));
let server: TestServer;

interface Row {
  line: string;
  date: string;
  high: number;
  close: number;
  volume: number;
}

function rows(name: string): { header: string; rows: Row[] } {
  const [header, ...lines] = fs.readFileSync(path.join(REAL_BARS, name), "utf8").trim().split("\n");
  return {
    header: header!,
    rows: lines.map((line) => {
      const cells = line.split(",");
      return { line, date: cells[0]!, high: Number(cells[2]), close: Number(cells[4]), volume: Number(cells[5]) };
    }),
  };
}

const volumeRatio = (r: Row[], i: number) => r[i]!.volume / (r.slice(i - 5, i).reduce((s, x) => s + x.volume, 0) / 5);
const priorYearHigh = (r: Row[], i: number) => Math.max(...r.slice(i - 250, i).map((x) => x.high));

/** Writes the file cut off at the first row (with a year of history before it) where `fires` holds. */
function cutAt(name: string, code: string, fires: (r: Row[], i: number) => boolean): Row[] {
  const file = rows(name);
  const i = file.rows.findIndex((_, k) => k >= 260 && fires(file.rows, k));
  expect(i, `${name}: no row fires`).toBeGreaterThan(0);
  const kept = file.rows.slice(0, i + 1);
  fs.writeFileSync(path.join(DIR, `${code}.csv`), [file.header, ...kept.map((r) => r.line)].join("\n") + "\n");
  return kept;
}

let surge: Row[];
let newHigh: Row[];

beforeAll(async () => {
  surge = cutAt("cn-600036-2021-2025.csv", "600036", (r, i) => volumeRatio(r, i) >= 3);
  newHigh = cutAt("cn-300750-2018-2022.csv", "300750", (r, i) => r[i]!.close >= priorYearHigh(r, i));
  fs.copyFileSync(path.join(REAL_BARS, "cn-600519-2024-2026.csv"), path.join(DIR, "600519.csv"));
  fs.writeFileSync(path.join(DIR, "000001.csv"), "date,close\nnot a date,1\n");
  fs.copyFileSync(path.join(REAL_BARS, "us-AAPL-2012-2014.csv"), path.join(DIR, "AAPL.csv"));
  server = await startTestServer({ MARKET_DATA_SOURCES: "csv", CSV_DATA_DIR: DIR });
});
afterAll(async () => {
  await server?.stop();
  fs.rmSync(DIR, { recursive: true, force: true });
});

function api(pathAndQuery: string, init: RequestInit = {}) {
  return fetch(`${server.baseUrl}/api/v1/screening${pathAndQuery}`, init);
}

async function json(res: Response, status: number): Promise<unknown> {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  return JSON.parse(text);
}

function screen(body: Record<string, unknown>) {
  return api("/screen", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

async function screenOk(body: Record<string, unknown>) {
  return ZScreenResponse.parse(await json(await screen(body), 200));
}

const round2 = (x: number) => Math.round(x * 100) / 100;

/** Changes settings through the config API (in effect at once). */
async function putConfig(items: Record<string, string>): Promise<void> {
  const current = (await json(await fetch(`${server.baseUrl}/api/v1/system/config?include_schema=false`), 200)) as {
    config_version: string;
  };
  const put = await fetch(`${server.baseUrl}/api/v1/system/config`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      config_version: current.config_version,
      items: Object.entries(items).map(([key, value]) => ({ key, value })),
    }),
  });
  await json(put, 200);
}

describe("screening strategies and status", () => {
  it("status says enabled and available with the strategy count; strategies carry the fields the client reads", async () => {
    const status = (await json(await api("/status"), 200)) as Record<string, unknown>;
    expect(status).toMatchObject({ enabled: true, available: true, strategy_count: 8 });
    for (const language of ["zh", "en"]) {
      const body = ZStrategiesResponse.parse(await json(await api(`/strategies?language=${language}`), 200));
      expect(body).toMatchObject({ enabled: true, strategy_count: 8 });
      for (const s of body.strategies) {
        expectKeys(s, [
          "id",
          "name",
          "title",
          "description",
          "version",
          "category",
          "tag",
          "tags",
          "analysis_skills",
          "market_scope",
          "market",
        ]);
        expect(s.name).toBe(s.names[language as "zh" | "en"]);
      }
    }
  });
});

describe("a screening run over a CSV folder", () => {
  it("a volume surge: the candidate's reason names the volume ratio the file gives, and the run is stored", async () => {
    const body = await screenOk({ market: "cn", strategy: "volume_surge", language: "en" });
    expectKeys(body, [
      "candidates",
      "candidate_count",
      "run_id",
      "strategy",
      "market",
      "snapshot_count",
      "after_filter_count",
      "ranking_mode",
      "warnings",
      "source_errors",
      "quality_status",
      "quality_score",
      "quality_reasons",
      "llm_ranked",
      "snapshot_fallback_used",
      "dsa_enrichment",
      "deep_analysis_requested",
      "daily_enriched",
      "risk_enabled",
    ]);
    const i = surge.length - 1;
    const ratio = round2(volumeRatio(surge, i));
    const candidate = body.candidates.find((c) => c.code === "600036");
    expect(candidate, JSON.stringify(body.candidates)).toBeDefined();
    expect(candidate).toMatchObject({
      market: "cn",
      score: ratio,
      score_metric: "volume_ratio",
      last_bar_date: surge[i]!.date,
      bars_source: "csv",
      is_sample_data: false,
      reasons: [`Volume vs 5-day average ${Number.isInteger(ratio) ? ratio : ratio.toFixed(2)} ≥ 3`],
    });
    expect(candidate!.metrics.close).toBe(surge[i]!.close);
    // The reference's client reads one reason line and the price.
    expect(candidate!.reason).toBe(candidate!.reasons.join("; "));
    expect(candidate!.price).toBe(surge[i]!.close);
    // Real bars of 2022: not current, said on the candidate; the sparkline's closes are the file's last 30.
    expect(candidate!.stale).toBe(true);
    expect(candidate!.closes).toEqual(surge.slice(-30).map((r) => r.close));
    expect(candidate!.change_pct).toBe(round2((surge[i]!.close / surge[i - 1]!.close - 1) * 100));
    // Four cn files, one unreadable: three read, the fourth named in source_errors.
    expect(body).toMatchObject({
      snapshot_source: "csv",
      snapshot_count: 4,
      bars_loaded_count: 3,
      quality_status: "degraded",
      quality_score: 75,
      ranking_mode: "factor",
      llm_ranked: false,
    });
    expect(body.source_error_details).toEqual([expect.objectContaining({ source: "csv" })]);
    expect(body.source_error_details[0]!.message).toMatch(/000001/);
    // The reference's client shows source_errors as lines of text.
    expect(body.source_errors).toEqual([expect.stringMatching(/^csv: .*000001/)]);

    const stored = ZRunDetail.parse(await json(await api(`/history/${body.run_id}`), 200));
    expect(stored.result).toEqual(body);
    expect(stored).toMatchObject({ run_id: body.run_id, strategy: "volume_surge", enabled: true });
  });

  it("as the reference's client sends it: a UUID variant_seed, no language", async () => {
    const body = await screenOk({
      market: "cn",
      strategy: "volume_surge",
      max_results: 20,
      variant_seed: "0f8fad5b-d9cb-469f-a165-70867728950e",
    });
    expect(body.candidates.map((c) => c.code)).toContain("600036");
  });

  it("llm_rank without an LLM channel keeps the rule order and says why", async () => {
    const body = await screenOk({ market: "cn", strategy: "volume_surge", llm_rank: true });
    expect(body).toMatchObject({
      ranking_mode: "factor",
      llm_ranked: false,
      llm_market_view: null,
      llm_failure_reason: "no LLM channel configured",
    });
    expect(body.candidates.map((c) => c.code)).toContain("600036");
  });

  it("a new 52-week high: the high the close cleared is the file's highest high of the 250 sessions before", async () => {
    const body = await screenOk({ market: "cn", strategy: "new_high_52w", language: "zh" });
    const i = newHigh.length - 1;
    const candidate = body.candidates.find((c) => c.code === "300750");
    expect(candidate, JSON.stringify(body.candidates)).toBeDefined();
    expect(candidate!.metrics.high_52w).toBe(priorYearHigh(newHigh, i));
    expect(candidate!.metrics.close_vs_high_52w_pct).toBe(
      round2((newHigh[i]!.close / priorYearHigh(newHigh, i) - 1) * 100),
    );
    expect(candidate!.reasons[0]).toMatch(/^收盘价相对 52 周最高价 \d+\.\d\d% ≥ 0\.00%$/);
    expect(body.candidates.map((c) => c.rank)).toEqual(body.candidates.map((_, k) => k + 1));
  });

  it("a market with no files screens nothing and says why; the benchmark missing fails relative strength", async () => {
    const hk = await screenOk({ market: "hk", strategy: "volume_surge", language: "en" });
    expect(hk).toMatchObject({
      snapshot_count: 0,
      candidate_count: 0,
      quality_status: "insufficient",
      quality_score: 0,
    });
    expect(hk.quality_reasons.join(" ")).toMatch(/Nothing to screen/);
    const rs = await screenOk({ market: "us", strategy: "relative_strength", language: "en" });
    expect(rs.quality_status).toBe("insufficient");
    expect(rs.quality_reasons.join(" ")).toMatch(/benchmark SPX/);
  });

  it("history lists the runs newest first and filters by strategy and market; source history counts the csv source", async () => {
    const all = ZHistoryResponse.parse(await json(await api("/history?limit=50"), 200));
    expect(all.run_count).toBeGreaterThanOrEqual(4);
    const times = all.runs.map((r) => r.created_at);
    expect([...times].sort().reverse()).toEqual(times);
    const surges = ZHistoryResponse.parse(await json(await api("/history?strategy=volume_surge&market=cn"), 200));
    // Three such runs so far: the volume surge above, the reference client's and the one asking for a re-rank.
    expect(surges.runs.map((r) => [r.strategy, r.market])).toEqual([
      ["volume_surge", "cn"],
      ["volume_surge", "cn"],
      ["volume_surge", "cn"],
    ]);
    const sources = (await json(await api("/source-history"), 200)) as {
      runs_analyzed: number;
      sources: Record<string, { selected_runs: number; error_count: number; error_samples: string[] }>;
    };
    expect(sources.runs_analyzed).toBe(all.run_count);
    expect(sources.sources.csv!.selected_runs).toBeGreaterThanOrEqual(3);
    expect(sources.sources.csv!.error_count).toBeGreaterThanOrEqual(2);
  });

  it("a queued run: 202 with the fields the client reads, progress, then the stored run under the task's id", async () => {
    const res = await api("/screen/tasks", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ market: "cn", strategy: "volume_surge", max_results: 5, language: "en" }),
    });
    const accepted = ZScreenTaskAccepted.parse(await json(res, 202));
    expect(accepted).toMatchObject({ status: "pending", strategy: "volume_surge", market: "cn", max_results: 5 });
    let status = ZScreenTaskStatus.parse(await json(await api(`/screen/tasks/${accepted.task_id}`), 200));
    const deadline = Date.now() + 20_000;
    while (status.status !== "completed") {
      expect(status.status, status.error ?? "").not.toBe("failed");
      expect(Date.now()).toBeLessThan(deadline);
      await new Promise((r) => setTimeout(r, 50));
      status = ZScreenTaskStatus.parse(await json(await api(`/screen/tasks/${accepted.task_id}`), 200));
    }
    expect(status.progress).toBe(100);
    expect(status.result!.run_id).toBe(accepted.task_id);
    expect(status.result!.candidates.map((c) => c.code)).toContain("600036");
    const stored = ZRunDetail.parse(await json(await api(`/history/${accepted.task_id}`), 200));
    expect(stored.result).toEqual(status.result);
    // The task list shows it as a screening task, about no one stock.
    const tasks = (await json(await fetch(`${server.baseUrl}/api/v1/analysis/tasks?limit=50`), 200)) as {
      tasks: { task_id: string; task_kind: string | null; stock_names: unknown }[];
    };
    expect(tasks.tasks.find((t) => t.task_id === accepted.task_id)).toMatchObject({
      task_kind: "screening",
      stock_names: null,
    });
    await json(await api("/screen/tasks/no-such-task"), 404);
  });

  it("a strategy of one's own: saved, listed, run like a built-in one, replaced and deleted", async () => {
    const mine = {
      id: "my_surge",
      name: { zh: "我的放量", en: "My surge" },
      description: { zh: "量比至少 3 且 RSI(14) 不超过 100", en: "Volume at least 3× and RSI(14) at most 100" },
      category: "volume",
      markets: ["cn"],
      filters: [
        { metric: "volume_ratio", op: "gte", value: 3 },
        { metric: "rsi14", op: "lte", value: 100 },
      ],
      rank: { metric: "volume_ratio", order: "desc" },
    };
    const post = (body: unknown) =>
      api("/strategies?language=en", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    expect(await json(await post(mine), 201)).toMatchObject({ id: "my_surge", name: "My surge", builtin: false });
    expect(((await json(await post(mine), 409)) as { error: string }).error).toBe("conflict");
    await json(await post({ ...mine, id: "volume_surge" }), 409);
    await json(await post({ ...mine, id: "bad_metric", filters: [{ metric: "astrology", op: "gte", value: 1 }] }), 422);

    const listed = ZStrategiesResponse.parse(await json(await api("/strategies"), 200));
    expect(listed.strategy_count).toBe(9);
    expect(listed.strategies.at(-1)).toMatchObject({ id: "my_surge", name: "我的放量", builtin: false });

    const run = await screenOk({ market: "cn", strategy: "my_surge", language: "en" });
    const candidate = run.candidates.find((c) => c.code === "600036")!;
    expect(candidate.reasons).toHaveLength(2);
    expect(candidate.reasons[1]).toMatch(/^RSI\(14\) \d+\.\d\d ≤ 100$/);

    const put = (id: string, body: unknown) =>
      api(`/strategies/${id}`, {
        method: "PUT",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    const narrower = { ...mine, filters: [{ metric: "volume_ratio", op: "gte", value: 1000 }] };
    expect(await json(await put("my_surge", narrower), 200)).toMatchObject({ id: "my_surge" });
    expect((await screenOk({ market: "cn", strategy: "my_surge" })).candidate_count).toBe(0);
    expect(
      ((await json(await put("volume_surge", { ...mine, id: "volume_surge" }), 400)) as { error: string }).error,
    ).toBe("not_changeable");
    await json(await put("nobody", { ...mine, id: "nobody" }), 404);
    await json(await put("my_surge", { ...mine, id: "other" }), 400);

    await json(await api("/strategies/my_surge", { method: "DELETE" }), 200);
    await json(await api("/strategies/my_surge", { method: "DELETE" }), 404);
    await json(await api("/strategies/volume_surge", { method: "DELETE" }), 400);
    // Its runs stay readable.
    await json(await api(`/history/${run.run_id}`), 200);
  });

  it("the daily run queues SCREENING_SCHEDULE_STRATEGIES; scheduled-latest gives the newest it completed", async () => {
    const before = ZScheduledLatest.parse(await json(await api("/scheduled-latest"), 200));
    expect(before).toEqual({ available: false, run: null, candidates: [] });
    await putConfig({
      SCREENING_SCHEDULE_STRATEGIES: "volume_surge,no_such_strategy",
      SCREENING_SCHEDULE_MARKET: "cn",
      STOCK_LIST: "",
      MARKET_REVIEW_ENABLED: "false",
      TRADING_DAY_CHECK_ENABLED: "false",
    });
    const ran = (await json(
      await fetch(`${server.baseUrl}/api/v1/system/scheduler/run-now`, { method: "POST" }),
      202,
    )) as { screening: { strategy: string; task_id: string | null; message: string }[]; message: string };
    expect(ran.screening.map((s) => [s.strategy, s.task_id === null])).toEqual([
      ["volume_surge", false],
      ["no_such_strategy", true],
    ]);
    expect(ran.message).toContain("1 of 2 screening runs queued");
    const taskId = ran.screening[0]!.task_id!;
    const deadline = Date.now() + 20_000;
    let latest = ZScheduledLatest.parse(await json(await api("/scheduled-latest?target_time=18:30"), 200));
    while (!latest.available) {
      expect(Date.now()).toBeLessThan(deadline);
      await new Promise((r) => setTimeout(r, 100));
      latest = ZScheduledLatest.parse(await json(await api("/scheduled-latest?target_time=18:30"), 200));
    }
    expect(latest.run).toMatchObject({
      run_id: taskId,
      strategy: "volume_surge",
      result: { target_time: "18:30", mode: "scheduled", run_url: `/screening?run=${taskId}` },
    });
    expect(latest.candidates.map((c) => c.code)).toContain("600036");
    await putConfig({ SCREENING_SCHEDULE_STRATEGIES: "" });
  });

  it("hotspots: the client's shape with no boards, why for each source, 404 for a topic", async () => {
    const answer = ZHotspotsResponse.parse(await json(await api("/hotspots?top=5&include_details=true"), 200));
    expectKeys(answer, ["enabled", "provider", "provider_used", "source_errors", "hotspots", "hotspot_count", "stale"]);
    expect(answer).toMatchObject({
      enabled: true,
      provider: "auto",
      provider_used: null,
      hotspots: [],
      hotspot_count: 0,
    });
    expect(answer.source_errors).toEqual(["csv: daily bars carry no sectors"]);
    await json(await api("/hotspots?top=0"), 422);
    const topic = (await json(await api("/hotspots/BK0475"), 404)) as { reason_code: string };
    expect(topic.reason_code).toBe("hotspot_not_found");
  });

  it("404 for an unknown strategy or run, 422 for a bad market, 503 when switched off", async () => {
    const unknown = (await json(await screen({ market: "cn", strategy: "moonshot" }), 404)) as { reason_code: string };
    expect(unknown.reason_code).toBe("strategy_not_found");
    await json(await api("/history/no-such-run"), 404);
    await json(await screen({ market: "jp", strategy: "volume_surge" }), 422);
    await putConfig({ SCREENING_ENABLED: "false" });
    expect(await json(await api("/status"), 200)).toMatchObject({ enabled: false, available: true });
    const off = (await json(await screen({ market: "cn", strategy: "volume_surge" }), 503)) as { reason_code: string };
    expect(off.reason_code).toBe("screening_disabled");
    await json(await api("/hotspots"), 503);
  });
});
