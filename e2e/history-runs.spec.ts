import path from "node:path";
import Database from "better-sqlite3";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { applySettings, readEnvText, restoreEnvText } from "./fixtures/env-file";

// The report page's list of the same stock's runs (the reference's "history trend") and its Analyse again button.

function clearHistory(): void {
  const db = new Database(path.join(process.env.E2E_DATA_DIR!, "e2e.db"));
  try {
    db.prepare("DELETE FROM analysis_news").run();
    db.prepare("DELETE FROM analysis_history").run();
  } finally {
    db.close();
  }
}

async function analyze(request: APIRequestContext, stockCode: string, reportType: string): Promise<number> {
  const response = await request.post("/api/v1/analysis/analyze", {
    data: { stock_code: stockCode, report_type: reportType, async_mode: false, notify: false },
  });
  expect(response.status(), `analyze ${stockCode}`).toBe(200);
  return ((await response.json()) as { report: { meta: { id: number } } }).report.meta.id;
}

let originalEnv: string | null = null;
let first: number;
let second: number;

test.beforeAll(async ({ request }) => {
  originalEnv = readEnvText();
  await applySettings(request, { MARKET_DATA_SOURCES: "sample" });
  clearHistory();
  first = await analyze(request, "600519", "detailed");
  await analyze(request, "000001", "detailed");
  second = await analyze(request, "sh600519", "brief");
});
test.afterAll(() => {
  restoreEnvText(originalEnv);
  clearHistory();
});

test("a report lists the stock's runs newest first, marks itself, links to the others; Analyse again opens a new report", async ({
  page,
}) => {
  await page.goto(`/history/${first}`);
  const panel = page.locator("section", { has: page.getByRole("heading", { name: "该股票的历次分析" }) });
  const runs = panel.getByTestId("stock-run");
  // 600519 and sh600519 are one stock; 000001 is not listed.
  await expect(runs).toHaveCount(2);
  await expect(runs.nth(1)).toHaveAttribute("aria-current", "true");
  await expect(runs.nth(1)).toContainText("（本报告）");
  await expect(runs.nth(0)).not.toHaveAttribute("aria-current", "true");
  await expect(panel.getByRole("link", { name: "在历史记录中查看全部 2 条" })).toHaveAttribute(
    "href",
    "/history?stock_code=600519",
  );

  await runs.nth(0).getByRole("link").click();
  await expect(page).toHaveURL(new RegExp(`/history/${second}$`));
  await expect(panel.getByTestId("stock-run").nth(0)).toHaveAttribute("aria-current", "true");

  await page.getByRole("button", { name: "重新分析" }).click();
  await expect(page).not.toHaveURL(new RegExp(`/history/${second}$`), { timeout: 20_000 });
  const newId = Number(/\/history\/(\d+)$/.exec(page.url())![1]);
  expect(newId).toBeGreaterThan(second);
  await expect(page.getByTestId("report-meta")).toContainText(`记录 #${newId}`);
  await expect(panel.getByTestId("stock-run")).toHaveCount(3);
  await expect(panel.getByTestId("stock-run").nth(0)).toHaveAttribute("aria-current", "true");
  // The same report type as the report it was started from.
  await expect(page.getByTestId("report-meta")).toContainText("简报");
});
