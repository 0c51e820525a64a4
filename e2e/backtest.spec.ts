import fs from "node:fs";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { RULE_ENGINE_VERSION } from "../lib/analysis/engine/version";
import { withSampleData } from "./fixtures/env-file";
import {
  describeUiPage,
  expectNoHorizontalOverflow,
  languageButton,
  pageTitle,
  screenshot,
  SCREENSHOT_DIR,
  UI_PAGES,
} from "./fixtures/ui";

// The Backtest page on sample data. A run is queued from the form (stock picked from the
// autocomplete), followed live, and opened when it completes: equity chart, candles with call markers, the
// per-action tables, the calls table with paging and CSV export; runs stay listed and reopenable.

const backtestPage = UI_PAGES.find((p) => p.slug === "backtest")!;

withSampleData(300);

/** Non-background pixels of a chart's canvases: a drawn chart has many. */
async function drawnPixels(chart: Locator): Promise<number> {
  return chart.evaluate((el) => {
    let count = 0;
    for (const canvas of Array.from(el.querySelectorAll("canvas"))) {
      const ctx = canvas.getContext("2d");
      if (!ctx || canvas.width === 0 || canvas.height === 0) continue;
      const data = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
      const [r0, g0, b0] = [data[0]!, data[1]!, data[2]!];
      for (let i = 0; i < data.length; i += 16)
        if (Math.abs(data[i]! - r0) + Math.abs(data[i + 1]! - g0) + Math.abs(data[i + 2]! - b0) > 60) count++;
    }
    return count;
  });
}

async function runBacktest(page: Page, query: string, name: string, step: string): Promise<string> {
  await page.getByLabel("股票代码或名称").fill(query);
  const option = page.getByRole("listbox", { name: "候选股票" }).getByRole("option").filter({ hasText: name });
  await option.click();
  await page.getByLabel("每 N 个交易日判断一次").fill(step);
  const posted = page.waitForResponse((r) => r.url().endsWith("/api/v1/backtests") && r.request().method() === "POST");
  await page.getByRole("button", { name: "开始回测" }).click();
  const response = await posted;
  expect(response.status()).toBe(202);
  expect(response.request().postDataJSON()).toMatchObject({
    horizons: [1, 3, 5, 10],
    step: Number(step),
    neutral_band_pct: 2,
  });
  const id = String(((await response.json()) as { backtest_id: string }).backtest_id);
  await expect(page.getByTestId("backtest-progress")).toBeVisible();
  await page.waitForURL(`**/backtest?id=${id}`, { timeout: 30_000 });
  return id;
}

