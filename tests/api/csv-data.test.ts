import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ZAnalysisResultResponse } from "@/lib/analysis/schemas";
import { ZCsvDataFile, ZCsvDataFileList } from "@/lib/data/schemas";
import { ZTaskAccepted, ZTaskStatus, type TTaskStatus } from "@/lib/tasks/schemas";
import { ZBacktestAccepted, ZBacktestRun } from "@/lib/backtest/schemas";
import { startTestServer, type TestServer } from "../setup/api-server";

// docs/api.md §10 over HTTP: a real server with MARKET_DATA_SOURCES=csv,sample and CSV_DATA_DIR in a temporary
// folder holding real bars (tests/fixtures/real-bars), plus the upload/list/remove API of that folder.

const REAL_BARS = path.resolve("tests/fixtures/real-bars");
const DIR = fs.mkdtempSync(path.join(os.tmpdir(), "dsa-csv-api-"));
const HEADER = "date,open,high,low,close,volume";
let server: TestServer;

/** The fixture's text and the close on its last row (the file is oldest first). */
function fixture(name: string): { text: string; lastClose: number; lastDate: string; rows: number } {
  const text = fs.readFileSync(path.join(REAL_BARS, name), "utf8");
  const lines = text.trim().split("\n");
  const last = lines.at(-1)!.split(",");
  return { text, lastClose: Number(last[4]), lastDate: last[0]!, rows: lines.length - 1 };
}

const moutai = fixture("cn-600519-2024-2026.csv");
const apple = fixture("us-AAPL-2012-2014.csv");

beforeAll(async () => {
  fs.writeFileSync(path.join(DIR, "600519.csv"), moutai.text);
  fs.writeFileSync(path.join(DIR, "AAPL.csv"), apple.text);
  server = await startTestServer({ MARKET_DATA_SOURCES: "csv,sample", CSV_DATA_DIR: DIR });
});
afterAll(() => server?.stop());

