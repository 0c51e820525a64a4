import { expect, test, type Page } from "@playwright/test";
import { applySettings, readEnvText, restoreEnvText } from "./fixtures/env-file";
import { screenshot, SCREENSHOT_DIR } from "./fixtures/ui";

// A report's words agree with each other: the trend shown beside the call is the regime the advice speaks of (one
// word for it everywhere), a stay-out call names no position size, and the score says where it comes from: the
// rules-table cell stored with the report, and the factor readings beside it. Reports of a few sample stocks, made as
// a user makes them (POST /api/v1/analysis/analyze, sync).

const CODES = ["600519", "000001", "AAPL", "00700"];
const REGIMES = ["上升趋势", "区间震荡", "下跌趋势"];
let original: string | null = null;
const ids: number[] = [];

test.beforeAll(async ({ request }) => {
  original = readEnvText();
  await applySettings(request, { MARKET_DATA_SOURCES: "sample", SAMPLE_LATENCY_MS: "0" });
  for (const code of CODES) {
    const res = await request.post("/api/v1/analysis/analyze", {
      data: { stock_code: code, async_mode: false, report_type: "detailed", report_language: "zh" },
    });
    expect(res.status(), code).toBe(200);
    ids.push(((await res.json()) as { report: { meta: { id: number } } }).report.meta.id);
  }
});
test.afterAll(() => restoreEnvText(original));

function stat(page: Page, label: string) {
  return page.locator("dt", { hasText: new RegExp(`^${label}$`) }).locator("xpath=following-sibling::dd[1]");
}

test("one regime word: the trend beside the call is the regime its advice names, never another", async ({ page }) => {
  for (const id of ids) {
    await page.goto(`/history/${id}`);
    const trend = (await stat(page, "趋势预测").first().innerText()).trim();
    const advice = (await stat(page, "操作建议").first().innerText()).trim();
    if (trend.startsWith("数据不足")) continue;
    expect(REGIMES, `report ${id}: trend "${trend}"`).toContain(trend);
    for (const other of REGIMES.filter((w) => w !== trend)) expect(advice, `report ${id}`).not.toContain(other);
    // Every level the advice names carries its price.
    expect(advice).not.toContain("关键支撑");
    // The MA-alignment checklist line does not borrow the regime's words.
    await expect(page.getByText(/^均线排列：/).first()).not.toHaveText(/震荡|趋势/);
  }
});

test.describe("en", () => {
  test.use({ locale: "en-US", extraHTTPHeaders: { "Accept-Language": "en-US,en;q=0.9" } });

  test("an English report: the trend is the regime its advice names, in English", async ({ page, request }) => {
    const words: Record<string, string> = { Uptrend: "uptrend", Range: "range", Downtrend: "downtrend" };
    for (const code of ["AAPL", "00700"]) {
      const res = await request.post("/api/v1/analysis/analyze", {
        data: { stock_code: code, async_mode: false, report_type: "detailed", report_language: "en" },
      });
      const id = ((await res.json()) as { report: { meta: { id: number } } }).report.meta.id;
      await page.goto(`/history/${id}`);
      const trend = (await stat(page, "Trend outlook").first().innerText()).trim();
      const advice = (await stat(page, "Advice").first().innerText()).trim().toLowerCase();
      if (trend.startsWith("Not enough")) continue;
      expect(Object.keys(words), `report ${id}: trend "${trend}"`).toContain(trend);
      for (const [label, word] of Object.entries(words))
        if (label !== trend) expect(advice, `report ${id}`).not.toContain(word);
      await expect(page.getByTestId("score-breakdown")).toContainText("Where the score comes from");
      await expect(page.getByTestId("score-cell")).toContainText("one cell of the rules table");
    }
  });
});

test("a stay-out call names no position size; the score is broken into its cell and its readings", async ({ page }) => {
  let stayOut = 0;
  for (const id of ids) {
    await page.goto(`/history/${id}`);
    const action = (await page.getByTestId("action-badge").first().innerText()).trim();
    const score = (await page.getByTestId("sentiment-score").first().innerText()).trim();
    const breakdown = page.getByTestId("score-breakdown");
    await expect(breakdown).toContainText("评分构成");
    await expect(breakdown.getByTestId("score-cell")).toContainText(`评分 ${score} 是规则表`);
    await expect(breakdown.getByTestId("score-cell")).toContainText(/上升趋势|区间震荡|下跌趋势/);
    await expect(breakdown.getByTestId("score-factor")).toHaveCount(6);
    if (/观望|回避|卖出/.test(action)) {
      stayOut += 1;
      await expect(stat(page, "空仓者").first()).not.toContainText(/\d+\s*%/);
    }
    if (id === ids[0]) await screenshot(page, { path: `${SCREENSHOT_DIR}/report-score-breakdown.png` });
  }
  expect(stayOut, "at least one sample stock is a stay-out call").toBeGreaterThan(0);
});

test("the report chart spans months with a range switch, and says the dates it shows with their years", async ({
  page,
}) => {
  await page.goto(`/history/${ids[0]}`);
  const chart = page.getByTestId("price-chart");
  await expect(chart).toHaveAttribute("data-visible", "66");
  const all = Number(await chart.getAttribute("data-bars"));
  expect(all).toBeGreaterThan(66);
  await expect(page.getByTestId("chart-span")).toHaveText(/^\d{4}-\d{2}-\d{2} 至 \d{4}-\d{2}-\d{2}，66 个交易日$/);
  await page.getByText("全部", { exact: true }).click();
  await expect(chart).toHaveAttribute("data-visible", String(all));
  await expect(page.getByTestId("chart-span")).toContainText(`${all} 个交易日`);
  await page.getByText("1个月", { exact: true }).click();
  await expect(chart).toHaveAttribute("data-visible", "22");
});
