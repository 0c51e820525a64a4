import { expect, test, type Page } from "@playwright/test";
import { withSampleData } from "./fixtures/env-file";
import {
  describeUiPage,
  expectDarkBackground,
  expectNoHorizontalOverflow,
  pageTitle,
  screenshot,
  SCREENSHOT_DIR,
  UI_PAGES,
} from "./fixtures/ui";

// The Market page runs a market review per region (POST /api/v1/analysis/market-review),
// follows it on the SSE task stream, and shows the latest stored review of each region. The server runs
// on sample data with SAMPLE_LATENCY_MS, so a review takes a few seconds.

const market = UI_PAGES.find((p) => p.slug === "market")!;

withSampleData(300);

const runButton = (page: Page, label: string) =>
  page.getByRole("group", { name: "选择复盘市场" }).getByRole("button", { name: `复盘${label}`, exact: true });

async function openMarket(page: Page, path = "/market"): Promise<void> {
  const response = await page.goto(path);
  expect(response?.status()).toBe(200);
  await expect(pageTitle(page)).toHaveText(market.zh);
  await expect(page.getByTestId("task-connection")).toHaveAttribute("data-state", "open");
}

async function postReview(page: Page, click: () => Promise<void>) {
  const responsePromise = page.waitForResponse(
    (r) => r.url().endsWith("/api/v1/analysis/market-review") && r.request().method() === "POST",
  );
  await click();
  const response = await responsePromise;
  return {
    status: response.status(),
    body: (await response.json()) as Record<string, unknown>,
    sent: response.request().postDataJSON() as Record<string, unknown>,
  };
}

