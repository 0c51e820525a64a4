import { expect, test, type APIRequestContext, type Locator, type Page } from "@playwright/test";
import { withE2eDb } from "./fixtures/e2e-db";
import { applySettings, readEnvText, restoreEnvText } from "./fixtures/env-file";
import { expectNoHorizontalOverflow, screenshot, SCREENSHOT_DIR } from "./fixtures/ui";

// The report page: the key levels drawn on the chart as price lines with the numbers the key levels
// list shows (and the API's report holds), "set an alert here" on each level, the run's own record (flow graph,
// diagnostics, trace id, raw Markdown) in a collapsed "run details" section, the checklist and risks right under the
// headline, and the stock's score and price trend over its past reports with the change since the previous one.
// Reports are made as a user makes them (POST /api/v1/analysis/analyze, sync) on sample data (the env file).

const CODE = "600519";
const LEVEL_KEYS = ["ideal_buy", "secondary_buy", "stop_loss", "take_profit"] as const;
type LevelKey = (typeof LEVEL_KEYS)[number];
type Box = { x: number; y: number; width: number; height: number };
// Written out, not imported from lib/i18n, so the test checks the dictionary.
const LEVEL_LABELS: Record<LevelKey, string> = {
  ideal_buy: "理想买点",
  secondary_buy: "次优买点",
  stop_loss: "止损",
  take_profit: "止盈",
};

interface Report {
  meta: { id: number; stock_code: string; current_price: number | null };
  summary: { action: string | null; sentiment_score: number | null };
  strategy: Record<LevelKey, string | null>;
}
interface AnalyzeResult {
  trace_id?: string | null;
  report: Report;
}
interface Rule {
  id: number;
  target: string;
  alert_type: string;
  enabled: boolean;
  parameters: { direction?: string; price?: number };
}
interface ChartLine {
  id: string;
  price: number;
  title: string;
}

let originalEnv: string | null = null;
let first: AnalyzeResult;
let second: AnalyzeResult;
const createdRules: number[] = [];

async function analyze(request: APIRequestContext): Promise<AnalyzeResult> {
  const response = await request.post("/api/v1/analysis/analyze", {
    data: { stock_code: CODE, report_type: "detailed", async_mode: false, notify: false },
  });
  expect(response.status(), `analyze ${CODE}`).toBe(200);
  return (await response.json()) as AnalyzeResult;
}

async function storedReport(request: APIRequestContext, id: number): Promise<Report> {
  const response = await request.get(`/api/v1/history/${id}`);
  expect(response.status()).toBe(200);
  return (await response.json()) as Report;
}

/** The price a level text starts with ("1650.00（MA20）" → 1650), as the report writes its levels. */
function leadingPrice(text: string | null): { value: number; text: string } | null {
  const match = text ? /^\s*(\d+(?:\.\d+)?)/.exec(text) : null;
  return match ? { value: Number(match[1]), text: match[1]! } : null;
}

const levelCell = (page: Page, key: LevelKey) => page.getByTestId(`level-${key}`);
const runDetails = (page: Page) => page.getByTestId("run-details");
const headline = (page: Page) => page.locator("section", { has: page.getByTestId("report-name") });

