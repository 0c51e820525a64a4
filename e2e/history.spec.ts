import fs from "node:fs";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { applySettings, readEnvText, restoreEnvText } from "./fixtures/env-file";
import {
  describeUiPage,
  expectDarkBackground,
  expectNoHorizontalOverflow,
  pageTitle,
  screenshot,
  SCREENSHOT_DIR,
  UI_PAGES,
} from "./fixtures/ui";
import { withE2eDb } from "./fixtures/e2e-db";

// The History pages. Records are made the way a user makes them (POST /api/v1/analysis/analyze,
// sync, with the server switched to sample data through its env file); a market review and news rows, which no
// page of this build creates yet, are written straight into the e2e database. Each test that changes the data
// seeds it again first, so the tests do not depend on each other's order.

const history = UI_PAGES.find((p) => p.slug === "history")!;
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const SH = 8 * 3_600_000;
const shDay = (ms: number) => new Date(ms + SH).toISOString().slice(0, 10);

interface Seeded {
  moutaiDetailed: number;
  moutaiBrief: number;
  pingan: number;
  apple: number;
  review: number;
}

const withDb = withE2eDb;

const clearHistory = () =>
  withDb((db) => {
    db.prepare("DELETE FROM analysis_news").run();
    db.prepare("DELETE FROM analysis_history").run();
  });

async function analyze(request: APIRequestContext, stockCode: string, reportType: string): Promise<number> {
  const response = await request.post("/api/v1/analysis/analyze", {
    data: { stock_code: stockCode, report_type: reportType, async_mode: false },
  });
  expect(response.status(), `analyze ${stockCode}`).toBe(200);
  const body = (await response.json()) as { report: { meta: { id: number } } };
  return body.report.meta.id;
}

const REVIEW_MARKDOWN = [
  "## 今日要点",
  "",
  "- 沪指震荡收平，**成交额**小幅回落",
  "- 半导体板块领涨",
  "",
  "| 指数 | 涨跌幅 |",
  "| --- | --- |",
  "| 上证指数 | +0.12% |",
].join("\n");

/** A market review as lib/market-review will store it (report_type market_review, code MARKET). */
function insertMarketReview(): number {
  const details = {
    news_content: null,
    raw_result: { markdown: REVIEW_MARKDOWN },
    context_snapshot: null,
    analysis_context_pack_overview: null,
    financial_report: null,
    dividend_metrics: null,
    belong_boards: null,
    sector_rankings: null,
    concept_rankings: null,
    market_structure: null,
  };
  const summary = {
    analysis_summary: "市场整体震荡，结构性机会集中在科技板块。",
    operation_advice: null,
    action: null,
    action_label: null,
    trend_prediction: "震荡",
    sentiment_score: 52,
    sentiment_label: "中性",
  };
  const strategy = { ideal_buy: null, secondary_buy: null, stop_loss: null, take_profit: null };
  return withDb((db) => {
    const result = db
      .prepare(
        `INSERT INTO analysis_history (query_id, stock_code, display_code, stock_name, market, target_key, report_type, report_language, region,
           sentiment_score, trend_prediction, analysis_summary, report_json, raw_result, created_at)
         VALUES (?, 'MARKET', 'MARKET', '大盘复盘', 'cn', 'MARKET', 'market_review', 'zh', 'cn', 52, '震荡', ?, ?, ?, ?)`,
      )
      .run(
        `e2e-review-${Date.now()}`,
        summary.analysis_summary,
        JSON.stringify({ summary, strategy, details }),
        JSON.stringify(details.raw_result),
        new Date(Date.now() - 60_000).toISOString().replace("Z", "+00:00"),
      );
    const id = Number(result.lastInsertRowid);
    db.prepare(
      "INSERT INTO analysis_news (history_id, position, title, snippet, url, source) VALUES (?, 0, ?, ?, ?, 'e2e')",
    ).run(id, "两市成交额回落 <script>x</script>", "半导体领涨", "https://news.example.com/market");
    return id;
  });
}

function insertNews(historyId: number, title: string, url: string): void {
  withDb((db) =>
    db
      .prepare(
        "INSERT INTO analysis_news (history_id, position, title, snippet, url, source) VALUES (?, 0, ?, '摘要', ?, 'e2e')",
      )
      .run(historyId, title, url),
  );
}