test.describe("the Market page", () => {
  test("run a cn review, a second click while it runs shows the 409, and the completed review is rendered with its indices and breadth", async ({
    page,
    request,
  }) => {
    await openMarket(page);
    await expect(page.getByRole("radio", { name: "中文" })).toBeChecked();
    for (const label of ["A股", "港股", "美股", "A股+美股"]) await expect(runButton(page, label)).toBeVisible();

    const first = await postReview(page, () => runButton(page, "A股").click());
    expect(first.status).toBe(202);
    expect(first.sent).toMatchObject({ region: "cn", report_language: "zh" });
    expect(first.body).toMatchObject({ status: "accepted", region: "cn" });
    const taskId = String(first.body.task_id);
    await expect(page.getByTestId("review-accepted")).toContainText(taskId);

    // One review at a time: the second click is refused and the page says why.
    const second = await postReview(page, () => runButton(page, "港股").click());
    expect(second.status).toBe(409);
    expect(second.body.error).toBe("duplicate_market_review");
    const alert = page.getByRole("alert").filter({ hasText: "已有复盘在运行" });
    await expect(alert).toBeVisible();
    await expect(alert).toContainText(taskId);
    await expect(alert).toContainText("duplicate_market_review");

    // The running review in the panel: its region, a progress bar, then completed with a report link.
    const row = page.locator(`[data-testid="task-row"][data-task-id="${taskId}"]`);
    await expect(row).toContainText("大盘复盘");
    await expect(row).toContainText("A股");
    await expect(row.getByRole("progressbar")).toBeVisible();
    await screenshot(page, { path: `${SCREENSHOT_DIR}/market-running.png`, fullPage: true });
    await expect(row).toHaveAttribute("data-status", "completed", { timeout: 30_000 });
    await expect(row.getByRole("link", { name: "查看报告" })).toHaveAttribute("href", `/history/${taskId}`);

    // The page re-renders on the cn tab with the review just stored.
    await expect(page).toHaveURL(/\/market\?region=cn$/);
    const latest = page.getByTestId("latest-review");
    await expect(latest).toHaveAttribute("data-query-id", taskId, { timeout: 10_000 });
    await expect(
      page.getByRole("navigation", { name: "复盘市场" }).getByRole("link", { name: /A股/ }).first(),
    ).toHaveAttribute("aria-current", "page");
    await expect(latest.getByText("样本数据", { exact: true })).toBeVisible();
    await expect(latest.getByRole("link", { name: "在历史中打开" })).toHaveAttribute("href", `/history/${taskId}`);

    // Numbers from the payload: temperature, an index table with levels and coloured changes, breadth.
    const status = (await (await request.get(`/api/v1/analysis/status/${taskId}`)).json()) as {
      market_review_report: string;
      // A one-region review carries its indices and breadth at the top (docs/api.md §12.3).
      market_review_payload: {
        market_light: { score: number | null };
        markets?: unknown;
        indices: { name: string }[];
        breadth: { up_count: number; total_amount: number | null } | null;
      };
    };
    const payload = status.market_review_payload;
    expect(payload.markets).toBeUndefined();
    await expect(latest.getByTestId("review-temperature")).toContainText(String(payload.market_light.score ?? "—"));
    const indices = latest.getByTestId("review-indices").first();
    await expect(indices.locator("tbody tr")).toHaveCount(payload.indices.length);
    await expect(indices).toContainText(payload.indices[0]!.name);
    await expect(indices.locator("tbody td").nth(1)).toHaveText(/^[+-]?\d+\.\d{2}%$/);
    const breadth = latest.getByTestId("review-breadth").first();
    if (payload.breadth) await expect(breadth).toContainText(String(payload.breadth.up_count));
    if (payload.breadth?.total_amount != null)
      await expect(latest.getByTestId("review-turnover").first()).toContainText(
        payload.breadth.total_amount.toFixed(2),
      );
    // The review text is rendered Markdown, not raw, beside the numbers: no second index table and no scoring
    // formulas, which stay in the stored Markdown (the record and its export).
    const rendered = latest.getByTestId("review-body").getByTestId("markdown-rendered");
    await expect(rendered.getByRole("heading", { name: "市场概览" })).toBeVisible();
    await expect(rendered.locator("table")).toHaveCount(0);
    await expect(rendered).not.toContainText("判定规则");
    expect(status.market_review_report).toContain("判定规则");
    expect(await rendered.textContent()).not.toMatch(/^#|\|\s*---/m);
    await screenshot(page, { path: `${SCREENSHOT_DIR}/market-review.png`, fullPage: true });

    // A region without a review says so; the cn review stays one click away.
    await page.getByRole("navigation", { name: "复盘市场" }).getByRole("link", { name: /港股/ }).click();
    await expect(page).toHaveURL(/region=hk$/);
    await expect(page.getByTestId("no-review")).toHaveText("港股还没有复盘。点击上方的按钮运行一次。");
  });

  test("the latest review at phone width and in dark mode, without horizontal overflow", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await openMarket(page, "/market?region=cn");
    await expect(page.getByTestId("latest-review")).toBeVisible();
    await expectNoHorizontalOverflow(page);
    await screenshot(page, { path: `${SCREENSHOT_DIR}/market-review-phone.png`, fullPage: true });

    await page.emulateMedia({ colorScheme: "dark" });
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.reload();
    await expectDarkBackground(page);
    await expect(page.getByTestId("latest-review")).toBeVisible();
    await screenshot(page, { path: `${SCREENSHOT_DIR}/market-review-dark.png`, fullPage: true });
  });

  test("an English review picked with the language choice, in the English UI", async ({ page, context, baseURL }) => {
    await context.addCookies([{ name: "dsa_lang", value: "en", url: baseURL! }]);
    const response = await page.goto("/market");
    expect(response?.status()).toBe(200);
    await expect(pageTitle(page)).toHaveText(market.en);
    await expect(page.getByRole("radio", { name: "English" })).toBeChecked();
    await expect(page.getByTestId("task-connection")).toHaveText("Live");
    const responsePromise = page.waitForResponse((r) => r.url().endsWith("/api/v1/analysis/market-review"));
    await page
      .getByRole("group", { name: "Market to review" })
      .getByRole("button", { name: "Review US", exact: true })
      .click();
    const accepted = await responsePromise;
    expect(accepted.status()).toBe(202);
    expect(accepted.request().postDataJSON()).toMatchObject({ region: "us", report_language: "en" });
    const taskId = String(((await accepted.json()) as { task_id: string }).task_id);
    await expect(page.getByTestId("latest-review")).toHaveAttribute("data-query-id", taskId, { timeout: 30_000 });
    await expect(page).toHaveURL(/region=us$/);
    await expect(page.getByTestId("latest-review").getByTestId("review-indices").first()).toContainText(" indices");
    await screenshot(page, { path: `${SCREENSHOT_DIR}/market-review-en.png`, fullPage: true });
  });
});

describeUiPage(market, { built: true });