/** The lines the chart holds, read from its container once it has drawn them. */
async function chartLines(chart: Locator): Promise<ChartLine[]> {
  await expect(chart).toHaveAttribute("data-price-lines", /^\[/);
  return JSON.parse((await chart.getAttribute("data-price-lines"))!) as ChartLine[];
}

test.beforeAll(async ({ request }) => {
  originalEnv = readEnvText();
  await applySettings(request, { MARKET_DATA_SOURCES: "sample" });
  // The trend counts every report of the stock: start from none.
  expect((await request.delete(`/api/v1/history/by-code/${CODE}`)).status()).toBe(200);
  first = await analyze(request);
  // Sample data gives the same price and score twice in a row; the first report is made to read lower (in its
  // columns and its stored report alike, so the API shows the same figures) so the change is not a trivial 0.
  withE2eDb((db) =>
    db
      .prepare(
        `UPDATE analysis_history SET current_price = ROUND(current_price * 0.97, 2), sentiment_score = MAX(sentiment_score - 7, 0),
           report_json = json_set(report_json, '$.summary.sentiment_score', MAX(sentiment_score - 7, 0)) WHERE id = ?`,
      )
      .run(first.report.meta.id),
  );
  second = await analyze(request);
});

test.afterAll(async ({ request }) => {
  for (const id of createdRules) await request.delete(`/api/v1/alerts/rules/${id}`);
  await request.delete(`/api/v1/history/by-code/${CODE}`);
  restoreEnvText(originalEnv);
});

test("21 §6: every key level is one labelled price line on the chart, with the numbers of the key levels list and the API's report", async ({
  page,
  request,
}) => {
  const id = second.report.meta.id;
  const report = await storedReport(request, id);
  await page.goto(`/history/${id}`);

  const expected = LEVEL_KEYS.flatMap((key) => {
    const price = leadingPrice(report.strategy[key]);
    return price ? [{ key, price: price.value }] : [];
  });
  expect(expected.length, "a scored call names some levels").toBeGreaterThan(0);

  // The list: each level shows the report's text and carries the number it starts with; one without a price shows a dash.
  for (const key of LEVEL_KEYS) {
    const cell = levelCell(page, key);
    await expect(cell.locator("dt")).toContainText(LEVEL_LABELS[key]);
    const text = report.strategy[key];
    const price = leadingPrice(text);
    if (text) await expect(cell.locator("dd")).toHaveText(text);
    else await expect(cell.locator("dd")).toHaveText("—");
    if (price) {
      await expect(cell).toHaveAttribute("data-price", String(price.value));
      await expect(cell.locator("dd")).toContainText(price.text);
    } else await expect(cell).not.toHaveAttribute("data-price", /.*/);
  }
  // A watch call's levels are the breakout above and the breakdown below.
  if (report.summary.action === "watch") {
    await expect(levelCell(page, "ideal_buy")).toHaveAttribute("data-kind", "breakout");
    await expect(levelCell(page, "stop_loss")).toHaveAttribute("data-kind", "breakdown");
  }

  // The chart: one line per level shown, at the same price, titled with the level's name.
  const chart = page.getByTestId("price-chart");
  await expect(chart.locator("canvas").first()).toBeVisible();
  const lines = await chartLines(chart);
  expect(lines.map((l) => ({ key: l.id, price: l.price }))).toEqual(expected);
  const listed = await page
    .locator("[data-testid^='level-'][data-price]")
    .evaluateAll((els) => els.map((el) => Number(el.getAttribute("data-price"))));
  expect(lines.map((l) => l.price)).toEqual(listed);
  for (const line of lines) {
    const kind = await levelCell(page, line.id as LevelKey).getAttribute("data-kind");
    const title =
      kind === "breakout" ? "向上突破" : kind === "breakdown" ? "向下跌破" : LEVEL_LABELS[line.id as LevelKey];
    expect(line.title, `title of the ${line.id} line`).toBe(title);
  }
  await expect(page.getByText("虚线为关键价位")).toBeVisible();
  await screenshot(page, { path: `${SCREENSHOT_DIR}/report-levels.png`, fullPage: true });
});

test('21 §6: "set an alert here" creates a price_cross rule at the level\'s price that the Alerts API lists; a refusal shows its message', async ({
  page,
  request,
}) => {
  const id = second.report.meta.id;
  const report = await storedReport(request, id);
  await page.goto(`/history/${id}`);
  const key = (["stop_loss", "take_profit", "ideal_buy", "secondary_buy"] as const).find((k) =>
    leadingPrice(report.strategy[k]),
  );
  expect(key, "a level with a price").toBeTruthy();
  const cell = levelCell(page, key!);
  const price = leadingPrice(report.strategy[key!])!;
  const kind = (await cell.getAttribute("data-kind"))!;
  const label = kind === "breakout" ? "向上突破" : kind === "breakdown" ? "向下跌破" : LEVEL_LABELS[key!];
  const button = cell.getByRole("button", { name: `${label} ${price.text}：在此设置提醒` });
  await expect(button).toHaveText("在此设置提醒");

  // A refusal of the API is shown with its message, in place.
  await page.route("**/api/v1/alerts/rules", (route) =>
    route.fulfill({
      status: 400,
      contentType: "application/json",
      body: JSON.stringify({ error: "validation_error", message: "价格必须为正数" }),
    }),
  );
  await button.click();
  await expect(cell.getByRole("alert")).toHaveText("创建提醒失败：价格必须为正数");
  await page.unroute("**/api/v1/alerts/rules");

  const posted = page.waitForResponse(
    (r) => r.url().endsWith("/api/v1/alerts/rules") && r.request().method() === "POST",
  );
  await button.click();
  const response = await posted;
  expect(response.status()).toBe(201);
  const sent = response.request().postDataJSON() as {
    alert_type: string;
    target: string;
    parameters: { direction: string; price: number };
  };
  const current = report.meta.current_price;
  const direction =
    current !== null && price.value !== current
      ? price.value > current
        ? "above"
        : "below"
      : key === "take_profit" || kind === "breakout"
        ? "above"
        : "below";
  expect(sent).toMatchObject({
    alert_type: "price_cross",
    target: CODE,
    parameters: { direction, price: price.value },
  });

  const created = cell.getByTestId("level-alert-created");
  await expect(created).toHaveText(`已创建提醒：价格${direction === "above" ? "上穿" : "下穿"} ${price.text} 查看提醒`);
  await expect(created.getByRole("link", { name: "查看提醒" })).toHaveAttribute("href", "/alerts");
  const ruleId = Number(await created.getAttribute("data-rule-id"));
  createdRules.push(ruleId);

  const listed = (await (
    await request.get(`/api/v1/alerts/rules?target=${CODE}&alert_type=price_cross&page_size=100`)
  ).json()) as { items: Rule[] };
  const rule = listed.items.find((r) => r.id === ruleId);
  expect(rule, "the API lists the new rule").toBeTruthy();
  expect(rule).toMatchObject({
    target: CODE,
    alert_type: "price_cross",
    enabled: true,
    parameters: { direction, price: price.value },
  });
  await screenshot(page, { path: `${SCREENSHOT_DIR}/report-level-alert.png`, fullPage: true });
});

test("21 §6: the checklist and risks sit right under the headline; the run details are collapsed until opened and hold the trace id", async ({
  page,
  request,
}) => {
  const id = second.report.meta.id;
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/history/${id}`);

  const checks = page.getByTestId("report-checks");
  await expect(checks.getByRole("heading", { name: "检查清单" })).toBeVisible();
  await expect(checks.getByRole("heading", { name: "风险提示" })).toBeVisible();
  const head = (await headline(page).boundingBox())!;
  const checksBox = (await checks.boundingBox())!;
  const chartBox = (await page.getByTestId("price-chart").boundingBox())!;
  expect(checksBox.y, "the checks start below the headline").toBeGreaterThanOrEqual(head.y + head.height);
  expect(checksBox.y, "and above the chart").toBeLessThan(chartBox.y);

  // Collapsed: the flow graph, the diagnostics, the trace id and the Markdown are there but not shown.
  const details = runDetails(page);
  await expect(details).not.toHaveAttribute("open", /.*/);
  await expect(details.locator("summary")).toContainText("运行详情");
  for (const part of ["flow-graph", "diagnostics-status", "run-trace-id", "markdown-source"])
    await expect(details.getByTestId(part)).toBeHidden();

  await details.locator("summary").click();
  await expect(details).toHaveAttribute("open", "");
  const diagnostics = (await (await request.get(`/api/v1/history/${id}/diagnostics`)).json()) as {
    trace_id: string | null;
  };
  expect(diagnostics.trace_id, "the run has a trace id").toBeTruthy();
  if (second.trace_id) expect(diagnostics.trace_id).toBe(second.trace_id);
  await expect(details.getByTestId("run-trace-id")).toBeVisible();
  await expect(details.getByTestId("run-trace-id")).toHaveText(diagnostics.trace_id!);
  await expect(details.getByTestId("flow-graph")).toBeVisible();
  await expect(details.getByTestId("diagnostics-status")).toBeVisible();
  await expect(details.getByRole("heading", { name: "Markdown 报告" })).toBeVisible();
  await screenshot(page, { path: `${SCREENSHOT_DIR}/report-run-details.png`, fullPage: true });

  // Closed again by a second click.
  await details.locator("summary").click();
  await expect(details).not.toHaveAttribute("open", /.*/);
  await expect(details.getByTestId("flow-graph")).toBeHidden();
});

test("21 §6: two analyses of one stock show a two-point trend by the headline with the change since the previous report, as the API's figures", async ({
  page,
  request,
}) => {
  const before = await storedReport(request, first.report.meta.id);
  const now = await storedReport(request, second.report.meta.id);
  expect(before.summary.sentiment_score).not.toBeNull();
  expect(now.summary.sentiment_score).not.toBeNull();
  expect(before.meta.current_price).not.toBeNull();
  expect(now.meta.current_price).not.toBeNull();
  const scoreDelta = now.summary.sentiment_score! - before.summary.sentiment_score!;
  const priceChange = ((now.meta.current_price! - before.meta.current_price!) / before.meta.current_price!) * 100;
  const signed = (n: number, text: string) => (n > 0 ? `+${text}` : text);

  await page.goto(`/history/${now.meta.id}`);
  const trend = headline(page).getByTestId("stock-trend");
  await expect(trend).toBeVisible();
  await expect(trend).toHaveAttribute("data-points", "2");
  await expect(trend.getByRole("img", { name: "最近 2 次分析的评分与价格走势" })).toBeVisible();
  await expect(trend.getByTestId("trend-score").locator("circle")).toHaveCount(2);
  await expect(trend.getByTestId("trend-price").locator("circle")).toHaveCount(2);
  const change = trend.getByTestId("trend-change");
  await expect(change).toHaveAttribute("data-previous-id", String(before.meta.id));
  await expect(change).toContainText(`较上次（#${before.meta.id}）`);
  await expect(change.getByTestId("trend-score-delta")).toHaveText(signed(scoreDelta, String(scoreDelta)));
  await expect(change.getByTestId("trend-price-change")).toHaveText(`${signed(priceChange, priceChange.toFixed(2))}%`);
  await screenshot(page, { path: `${SCREENSHOT_DIR}/report-trend.png`, fullPage: true });

  // The first report has only itself to show.
  await page.goto(`/history/${before.meta.id}`);
  await expect(headline(page).getByTestId("stock-trend")).toHaveAttribute("data-points", "1");
  await expect(headline(page).getByTestId("trend-first")).toHaveText("首次分析该股票，暂无可对比的上次报告。");
});

test("21 §6: the report page at 390 px: levels, chart lines, trend and the closed run details, without horizontal scrolling", async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/history/${second.report.meta.id}`);
  await expect(headline(page).getByTestId("stock-trend")).toHaveAttribute("data-points", "2");
  const lines = await chartLines(page.getByTestId("price-chart"));
  expect(lines.length).toBeGreaterThan(0);
  await expect(runDetails(page)).not.toHaveAttribute("open", /.*/);
  await expectNoHorizontalOverflow(page);
  await screenshot(page, { path: `${SCREENSHOT_DIR}/report-phone.png`, fullPage: true });

  // 21 §5: the key levels are a 2×2 grid right below the headline, and the chart keeps a chart's height.
  const boxes = await Promise.all(LEVEL_KEYS.map(async (key) => (await levelCell(page, key).boundingBox())!));
  const [a, b, c, d] = boxes as [Box, Box, Box, Box];
  expect(Math.abs(a.y - b.y), "first row").toBeLessThan(1);
  expect(Math.abs(c.y - d.y), "second row").toBeLessThan(1);
  expect(c.y, "the second row is below the first").toBeGreaterThanOrEqual(a.y + a.height - 1);
  expect(Math.abs(a.x - c.x), "one column").toBeLessThan(1);
  expect(b.x, "two columns").toBeGreaterThan(a.x + a.width - 2);
  const summaryBottom = await headline(page).evaluate((el) => el.getBoundingClientRect().bottom + window.scrollY);
  expect(a.y + (await page.evaluate(() => window.scrollY)), "the levels follow the headline").toBeGreaterThanOrEqual(
    summaryBottom - 1,
  );
  expect(
    (await page.getByTestId("price-chart").boundingBox())!.height,
    "the chart keeps its height on a phone",
  ).toBeGreaterThanOrEqual(280);

  // 21 §5: scrolled down to the chart, the headline's price, verdict and score stay at the top of the screen
  // (the app header has scrolled away; the bottom tab bar navigates).
  const sticky = page.getByTestId("report-sticky-headline");
  await expect(sticky).toBeVisible();
  await expect(sticky.getByTestId("sticky-price")).toHaveText((await page.getByTestId("report-price").textContent())!);
  await expect(sticky.getByTestId("sticky-score")).toHaveText(
    (await page.getByTestId("sentiment-score").textContent())!,
  );
  await expect(sticky).toContainText((await page.getByTestId("action-badge").textContent())!);
  await page.getByTestId("price-chart").scrollIntoViewIfNeeded();
  await page.mouse.wheel(0, 400);
  await expect.poll(async () => (await sticky.boundingBox())?.y).toBeLessThanOrEqual(1);
  expect((await sticky.boundingBox())!.y).toBeGreaterThanOrEqual(-1);
  expect((await page.locator("header").first().boundingBox())!.y, "the app header scrolled away").toBeLessThan(0);
  expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(400);
  await screenshot(page, { path: `${SCREENSHOT_DIR}/report-phone-scrolled.png` });
  await runDetails(page).locator("summary").click();
  await expect(runDetails(page).getByTestId("run-trace-id")).toBeVisible();
  await expectNoHorizontalOverflow(page);
  await screenshot(page, { path: `${SCREENSHOT_DIR}/report-phone-run-details.png`, fullPage: true });

  // On a wide screen the summary card itself is the headline: no second one.
  await page.setViewportSize({ width: 1280, height: 900 });
  await expect(sticky).toBeHidden();
});