/** Five records, newest last: the review (a minute old), then 600519 detailed, 600519 brief, 000001, AAPL. */
async function seed(request: APIRequestContext): Promise<Seeded> {
  clearHistory();
  const review = insertMarketReview();
  const moutaiDetailed = await analyze(request, "600519", "detailed");
  const moutaiBrief = await analyze(request, "600519", "brief");
  const pingan = await analyze(request, "000001", "detailed");
  const apple = await analyze(request, "AAPL", "full");
  insertNews(moutaiDetailed, "贵州茅台发布年度报告", "https://news.example.com/moutai");
  return { moutaiDetailed, moutaiBrief, pingan, apple, review };
}

const rows = (page: Page) => page.getByTestId("history-row");
const rowOf = (page: Page, id: number) => page.locator(`[data-testid="history-row"][data-record-id="${id}"]`);
const sidebar = (page: Page) => page.getByRole("navigation", { name: "股票", exact: true });
const filterForm = (page: Page) => page.getByRole("search", { name: "筛选历史记录" });
const dialog = (page: Page) => page.getByRole("dialog");

async function expectRecordIds(page: Page, ids: number[]): Promise<void> {
  await expect(rows(page)).toHaveCount(ids.length);
  expect(await rows(page).evaluateAll((els) => els.map((el) => Number(el.getAttribute("data-record-id"))))).toEqual(
    ids,
  );
}

let originalEnv: string | null = null;
let seeded: Seeded;

test.beforeAll(async ({ request }) => {
  originalEnv = readEnvText();
  await applySettings(request, { MARKET_DATA_SOURCES: "sample" });
  seeded = await seed(request);
});
test.afterAll(() => {
  restoreEnvText(originalEnv);
  clearHistory();
});