function analyze(body: Record<string, unknown>): Promise<Response> {
  return fetch(`${server.baseUrl}/api/v1/analysis/analyze`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

async function analyzeOk(code: string) {
  const res = await analyze({ stock_code: code });
  expect(res.status, code).toBe(200);
  return ZAnalysisResultResponse.parse(await res.json());
}

function upload(code: string | null, file: { text: string; name?: string } | null): Promise<Response> {
  const form = new FormData();
  if (code !== null) form.set("code", code);
  if (file) form.set("file", new File([file.text], file.name ?? "upload.csv", { type: "text/csv" }));
  return fetch(`${server.baseUrl}/api/v1/data/csv`, { method: "POST", body: form });
}

async function listFiles() {
  const res = await fetch(`${server.baseUrl}/api/v1/data/csv`);
  expect(res.status).toBe(200);
  return ZCsvDataFileList.parse(await res.json()).items;
}

async function errorOf(res: Response, status: number, code: string): Promise<string> {
  const body = (await res.json()) as { error: string; message: string };
  expect(res.status, body.message).toBe(status);
  expect(body.error).toBe(code);
  return body.message;
}

async function waitForTask(taskId: string): Promise<TTaskStatus> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const status = ZTaskStatus.parse(await (await fetch(`${server.baseUrl}/api/v1/analysis/status/${taskId}`)).json());
    if (status.status === "completed" || status.status === "failed") return status;
    if (Date.now() > deadline) throw new Error(`task ${taskId} stayed ${status.status}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("analysis on the csv data source (docs/api.md §10)", () => {
  it("600519 from a real-bars file: data source csv, current price = the file's last close, last bar = its last date", async () => {
    const body = await analyzeOk("600519");
    expect(body.stock_code).toBe("600519");
    expect(body.report.meta.current_price).toBe(moutai.lastClose);
    const snapshot = body.report.details.context_snapshot as {
      data_source: string;
      indicators: { last_bar_date: string };
      quote: { source: string; time: string };
    };
    expect(snapshot.data_source).toBe("csv");
    expect(snapshot.quote.source).toBe("csv");
    expect(snapshot.quote.time).toBe(`${moutai.lastDate}T15:00:00+08:00`);
    expect(snapshot.indicators.last_bar_date).toBe(moutai.lastDate);
    expect(body.diagnostic_summary).toMatchObject({
      components: { daily_bars: { status: "ok", details: { provider: "csv" } } },
    });

    // The stored record and its Markdown name the source and the last bar's date.
    const markdown = (await (await fetch(`${server.baseUrl}/api/v1/history/${body.query_id}/markdown`)).json()) as {
      content: string;
    };
    expect(markdown.content).toContain("csv");
    expect(markdown.content).toContain(moutai.lastDate);
  });

  it("a backtest on the csv file names csv and the file's last date; buy-and-hold equals the file's closes", async () => {
    const res = await fetch(`${server.baseUrl}/api/v1/backtests`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ stock_code: "AAPL", horizons: [1, 5, 10], step: 1 }),
    });
    expect(res.status).toBe(202);
    const { backtest_id: id } = ZBacktestAccepted.parse(await res.json());
    let run = ZBacktestRun.parse(await (await fetch(`${server.baseUrl}/api/v1/backtests/${id}`)).json());
    for (let i = 0; i < 200 && run.status !== "completed" && run.status !== "failed"; i += 1) {
      await new Promise((r) => setTimeout(r, 100));
      run = ZBacktestRun.parse(await (await fetch(`${server.baseUrl}/api/v1/backtests/${id}`)).json());
    }
    expect(run).toMatchObject({
      status: "completed",
      data_source: "csv",
      last_bar_date: apple.lastDate,
      end_date: apple.lastDate,
    });
    // Every row from the 20th is a call (step 1): the file has apple.rows bars.
    expect(run.calls_total).toBe(apple.rows - 19);
    const closes = apple.text
      .trim()
      .split("\n")
      .slice(1)
      .map((l) => Number(l.split(",")[4]));
    expect(run.summary!.equity!.buy_hold_return_pct).toBeCloseTo((closes.at(-1)! / closes[19]! - 1) * 100, 9);
  });

  it("AAPL: the US file (zipline layout, extra columns ignored) gives the last close as the price", async () => {
    const body = await analyzeOk("aapl");
    expect(body.stock_code).toBe("AAPL");
    expect(body.report.meta.current_price).toBe(apple.lastClose);
    expect((body.report.details.context_snapshot as { data_source: string }).data_source).toBe("csv");
  });

  it("no file for the code: the analysis falls through to sample, and the diagnostics record the csv attempt", async () => {
    const body = await analyzeOk("000001");
    expect((body.report.details.context_snapshot as { data_source: string }).data_source).toBe("sample");
    expect(body.diagnostic_summary).toMatchObject({
      status: "degraded",
      components: {
        daily_bars: {
          details: {
            provider: "sample",
            attempts: [
              { provider: "csv", ok: false, reason: "empty" },
              { provider: "sample", ok: true },
            ],
          },
        },
      },
    });
  });

  it("an invalid file fails the analysis (500 analysis_failed naming file, line and problem) instead of falling through", async () => {
    // 300750 has sample data, so a fallthrough would have answered 200.
    fs.writeFileSync(
      path.join(DIR, "300750.csv"),
      `${HEADER}\n2024-01-02,10,11,9,10.5,100\n2024-01-03,10,9,11,10.5,100\n`,
    );
    const message = await errorOf(await analyze({ stock_code: "300750" }), 500, "analysis_failed");
    expect(message).toContain("300750.csv line 3: high 9 is below low 11");

    const accepted = ZTaskAccepted.parse(await (await analyze({ stock_code: "300750", async_mode: true })).json());
    const status = await waitForTask(accepted.task_id);
    expect(status.status).toBe("failed");
    expect(status.error).toContain("300750.csv line 3: high 9 is below low 11");
    fs.rmSync(path.join(DIR, "300750.csv"));
  });

  it("a replaced file is used by the next analysis", async () => {
    const text = fixture("cn-600036-2021-2025.csv");
    expect((await upload("600036", { text: text.text })).status).toBe(201);
    expect((await analyzeOk("600036")).report.meta.current_price).toBe(text.lastClose);

    const lines = text.text.trim().split("\n");
    const shorter = `${lines.slice(0, -1).join("\n")}\n`;
    const newLast = Number(lines.at(-2)!.split(",")[4]);
    expect((await upload("600036", { text: shorter })).status).toBe(201);
    expect((await analyzeOk("600036")).report.meta.current_price).toBe(newLast);
  });

  it("a file without a volume column is analysed; the report's data quality names missing_volume", async () => {
    const file = fixture("hk-00941-2020-2025.csv");
    const lines = file.text.trim().split(/\r?\n/);
    const volume = lines[0]!.split(",").indexOf("volume");
    const dropVolume = (line: string) =>
      line
        .split(",")
        .filter((_, i) => i !== volume)
        .join(",");
    const text = `${lines.map(dropVolume).join("\n")}\n`;
    expect(text.split("\n")[0]).not.toContain("volume");
    expect((await upload("00941", { text })).status).toBe(201);
    const { report } = await analyzeOk("00941");
    expect(report.meta.current_price).toBe(file.lastClose);
    // The file ends in 2025, so the data are stale too: stale_bars makes the level insufficient.
    expect(report.details.data_quality).toMatchObject({ level: "insufficient", source: "csv" });
    expect(report.details.data_quality!.reasons.map((r) => r.code).sort()).toEqual(["missing_volume", "stale_bars"]);
  });
});

describe("CSV data files API", () => {
  it("POST stores a checked file as <stock_code>.csv (the code normalised) → 201 with the item; GET lists it", async () => {
    const res = await upload("0941.HK", { text: fixture("hk-00941-2020-2025.csv").text, name: "china-mobile.csv" });
    expect(res.status).toBe(201);
    const item = ZCsvDataFile.parse(await res.json());
    expect(item).toMatchObject({
      code: "00941",
      file: "00941.csv",
      rows: 1314,
      first_date: "2020-01-02",
      last_date: "2025-05-22",
      error: null,
    });
    expect(item.size_bytes).toBe(fs.statSync(path.join(DIR, "00941.csv")).size);
    expect(fs.readdirSync(DIR).filter((name) => name.endsWith(".tmp"))).toEqual([]);

    const listed = await listFiles();
    expect(listed.map((f) => f.code)).toEqual(expect.arrayContaining(["00941", "600519", "AAPL"]));
    expect(listed.find((f) => f.code === "600519")).toMatchObject({
      rows: moutai.rows,
      last_date: moutai.lastDate,
      error: null,
    });
  });

  it("an invalid file is 400 invalid_import_file naming the line and problem, and nothing is written", async () => {
    const before = fs.readFileSync(path.join(DIR, "AAPL.csv"), "utf8");
    const res = await upload("AAPL", { text: `${HEADER}\n2024-01-02,10,11,9,10.5,100\n2024-01-03,10,11,9,-1,100\n` });
    const body = (await res.json()) as { error: string; message: string; detail: { line: number; problem: string } };
    expect(res.status).toBe(400);
    expect(body).toMatchObject({
      error: "invalid_import_file",
      message: "AAPL.csv line 3: close -1 is not above 0",
      detail: { line: 3, problem: "close -1 is not above 0" },
    });
    expect(fs.readFileSync(path.join(DIR, "AAPL.csv"), "utf8")).toBe(before);

    const missing = await errorOf(
      await upload("AAPL", { text: "date,open,close\n2024-01-02,1,1\n" }),
      400,
      "invalid_import_file",
    );
    expect(missing).toMatch(/^AAPL\.csv line 1: missing required column\(s\) high, low;/);
  });

  it("more than 5 MB or more than 20,000 rows is 413 payload_too_large with a clear message", async () => {
    const row = "2024-01-02,10,11,9,10.5,100\n";
    const huge = `${HEADER}\n${row.repeat(Math.ceil((5 * 1024 * 1024) / row.length) + 10)}`;
    expect(await errorOf(await upload("600000", { text: huge }), 413, "payload_too_large")).toMatch(
      /^upload\.csv has \d+ bytes; a CSV data file may have at most 5242880 bytes \(5 MB\)$/,
    );
    // Far past the limit, the request is refused while it streams, before the body is buffered.
    const far = await upload("600000", { text: huge.repeat(2) });
    expect(await errorOf(far, 413, "payload_too_large")).toMatch(/^Request body exceeds \d+ bytes$/);

    const days: string[] = [];
    for (let d = new Date(Date.UTC(1950, 0, 1)); days.length < 20_001; d = new Date(d.getTime() + 86_400_000))
      days.push(d.toISOString().slice(0, 10));
    const many = `${HEADER}\n${days.map((day) => `${day},10,11,9,10.5,100`).join("\n")}\n`;
    expect(await errorOf(await upload("600000", { text: many }), 413, "payload_too_large")).toBe(
      "upload.csv has 20001 rows; a CSV data file may have at most 20000 rows",
    );
    expect(fs.existsSync(path.join(DIR, "600000.csv"))).toBe(false);
  });

  it("path tricks and unknown codes are refused before anything is written", async () => {
    const text = `${HEADER}\n2024-01-02,10,11,9,10.5,100\n`;
    for (const code of ["../evil", "..", "a/b", "..\\evil", "/etc/passwd"]) {
      expect(await errorOf(await upload(code, { text }), 400, "validation_error"), code).toBeTruthy();
    }
    expect(fs.readdirSync(path.dirname(DIR)).filter((name) => name.startsWith("evil"))).toEqual([]);
    expect(fs.readdirSync(DIR).sort()).toEqual(
      fs
        .readdirSync(DIR)
        .filter((name) => name.endsWith(".csv"))
        .sort(),
    );
  });

  it("a body that is not multipart is 415; a missing file field is 422", async () => {
    const json = await fetch(`${server.baseUrl}/api/v1/data/csv`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ code: "AAPL" }),
    });
    await errorOf(json, 415, "unsupported_media_type");
    const res = await upload("AAPL", null);
    expect(res.status).toBe(422);
    expect(((await res.json()) as { detail: { loc: string[] }[] }).detail[0]!.loc).toEqual(["body", "file"]);
  });

  it("DELETE removes the code's file ({deleted: true}), then 404 not_found; the code may be given in any spelling", async () => {
    expect((await upload("700", { text: `${HEADER}\n2024-01-02,300,310,290,305,1000\n` })).status).toBe(201);
    expect(fs.existsSync(path.join(DIR, "00700.csv"))).toBe(true);
    const res = await fetch(`${server.baseUrl}/api/v1/data/csv/0700.HK`, { method: "DELETE" });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ deleted: true });
    expect(fs.existsSync(path.join(DIR, "00700.csv"))).toBe(false);
    expect((await listFiles()).map((f) => f.code)).not.toContain("00700");
    await errorOf(await fetch(`${server.baseUrl}/api/v1/data/csv/00700`, { method: "DELETE" }), 404, "not_found");
  });

  it("the OpenAPI document describes the upload as multipart/form-data with code and file", async () => {
    const doc = (await (await fetch(`${server.baseUrl}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: unknown }> } }>>;
      components: { schemas: Record<string, { properties?: Record<string, { format?: string }> }> };
    };
    const op = doc.paths["/api/v1/data/csv"]!.post!;
    let schema = op.requestBody!.content["multipart/form-data"]!.schema as {
      $ref?: string;
      properties?: Record<string, { format?: string }>;
    };
    if (schema.$ref) schema = doc.components.schemas[schema.$ref.split("/").at(-1)!]!;
    expect(schema.properties?.code).toBeDefined();
    expect(schema.properties?.file?.format).toBe("binary");
    expect(doc.paths["/api/v1/data/csv/{code}"]!.delete).toBeDefined();
  });
});
