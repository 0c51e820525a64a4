import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { markSeededRows, withE2eDb } from "./fixtures/e2e-db";
import {
  expectCardWithin,
  expectDarkBackground,
  expectNav,
  expectNoHorizontalOverflow,
  pageTitle,
  screenshot,
  SCREENSHOT_DIR,
  UI_PAGES,
} from "./fixtures/ui";

// The Paper page on sample data: an account started from the form, then moved six sessions back in the database with
// a buy signal from a stored report on its first evening (only calls made after an account exists count, so the test
// dates both back), settled from the page: the fill at the next open links to the report.

const paperPage = UI_PAGES.find((p) => p.slug === "paper")!;
const PHONE = { width: 390, height: 844 };
let cleanUp: () => void = () => {};

test.beforeAll(() => {
  cleanUp = markSeededRows();
});
test.afterAll(() => cleanUp());

async function startAccount(page: Page, name: string): Promise<number> {
  const form = page.getByTestId("paper-start");
  await form.getByLabel("名称").fill(name);
  await form.getByLabel("跟随").selectOption({ label: "这些代码的信号" });
  await form.getByLabel("代码（逗号分隔）").fill("600519");
  await form.getByLabel("最多持仓数（等权）").fill("2");
  await form.getByRole("button", { name: "开户" }).click();
  await expect(page).toHaveURL(/\/paper\?account=\d+/);
  return Number(new URL(page.url()).searchParams.get("account"));
}

/** A stored report of 600519, a buy signal from it dated to the evening of the first of the last six sessions. */
async function seedBackdated(
  request: APIRequestContext,
  accountId: number,
): Promise<{ reportId: number; fillDay: string; days: string[] }> {
  const history = (await (await request.get("/api/v1/stocks/600519/history?days=7")).json()) as {
    data: { date: string }[];
  };
  const days = history.data.map((b) => b.date);
  const made = await request.post("/api/v1/analysis/analyze", { data: { stock_code: "600519", async_mode: false } });
  expect(made.status()).toBe(200);
  const reportId = ((await made.json()) as { report: { meta: { id: number } } }).report.meta.id;
  const signal = await request.post("/api/v1/decision-signals", {
    data: {
      stock_code: "600519",
      market: "cn",
      source_type: "analysis",
      source_report_id: reportId,
      trigger_source: "e2e",
      action: "buy",
    },
  });
  expect(signal.status()).toBe(200);
  const signalId = ((await signal.json()) as { item: { id: number } }).item.id;
  withE2eDb((db) => {
    db.prepare("UPDATE paper_account SET created_at = ?, start_session = ? WHERE id = ?").run(
      `${days[0]}T00:00:00.000+00:00`,
      days[1],
      accountId,
    );
    db.prepare("UPDATE decision_signal SET created_at = ? WHERE id = ?").run(`${days[1]}T08:00:00.000+00:00`, signalId);
  });
  return { reportId, fillDay: days[2]!, days };
}