test.describe("the History list", () => {
  test("lists every record newest first with the stocks sidebar and counts; the sidebar, the form and the dates filter it", async ({
    page,
  }) => {
    const s = seeded;
    const response = await page.goto("/history");
    expect(response?.status()).toBe(200);
    await expect(pageTitle(page)).toHaveText(history.zh);
    await expect(page.getByTestId("history-total")).toHaveText("共 5 条");
    await expectRecordIds(page, [s.apple, s.pingan, s.moutaiBrief, s.moutaiDetailed, s.review]);
    const moutai = rowOf(page, s.moutaiDetailed);
    await expect(moutai).toContainText("贵州茅台");
    await expect(moutai).toContainText("600519");
    await expect(moutai).toContainText("详细");
    await expect(moutai).toContainText(/\d+\.\d{2}/);
    await expect(rowOf(page, s.review)).toContainText("大盘复盘");

    // Sidebar: one row per stock with its count; market reviews are not stocks.
    const stocks = sidebar(page).getByTestId("history-stock");
    await expect(stocks).toHaveCount(3);
    await expect(sidebar(page).getByRole("link", { name: "贵州茅台（600519）：2 条记录" })).toBeVisible();
    await expect(sidebar(page).getByRole("link", { name: "平安银行（000001）：1 条记录" })).toBeVisible();
    await expect(sidebar(page)).not.toContainText("大盘复盘");
    await screenshot(page, { path: `${SCREENSHOT_DIR}/history-list.png`, fullPage: true });

    await sidebar(page)
      .getByRole("link", { name: /^贵州茅台/ })
      .click();
    await expect(page).toHaveURL(/\/history\?stock_code=600519$/);
    await expectRecordIds(page, [s.moutaiBrief, s.moutaiDetailed]);
    await expect(sidebar(page).getByRole("link", { name: /^贵州茅台/ })).toHaveAttribute("aria-current", "true");
    await expect(page.getByRole("button", { name: "删除 贵州茅台 的全部记录" })).toBeVisible();

    // The form: another spelling of the same code matches the same stock; a type narrows it.
    await filterForm(page).getByLabel("股票代码").fill("600519.SH");
    await filterForm(page).getByLabel("报告类型").selectOption("brief");
    await filterForm(page).getByRole("button", { name: "筛选" }).click();
    await expect(page).toHaveURL(/stock_code=600519\.SH&report_type=brief/);
    await expectRecordIds(page, [s.moutaiBrief]);

    await page.goto("/history?report_type=market_review");
    await expect(filterForm(page).getByLabel("报告类型")).toHaveValue("market_review");
    await expectRecordIds(page, [s.review]);

    // Dates are days in Asia/Shanghai: today holds everything, tomorrow nothing.
    const today = shDay(Date.now());
    await page.goto(`/history?start_date=${today}&end_date=${today}`);
    await expect(page.getByTestId("history-total")).toHaveText("共 5 条");
    await filterForm(page)
      .getByLabel("开始日期")
      .fill(shDay(Date.now() + 86_400_000));
    await filterForm(page).getByLabel("结束日期").fill("");
    await filterForm(page).getByRole("button", { name: "筛选" }).click();
    await expect(page.getByTestId("history-empty")).toContainText("没有符合条件的记录");
    await expect(rows(page)).toHaveCount(0);
    await page.getByTestId("history-empty").getByRole("link", { name: "清除筛选" }).click();
    await expect(page).toHaveURL(/\/history$/);
    await expect(rows(page)).toHaveCount(5);

    // A malformed date is named and ignored instead of failing the page.
    await page.goto("/history?start_date=2024-02-30&report_type=full");
    await expect(page.getByRole("main").getByRole("alert")).toContainText("start_date");
    await expectRecordIds(page, [s.apple]);
  });

  test("pages through the records with previous/next links that keep the filters", async ({ page }) => {
    const s = seeded;
    await page.goto("/history?limit=2");
    const pager = page.getByRole("navigation", { name: "分页" });
    await expect(pager).toContainText("第 1 / 3 页");
    await expectRecordIds(page, [s.apple, s.pingan]);
    await pager.getByRole("link", { name: "下一页" }).click();
    await expect(page).toHaveURL(/\/history\?page=2&limit=2$/);
    await expectRecordIds(page, [s.moutaiBrief, s.moutaiDetailed]);
    await pager.getByRole("link", { name: "下一页" }).click();
    await expectRecordIds(page, [s.review]);
    await expect(pager.getByText("下一页")).toHaveAttribute("aria-disabled", "true");
    await pager.getByRole("link", { name: "上一页" }).click();
    await expect(pager).toContainText("第 2 / 3 页");

    await page.goto("/history?stock_code=600519&limit=1&page=2");
    await expectRecordIds(page, [s.moutaiDetailed]);
    await page.getByRole("navigation", { name: "分页" }).getByRole("link", { name: "上一页" }).click();
    await expect(page).toHaveURL(/\/history\?stock_code=600519&limit=1$/);
  });

  test("empty history: the empty state points to the Analyze page", async ({ page, request }) => {
    clearHistory();
    try {
      await page.goto("/history");
      await expect(page.getByTestId("history-empty")).toContainText("还没有分析记录");
      await expect(page.getByTestId("history-empty").getByRole("link", { name: "去分析一只股票" })).toHaveAttribute(
        "href",
        "/",
      );
      await expect(sidebar(page)).toContainText("还没有个股分析记录。");
      await expect(page.getByTestId("history-total")).toHaveText("共 0 条");
      await screenshot(page, { path: `${SCREENSHOT_DIR}/history-empty.png`, fullPage: true });
    } finally {
      seeded = await seed(request);
    }
  });
});

