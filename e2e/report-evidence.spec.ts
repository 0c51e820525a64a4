import fs from "node:fs";
import path from "node:path";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { applySettings, readEnvText, restoreEnvText } from "./fixtures/env-file";
import { expectNoHorizontalOverflow, screenshot, SCREENSHOT_DIR } from "./fixtures/ui";

// docs/api.md §13 on the report page: a report on a real-bars CSV file (MSFT, 2007–2012: real prices, years old)
// shows the engine's record for its call (the statement, the stock and market scopes with n and interval) and the
// data quality (insufficient: the file is stale, so the call is watch), in the zh and the en UI.

const FIXTURE = path.resolve("tests/fixtures/real-bars/us-MSFT-2007-2012.csv");
let originalEnv: string | null = null;

interface Scope {
  scope: string;
  n_calls: number;
  n_independent: number;
  verdict: string;
}
interface Report {
  meta: { id: number };
  summary: { action: string | null };
  details: {
    evidence: { statement: string; action: string; scopes: Scope[] };
    data_quality: { level: string; reasons: { code: string; message: string }[]; source: string };
  };
}

test.beforeAll(async ({ request }) => {
  originalEnv = readEnvText();
  const csvDir = path.join(process.env.E2E_DATA_DIR!, "csv-evidence");
  fs.rmSync(csvDir, { recursive: true, force: true });
  fs.mkdirSync(csvDir, { recursive: true });
  fs.copyFileSync(FIXTURE, path.join(csvDir, "MSFT.csv"));
  await applySettings(request, { CSV_DATA_DIR: csvDir, MARKET_DATA_SOURCES: "csv,sample" });
});
test.afterAll(() => {
  restoreEnvText(originalEnv);
});

async function analyze(request: APIRequestContext, language: "zh" | "en"): Promise<Report> {
  const res = await request.post("/api/v1/analysis/analyze", {
    data: { stock_code: "MSFT", report_language: language, notify: false },
  });
  expect(res.status()).toBe(200);
  return ((await res.json()) as { report: Report }).report;
}

test("a real-bars CSV report shows the engine's record and the data quality, zh UI", async ({ page }) => {
  const report = await analyze(page.request, "zh");
  const { evidence, data_quality: quality } = report.details;
  expect(quality).toMatchObject({ level: "insufficient", source: "csv" });
  expect(quality.reasons.map((r) => r.code)).toContain("stale_bars");
  expect(report.summary.action).toBe("watch");
  expect(evidence.scopes.map((s) => s.scope)).toEqual(["stock", "market"]);

  await page.goto(`/history/${report.meta.id}`);
  const card = page.getByTestId("data-quality");
  await expect(card).toHaveAttribute("data-level", "insufficient");
  await expect(card).toContainText("数据质量");
  await expect(card).toContainText("不足：不做操作判断");
  await expect(card.locator("[data-reason=stale_bars]")).toHaveText(quality.reasons[0]!.message);
  await expect(page.getByTestId("action-badge")).toHaveAttribute("data-action", "watch");

  const record = page.getByTestId("evidence");
  await expect(record).toContainText("规则引擎的历史记录");
  await expect(page.getByTestId("evidence-statement")).toHaveText(evidence.statement);
  const stock = evidence.scopes[0]!;
  const stockRow = page.getByTestId("evidence-scope-stock");
  await expect(stockRow).toHaveAttribute("data-verdict", stock.verdict);
  await expect(stockRow).toContainText(`${stock.n_calls} (${stock.n_independent})`);
  await expect(page.getByTestId("evidence-scope-market")).toContainText("219 只美股（2000–2024）");
  await expectNoHorizontalOverflow(page);
  await screenshot(page, { path: `${SCREENSHOT_DIR}/report-evidence-zh.png`, fullPage: true });

  // The Markdown carries the same statement and the data-quality line.
  const markdown = (await (await page.request.get(`/api/v1/history/${report.meta.id}/markdown`)).json()) as {
    content: string;
  };
  expect(markdown.content).toContain(`> **规则引擎的历史记录**：${evidence.statement}`);
  expect(markdown.content).toContain("> **数据质量：不足** · csv");
  expect(markdown.content).toContain("价格来源：csv · 2012-12-31 收盘");
  await expect(page.getByTestId("report-as-of")).toHaveText("csv · 截至 2012-12-31 收盘");

  // The share card: stale mark and the price's source and date in its header, the record among its notices.
  const html = await (await page.request.get(`/api/v1/history/${report.meta.id}/share-image-html`)).text();
  expect(html).toContain("数据截至 2012-12-31（已过期）");
  expect(html).toContain("价格 csv · 2012-12-31 收盘");
  expect(html).toContain(evidence.statement.slice(0, 20));
  const png = await page.request.get(`/api/v1/history/${report.meta.id}/share-image`);
  expect(png.status()).toBe(200);
  const body = await png.body();
  expect(body.subarray(1, 4).toString("ascii")).toBe("PNG");
  await test.info().attach("report-evidence-share.png", { body, contentType: "image/png" });
});

test("the same in the en UI with an en report", async ({ page, context, baseURL }) => {
  await context.addCookies([{ name: "dsa_lang", value: "en", url: baseURL! }]);
  const report = await analyze(page.request, "en");
  const { evidence } = report.details;
  await page.goto(`/history/${report.meta.id}`);
  await expect(page.getByTestId("data-quality")).toContainText("Insufficient: no call made");
  await expect(page.getByTestId("evidence")).toContainText("The engine's record");
  await expect(page.getByTestId("evidence-statement")).toHaveText(evidence.statement);
  expect(evidence.statement).toMatch(/"Watch" calls/);
  const stock = evidence.scopes[0]!;
  if (stock.verdict === "no_measurable_edge") {
    expect(evidence.statement).toContain("no measurable edge");
    await expect(page.getByTestId("evidence-scope-stock")).toContainText("No measurable edge");
  }
});

test("a CSV report is not compared with an earlier sample report of the same stock", async ({ page }) => {
  const csvDir = path.join(process.env.E2E_DATA_DIR!, "csv-evidence");
  await applySettings(page.request, { CSV_DATA_DIR: csvDir, MARKET_DATA_SOURCES: "sample" });
  const sample = await analyze(page.request, "zh");
  expect(sample.details.data_quality.source).toBe("sample");
  await applySettings(page.request, { CSV_DATA_DIR: csvDir, MARKET_DATA_SOURCES: "csv,sample" });
  const csv = await analyze(page.request, "zh");
  expect(csv.details.data_quality.source).toBe("csv");

  await page.goto(`/history/${csv.meta.id}`);
  await expect(page.getByTestId("trend-other-sources")).toHaveText(
    /^另有 \d+ 份报告的价格来自其他数据源，未参与比较。$/,
  );
  const change = page.getByTestId("trend-change");
  await expect(change).toBeVisible();
  await expect(change).not.toHaveAttribute("data-previous-id", String(sample.meta.id));
});