test.describe("the Paper page", () => {
  test("in zh: start an account, settle it, and follow a fill to the report that caused it", async ({ page }) => {
    const response = await page.goto(paperPage.path);
    expect(response?.status()).toBe(200);
    await expect(page.locator("html")).toHaveAttribute("lang", "zh-CN");
    await expect(pageTitle(page)).toHaveText(paperPage.zh);
    await expectNav(page, paperPage, "zh");

    // Following a screening strategy offers the strategies to pick from.
    const form = page.getByTestId("paper-start");
    await form.getByLabel("跟随").selectOption({ label: "选股策略候选股的信号" });
    await expect(form.locator('select[name="strategy"] option')).toHaveCount(8);
    const id = await startAccount(page, "茅台跟随");
    const account = page.getByTestId("paper-account");
    await expect(account).toHaveAttribute("data-account-id", String(id));
    await expect(page.getByText("还没有成交。")).toBeVisible();
    await expect(page.getByText("还没有平仓的交易。")).toBeVisible();
    await expect(page.locator(`[data-testid="paper-account-row"][data-account-id="${id}"]`)).toContainText("尚未开始");

    const { reportId, fillDay } = await seedBackdated(page.request, id);
    await account.getByRole("button", { name: "立即结算" }).click();
    const fill = page.locator('[data-testid="paper-fill"][data-code="600519"][data-side="buy"]');
    await expect(fill).toContainText(fillDay);
    await expect(fill).toContainText("买入信号");
    const record = (await (await page.request.get(`/api/v1/paper/accounts/${id}`)).json()) as { days: unknown[] };
    expect(record.days.length).toBeGreaterThanOrEqual(5);
    await expect(page.getByTestId("paper-equity-chart")).toHaveAttribute("data-points", String(record.days.length));
    await expect(page.locator('[data-testid="paper-position"][data-code="600519"]')).toBeVisible();
    // The record beside the index: the chart's second line, the figures, and the verdict in words.
    await expect(page.getByTestId("paper-equity-chart")).toHaveAttribute("data-benchmark", String(record.days.length));
    await expect(page.getByTestId("paper-stats")).toContainText(`${record.days.length} 个交易日`);
    await expect(page.getByTestId("paper-stats")).toContainText("000300.SH");
    // Under 20 sessions: too few to judge, so no edge is claimed.
    await expect(page.getByTestId("paper-verdict")).toHaveAttribute("data-verdict", "insufficient");
    await expect(page.getByTestId("paper-verdict")).toHaveText(
      "交易日太少（或没有基准指数）无法判断：不能声称有优势。",
    );
    await screenshot(page, { path: `${SCREENSHOT_DIR}/paper.png`, fullPage: true });

    await fill.getByTestId("paper-fill-report").click();
    await expect(page).toHaveURL(new RegExp(`/history/${reportId}$`));
    // The report shows the account's forward record of the stock beside its own evidence.
    const forward = page.locator(`[data-testid="paper-forward"] li[data-account-id="${id}"]`);
    await expect(forward).toContainText("茅台跟随");
    await expect(forward).toContainText("持有 ");
    await expect(forward).toContainText("尚无平仓");
  });

  test("in English at 390 px: the accounts and fills are cards, no horizontal overflow, dark too", async ({
    page,
    context,
    baseURL,
  }) => {
    await page.setViewportSize(PHONE);
    await page.goto(paperPage.path);
    const id = await startAccount(page, "Phone");
    const { days } = await seedBackdated(page.request, id);
    // A sell call two sessions later closes the trade at the next open.
    const sell = await page.request.post("/api/v1/decision-signals", {
      data: { stock_code: "600519", market: "cn", source_type: "manual", trigger_source: "e2e-sell", action: "sell" },
    });
    const sellId = ((await sell.json()) as { item: { id: number } }).item.id;
    withE2eDb((db) =>
      db.prepare("UPDATE decision_signal SET created_at = ? WHERE id = ?").run(`${days[3]}T08:00:00.000+00:00`, sellId),
    );
    await page.getByTestId("paper-account").getByRole("button", { name: "立即结算" }).click();
    await expect(page.locator('[data-testid="paper-fill"][data-code="600519"]')).toHaveCount(2);
    await expect(page.locator('[data-testid="paper-trade"][data-code="600519"]')).toContainText(days[4]!);
    await context.addCookies([
      { name: "dsa_lang", value: "en", url: baseURL! },
      { name: "dsa_theme", value: "dark", url: baseURL! },
    ]);
    await page.reload();
    await expect(pageTitle(page)).toHaveText(paperPage.en);
    await expectDarkBackground(page);
    await expect(page.getByTestId("paper-fills")).toContainText("Buy call");
    await expect(page.getByTestId("paper-trades")).toContainText("Sell call");
    await expectCardWithin(page.locator('[data-testid="paper-trade"][data-code="600519"]'), PHONE.width);
    await expectNoHorizontalOverflow(page);
    await expectCardWithin(page.locator('[data-testid="paper-fill"][data-code="600519"]').first(), PHONE.width);
    await screenshot(page, { path: `${SCREENSHOT_DIR}/paper-phone-en-dark.png`, fullPage: true });
    await page.getByTestId("paper-account").getByRole("button", { name: "Pause" }).click();
    await expect(page.getByTestId("paper-account").getByRole("button", { name: "Resume" })).toBeVisible();
    await page.getByTestId("paper-account").getByRole("button", { name: "Delete" }).click();
    await expect(page).toHaveURL(/\/paper$/);
    await expect(page.locator(`[data-testid="paper-account-row"][data-account-id="${id}"]`)).toHaveCount(0);
  });
});