test.describe("a History report", () => {
  test("list → report: summary, levels, the chart of the stored bars, indicators, news links, diagnostics, the flow graph and the Markdown", async ({
    page,
    context,
    request,
    baseURL,
  }) => {
    const id = seeded.moutaiDetailed;
    await page.goto("/history?stock_code=600519");
    await rowOf(page, id).getByRole("link", { name: "贵州茅台" }).click();
    await expect(page).toHaveURL(new RegExp(`/history/${id}$`));
    await expect(pageTitle(page)).toContainText("贵州茅台");
    await expect(page).toHaveTitle("贵州茅台 · 历史 · DSA");
    await expect(page.getByTestId("report-meta")).toContainText(`详细 · ${shDay(Date.now())}`);
    await expect(page.getByTestId("report-meta")).toContainText(`记录 #${id}`);

    const report = (await (await request.get(`/api/v1/history/${id}`)).json()) as {
      summary: { sentiment_score: number; action_label: string };
      strategy: Record<string, string | null>;
      meta: { current_price: number };
      details: { context_snapshot: { recent_bars: unknown[]; indicator_bars: { rows: unknown[] } } };
    };
    await expect(page.getByTestId("report-name")).toHaveText("贵州茅台");
    await expect(page.getByTestId("sentiment-score")).toHaveText(String(report.summary.sentiment_score));
    await expect(page.getByTestId("action-badge")).toHaveText(report.summary.action_label);
    await expect(page.getByTestId("report-price")).toHaveText(report.meta.current_price.toFixed(2));
    await expect(page.getByTestId("level-stop_loss").locator("dd")).toHaveText(report.strategy.stop_loss!);
    await expect(page.getByTestId("sample-banner")).toBeVisible();
    // The chart holds every bar the analysis used (its range switch shows three months of them first).
    const bars = report.details.context_snapshot.indicator_bars.rows.length;
    expect(bars).toBeGreaterThan(report.details.context_snapshot.recent_bars.length);
    await expect(page.getByRole("heading", { name: `近 ${bars} 个交易日 K 线` })).toBeVisible();
    await expect(page.getByTestId("price-chart").locator("canvas").first()).toBeVisible();
    const indicators = page
      .getByRole("article")
      .locator("section")
      .filter({ has: page.getByRole("heading", { name: "技术指标" }) });
    await expect(indicators.getByText("MA20", { exact: true })).toBeVisible();
    await expect(page.getByRole("article").getByRole("link", { name: "贵州茅台发布年度报告" })).toHaveAttribute(
      "href",
      "https://news.example.com/moutai",
    );

    // Diagnostics and flow as stored, in the run details (collapsed until opened).
    await page.getByTestId("run-details").locator("summary").click();
    await expect(page.getByTestId("run-details")).toHaveAttribute("open", "");
    const diagnostics = (await (await request.get(`/api/v1/history/${id}/diagnostics`)).json()) as {
      status: string;
      components: Record<string, unknown>;
    };
    await expect(page.getByTestId("diagnostics-status")).toHaveAttribute("data-status", diagnostics.status);
    await expect(page.getByTestId("diagnostics-components").locator("li")).toHaveCount(
      Object.keys(diagnostics.components).length,
    );
    const flow = (await (await request.get(`/api/v1/history/${id}/flow`)).json()) as {
      nodes: { id: string; status: string }[];
      edges: { from: string; to: string }[];
    };
    expect(flow.nodes.length).toBeGreaterThanOrEqual(3);
    const graph = page.getByTestId("flow-graph");
    await expect(graph).toBeVisible();
    await expect(graph.getByTestId("flow-node")).toHaveCount(flow.nodes.length);
    await expect(graph.getByTestId("flow-edge")).toHaveCount(flow.edges.length);
    for (const node of flow.nodes)
      await expect(graph.locator(`[data-node-id="${node.id}"]`)).toHaveAttribute("data-status", node.status);
    // Each step of the chain sits to the right of the step before it.
    const entry = await graph.locator('[data-node-id="entry"]').boundingBox();
    const next = await graph
      .locator(`[data-node-id="${flow.edges.find((e) => e.from === "entry")!.to}"]`)
      .boundingBox();
    expect(next!.x).toBeGreaterThan(entry!.x + entry!.width);

    // Markdown: the source by default (what the copy button copies: exactly the API's text), rendered on demand.
    const markdown = ((await (await request.get(`/api/v1/history/${id}/markdown`)).json()) as { content: string })
      .content;
    const mdPanel = page.locator("section").filter({ has: page.getByRole("heading", { name: "Markdown 报告" }) });
    await expect(mdPanel.getByTestId("markdown-source")).toHaveText(markdown);
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL });
    await mdPanel.getByRole("button", { name: "复制" }).click();
    await expect(mdPanel.getByRole("button", { name: "已复制" })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(markdown);
    await mdPanel.getByRole("button", { name: "预览" }).click();
    await expect(mdPanel.getByRole("button", { name: "预览" })).toHaveAttribute("aria-pressed", "true");
    await expect(mdPanel.getByTestId("markdown-rendered").getByRole("heading").first()).toContainText("贵州茅台");
    await expect(
      mdPanel.getByTestId("markdown-rendered").getByRole("link", { name: "贵州茅台发布年度报告" }),
    ).toHaveAttribute("href", "https://news.example.com/moutai");
    await expect(mdPanel.getByTestId("markdown-source")).toHaveCount(0);
    await screenshot(page, { path: `${SCREENSHOT_DIR}/history-report.png`, fullPage: true });
  });

  test("Share downloads the PNG (file starts with the PNG signature) and shows it as a preview", async ({ page }) => {
    const id = seeded.moutaiDetailed;
    await page.goto(`/history/${id}`);
    const share = page.locator("section").filter({ has: page.getByRole("heading", { name: "分享图片" }) });
    const downloadPromise = page.waitForEvent("download");
    await share.getByRole("button", { name: "生成并下载分享图" }).click();
    const download = await downloadPromise;
    expect(download.suggestedFilename()).toMatch(new RegExp(`report-${id}\\.png$`));
    const bytes = fs.readFileSync(await download.path());
    expect(bytes.subarray(0, 8).equals(PNG_SIGNATURE), "the downloaded file is a PNG").toBe(true);

    const preview = share.getByTestId("share-preview");
    await expect(preview).toBeVisible();
    await expect(preview).toHaveAttribute("alt", "分享图预览：贵州茅台");
    await expect
      .poll(() => preview.evaluate((img: HTMLImageElement) => img.naturalWidth), {
        message: "the preview is the 1080 px PNG",
      })
      .toBe(1080);
    await expect(share.getByTestId("share-file")).toContainText(download.suggestedFilename());
    await share.scrollIntoViewIfNeeded();
    await screenshot(page, { path: `${SCREENSHOT_DIR}/history-share.png`, fullPage: true });
  });

  test("a market review shows its own layout: the review text rendered, its summary and news, no chart", async ({
    page,
  }) => {
    await page.goto(`/history/${seeded.review}`);
    await expect(pageTitle(page)).toHaveText("大盘复盘");
    const review = page.getByTestId("market-review");
    await expect(review.getByRole("heading", { name: "今日要点" })).toBeVisible();
    await expect(review.getByRole("cell", { name: "上证指数" })).toBeVisible();
    await expect(review.locator("strong", { hasText: "成交额" })).toBeVisible();
    await expect(page.getByTestId("review-score")).toContainText("52");
    // Record text stays text: the <script> in the news title is shown, not run.
    await expect(review.getByRole("link", { name: "两市成交额回落 <script>x</script>" })).toHaveAttribute(
      "href",
      "https://news.example.com/market",
    );
    await expect(page.getByTestId("price-chart")).toHaveCount(0);
    await expect(page.getByTestId("action-badge")).toHaveCount(0);
    await screenshot(page, { path: `${SCREENSHOT_DIR}/history-market-review.png`, fullPage: true });
  });

  test("an unknown record id or query_id gets the 404 page", async ({ page }) => {
    for (const missing of ["999999999", "no-such-query-id"]) {
      const response = await page.goto(`/history/${missing}`);
      expect(response?.status(), missing).toBe(404);
      await expect(pageTitle(page)).toHaveText("找不到这份报告");
      await expect(page.getByRole("main").getByRole("link", { name: "历史" })).toHaveAttribute("href", "/history");
    }
    await screenshot(page, { path: `${SCREENSHOT_DIR}/history-not-found.png`, fullPage: true });
  });
});