test.describe("the Backtest page", () => {
  test("run from the form, follow it, read the results, export the calls, reopen and delete runs", async ({ page }) => {
    await page.goto("/backtest");
    await expect(pageTitle(page)).toHaveText("回测");
    await expect(
      page.getByTestId("task-connection").or(page.getByTestId("backtest-runs")).or(page.getByTestId("no-runs")).first(),
    ).toBeVisible();

    const first = await runBacktest(page, "600519", "贵州茅台", "1");
    await expect(page.getByTestId("backtest-title")).toContainText("600519 贵州茅台");
    const meta = page.getByTestId("backtest-meta");
    await expect(meta).toContainText(`规则 ${RULE_ENGINE_VERSION}`);
    await expect(meta).toContainText("数据 sample");
    await expect(page.getByText("样本数据：结果来自生成的价格")).toBeVisible();

    // The figures on the page are the API's.
    const run = (await (await page.request.get(`/api/v1/backtests/${first}`)).json()) as {
      calls_total: number;
      summary: {
        equity: { strategy_return_pct: number; buy_hold_return_pct: number };
        horizons: { horizon: number; all: { count: number } }[];
      };
    };
    await expect(meta).toContainText(`${run.calls_total} 次判断`);
    const figures = page.getByTestId("equity-figures");
    const signed = (v: number) => `${v > 0 ? "+" : ""}${v.toFixed(2)}%`;
    await expect(figures).toContainText(signed(run.summary.equity.strategy_return_pct));
    await expect(figures).toContainText(signed(run.summary.equity.buy_hold_return_pct));
    for (const h of [1, 3, 5, 10]) await expect(page.getByTestId(`summary-${h}`)).toContainText(`${h} 日观察期`);
    await expect(page.getByTestId("summary-10").getByRole("row", { name: /全部判断/ })).toContainText(
      String(run.summary.horizons.find((h) => h.horizon === 10)!.all.count),
    );

    const equity = page.getByTestId("equity-chart");
    const candles = page.getByTestId("calls-chart");
    await expect(equity.locator("canvas").first()).toBeVisible();
    await expect.poll(() => drawnPixels(equity)).toBeGreaterThan(200);
    await expect.poll(() => drawnPixels(candles)).toBeGreaterThan(500);
    // A long run's markers are bare arrows with a legend, not thousands of overlapping words.
    await expect(page.getByTestId("calls-legend")).toContainText("做多信号");
    const markers = Number(await candles.getAttribute("data-markers"));
    const labelled = Number(await candles.getAttribute("data-labelled"));
    expect(markers).toBeGreaterThan(0);
    expect(labelled).toBe(markers > 40 ? 0 : markers);

    const table = page.getByTestId("calls-table");
    await expect(table.locator("tbody tr")).toHaveCount(Math.min(100, run.calls_total));
    const firstDate = await table.locator("tbody tr").first().locator("td").first().textContent();
    await page.getByRole("button", { name: "下一页" }).click();
    await expect(page.getByText(`第 2 / ${Math.ceil(run.calls_total / 100)} 页`)).toBeVisible();
    await expect(table.locator("tbody tr").first().locator("td").first()).not.toHaveText(firstDate!);
    await screenshot(page, { path: `${SCREENSHOT_DIR}/backtest.png`, fullPage: true });

    const download = page.waitForEvent("download");
    await page.getByTestId("calls-export").click();
    const file = await (await download).path();
    const lines = fs.readFileSync(file, "utf8").trim().split("\n");
    expect(lines[0]).toBe(
      "date,close,action,score,ideal_buy,stop_loss,take_profit,return_1d_pct,outcome_1d,return_3d_pct,outcome_3d,return_5d_pct,outcome_5d,return_10d_pct,outcome_10d",
    );
    expect(lines).toHaveLength(run.calls_total + 1);

    // The robust check beside the plain summary: every action and side against the run's other calls.
    const robust = page.getByTestId("robust-10");
    await expect(robust).toContainText("NW 95% 区间");
    await expect(robust.locator("tr[data-group=long_side]")).toContainText("做多");
    await expect(page.getByTestId("score-rank-10")).toContainText("评分与前瞻收益的秩相关 ρ =");
    const summaryDownload = page.waitForEvent("download");
    await page.getByTestId("summary-export").click();
    const summaryLines = fs
      .readFileSync(await (await summaryDownload).path(), "utf8")
      .trim()
      .split("\n");
    expect(summaryLines[0]).toContain("horizon,group,count");
    expect(summaryLines.some((l) => l.startsWith("10,long_side,"))).toBe(true);

    // The stock's report carries the engine's record, not a pooled track record; on sample data it computes none.
    const analyzed = await page.request.post("/api/v1/analysis/analyze", {
      data: { stock_code: "600519", notify: false },
    });
    expect(analyzed.status()).toBe(200);
    const recordId = ((await analyzed.json()) as { report: { meta: { id: number } } }).report.meta.id;
    await page.goto(`/history/${recordId}`);
    await expect(page.getByTestId("evidence-statement")).toContainText("示例数据是合成的价格");
    await expect(page.getByTestId("data-quality")).toHaveAttribute("data-level", "degraded");
    await page.goto("/backtest");

    // A second run; the first stays listed and reopens.
    const second = await runBacktest(page, "AAPL", "苹果", "5");
    await expect(page.getByTestId("backtest-title")).toContainText("AAPL");
    const runs = page.getByTestId("backtest-runs");
    await expect(runs.getByRole("link")).toHaveCount(2);
    await runs.getByRole("link", { name: /600519/ }).click();
    await page.waitForURL(`**/backtest?id=${first}`);
    await expect(page.getByTestId("backtest-title")).toContainText("600519");

    // English labels follow the UI language.
    await languageButton(page, "en").click();
    await expect(page.getByTestId("summary-5")).toContainText("5-day horizon");
    await expect(page.getByRole("button", { name: "Export CSV" })).toBeVisible();
    await screenshot(page, { path: `${SCREENSHOT_DIR}/backtest-en.png`, fullPage: true });
    await languageButton(page, "zh").click();

    await page.goto(`/backtest?id=${second}`);
    await page.getByTestId("backtest-delete").click();
    await page.getByRole("dialog").getByRole("button", { name: "删除" }).click();
    await page.waitForURL("**/backtest");
    await expect(runs.getByRole("link")).toHaveCount(1);
    expect((await page.request.get(`/api/v1/backtests/${second}`)).status()).toBe(404);
  });

  test("phone width: the page fits without horizontal scrolling", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/backtest");
    await expect(pageTitle(page)).toHaveText("回测");
    await expectNoHorizontalOverflow(page);
    await screenshot(page, { path: `${SCREENSHOT_DIR}/backtest-phone.png`, fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });
  });
});

describeUiPage(backtestPage, { built: true });