test.describe("deleting history", () => {
  test("multi-select delete asks first (cancel keeps the records), then deletes them and they are gone", async ({
    page,
    request,
  }) => {
    const s = (seeded = await seed(request));
    await page.goto("/history");
    await expect(rows(page)).toHaveCount(5);
    await expect(page.getByRole("button", { name: "删除所选" })).toBeDisabled();
    await rowOf(page, s.pingan).getByRole("checkbox").check();
    await rowOf(page, s.apple).getByRole("checkbox").check();
    await expect(page.getByTestId("history-selected-count")).toHaveText("已选 2 条");

    await page.getByRole("button", { name: "删除所选" }).click();
    await expect(dialog(page)).toBeVisible();
    await expect(dialog(page).getByRole("heading")).toHaveText("删除所选的 2 条记录？");
    await screenshot(page, { path: `${SCREENSHOT_DIR}/history-delete-confirm.png` });
    await dialog(page).getByRole("button", { name: "取消" }).click();
    await expect(dialog(page)).toBeHidden();
    await expect(rows(page)).toHaveCount(5);
    expect((await request.get(`/api/v1/history/${s.pingan}`)).status()).toBe(200);

    await page.getByRole("button", { name: "删除所选" }).click();
    await dialog(page).getByRole("button", { name: "删除" }).click();
    await expect(dialog(page)).toBeHidden();
    await expect(page.getByRole("status").filter({ hasText: "已删除 2 条记录。" })).toBeVisible();
    await expectRecordIds(page, [s.moutaiBrief, s.moutaiDetailed, s.review]);
    await expect(page.getByTestId("history-total")).toHaveText("共 3 条");
    await expect(sidebar(page).getByTestId("history-stock")).toHaveCount(1);
    for (const gone of [s.pingan, s.apple]) expect((await request.get(`/api/v1/history/${gone}`)).status()).toBe(404);
    await page.reload();
    await expectRecordIds(page, [s.moutaiBrief, s.moutaiDetailed, s.review]);
  });

  test("delete-all-for-stock removes every record of that stock after confirmation; the report page deletes its record", async ({
    page,
    request,
  }) => {
    const s = (seeded = await seed(request));
    await page.goto("/history");
    await sidebar(page)
      .getByRole("link", { name: /^贵州茅台/ })
      .click();
    await expect(rows(page)).toHaveCount(2);
    await page.getByRole("button", { name: "删除 贵州茅台 的全部记录" }).click();
    await expect(dialog(page).getByRole("heading")).toHaveText("删除 贵州茅台 的全部记录？");
    await expect(dialog(page)).toContainText("全部 2 条分析记录");
    await dialog(page).getByRole("button", { name: "删除" }).click();
    await expect(page).toHaveURL(/\/history$/);
    await expectRecordIds(page, [s.apple, s.pingan, s.review]);
    await expect(sidebar(page).getByRole("link", { name: /^贵州茅台/ })).toHaveCount(0);
    const list = (await (await request.get("/api/v1/history?stock_code=600519")).json()) as { total: number };
    expect(list.total).toBe(0);

    await page.goto(`/history/${s.pingan}`);
    await page.getByRole("button", { name: "删除此记录" }).click();
    await expect(dialog(page).getByRole("heading")).toHaveText("删除这条记录？");
    await dialog(page).getByRole("button", { name: "删除" }).click();
    await expect(page).toHaveURL(/\/history$/);
    await expectRecordIds(page, [s.apple, s.review]);
    expect((await page.goto(`/history/${s.pingan}`))?.status()).toBe(404);
  });
});

test.describe("phone width and dark mode", () => {
  test("the list and a report fit a 390px phone and render in dark mode", async ({ page, request }) => {
    seeded = await seed(request);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/history");
    await expect(rows(page)).toHaveCount(5);
    await expectNoHorizontalOverflow(page);
    await screenshot(page, { path: `${SCREENSHOT_DIR}/history-list-phone.png`, fullPage: true });
    await page.goto(`/history/${seeded.moutaiDetailed}`);
    await expect(page.getByTestId("flow-graph")).toBeAttached();
    await expectNoHorizontalOverflow(page);
    await screenshot(page, { path: `${SCREENSHOT_DIR}/history-report-phone.png`, fullPage: true });

    await page.setViewportSize({ width: 1280, height: 900 });
    await page.emulateMedia({ colorScheme: "dark" });
    await page.goto("/history");
    await expectDarkBackground(page);
    await screenshot(page, { path: `${SCREENSHOT_DIR}/history-list-dark.png`, fullPage: true });
    await page.goto(`/history/${seeded.moutaiDetailed}`);
    await expectDarkBackground(page);
    await page.getByTestId("run-details").locator("summary").click();
    await expect(page.getByTestId("flow-graph")).toBeVisible();
    await screenshot(page, { path: `${SCREENSHOT_DIR}/history-report-dark.png`, fullPage: true });
  });
});

// The shell checks every page gets (7.1-7.4), on the built page with records present.
describeUiPage(history, { built: true });
