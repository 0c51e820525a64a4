import { expect, test, type Locator, type Page } from "@playwright/test";
import { applySettings, readEnvText, restoreEnvText } from "./fixtures/env-file";
import {
  expectCardWithin,
  expectDarkBackground,
  expectNav,
  expectNoHorizontalOverflow,
  languageButton,
  pageTitle,
  screenshot,
  SCREENSHOT_DIR,
  UI_PAGES,
} from "./fixtures/ui";

// The Data page: which market-data source serves which market and what failed. The server runs on the offline
// sample provider alone; quotes of two stocks no other spec reads (so no cache answers them) are asked through the
// API first, so this process has calls to show whatever ran before. The env file is put back afterwards.

const dataPage = UI_PAGES.find((p) => p.slug === "data")!;
const PHONE = { width: 390, height: 844 };
let originalEnv: string | null = null;

test.beforeAll(async ({ request }) => {
  originalEnv = readEnvText();
  await applySettings(request, { MARKET_DATA_SOURCES: "sample", SAMPLE_LATENCY_MS: "0" });
  for (const code of ["601398", "AMZN"]) {
    const quote = await request.get(`/api/v1/stocks/${code}/quote`);
    expect(quote.status(), `quote of ${code}: ${await quote.text()}`).toBe(200);
  }
});
test.afterAll(() => restoreEnvText(originalEnv));

function datasetRow(page: Page, market: string, dataset: string): Locator {
  return page
    .getByTestId("data-datasets")
    .locator(`[data-testid="dataset-row"][data-market="${market}"][data-dataset="${dataset}"]`);
}

function providerRow(page: Page, provider: string): Locator {
  return page.getByTestId("data-providers").locator(`[data-testid="provider-row"][data-provider="${provider}"]`);
}

async function openData(page: Page): Promise<void> {
  const response = await page.goto(dataPage.path);
  expect(response?.status()).toBe(200);
}

test.describe("the Data page", () => {
  test("in zh: each market's status and current source, the sample-data warning, and which sources are enabled", async ({
    page,
  }) => {
    await openData(page);
    await expect(page.locator("html")).toHaveAttribute("lang", "zh-CN");
    await expect(pageTitle(page)).toHaveText(dataPage.zh);
    await expect(page).toHaveTitle(`${dataPage.zh} · DSA`);
    await expectNav(page, dataPage, "zh");
    const main = page.getByRole("main");
    await expect(main.getByText("即将推出")).toHaveCount(0);

    // By market: the A-share quote came from the sample provider, the first (and only) source of the route.
    const cnQuote = datasetRow(page, "cn", "quote");
    await expect(cnQuote).toHaveAttribute("data-status", "ok");
    await expect(cnQuote.getByTestId("dataset-market")).toHaveText("A股");
    await expect(cnQuote.getByTestId("dataset-name")).toHaveText("实时报价");
    await expect(cnQuote.getByTestId("dataset-status")).toHaveText("正常");
    await expect(cnQuote.getByTestId("dataset-source")).toHaveText("sample");
    await expect(cnQuote.getByTestId("dataset-route")).toHaveText("sample");
    await expect(datasetRow(page, "us", "quote")).toHaveAttribute("data-status", "ok");
    await expect(datasetRow(page, "cn", "daily_bars").getByTestId("dataset-name")).toHaveText("日线");
    await expect(main.getByRole("table", { name: "按市场" })).toBeVisible();

    // The sample provider is in the chain: reports from it are labelled sample data.
    const warning = page.getByTestId("data-warnings").locator('[data-code="sample_data_in_chain"]');
    await expect(warning).toBeVisible();
    await expect(warning).toContainText("由它提供数据的报告会标注为样例数据");

    // Sources: sample is listed in MARKET_DATA_SOURCES (first), eastmoney is not.
    await expect(providerRow(page, "sample")).toHaveAttribute("data-enabled", "true");
    await expect(providerRow(page, "sample").getByTestId("provider-enabled")).toHaveText("已启用 · 第 1 位");
    await expect(providerRow(page, "eastmoney")).toHaveAttribute("data-enabled", "false");
    await expect(providerRow(page, "eastmoney").getByTestId("provider-enabled")).toHaveText("未启用");

    // The footnote: what the call history covers, and where the sources are changed.
    const note = page.getByTestId("data-footnote");
    await expect(note).toContainText("没有熔断机制");
    await expect(note.getByRole("link", { name: "在设置中修改数据源（MARKET_DATA_SOURCES）" })).toHaveAttribute(
      "href",
      "/settings",
    );
    await screenshot(page, { path: `${SCREENSHOT_DIR}/data.png`, fullPage: true });
  });

  test("in English: the heading, the dataset and status words, and the sections", async ({ page }) => {
    await openData(page);
    await languageButton(page, "en").click();
    await expect(pageTitle(page)).toHaveText(dataPage.en);
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    await expect(page).toHaveTitle(`${dataPage.en} · DSA`);
    await expectNav(page, dataPage, "en");
    const main = page.getByRole("main");
    await expect(main.getByRole("heading", { name: "By market" })).toBeVisible();
    await expect(main.getByRole("heading", { name: "Sources" })).toBeVisible();

    const cnQuote = datasetRow(page, "cn", "quote");
    await expect(cnQuote.getByTestId("dataset-market")).toHaveText("A-shares");
    await expect(cnQuote.getByTestId("dataset-status")).toHaveText("OK");
    await expect(datasetRow(page, "cn", "daily_bars").getByTestId("dataset-name")).toHaveText("Daily bars");
    await expect(page.getByTestId("data-warnings").locator('[data-code="sample_data_in_chain"]')).toContainText(
      "labelled sample data",
    );
    await expect(providerRow(page, "sample").getByTestId("provider-enabled")).toHaveText("Yes · #1");
    await expect(page.getByTestId("data-footnote")).toContainText("no circuit breaker");
    await screenshot(page, { path: `${SCREENSHOT_DIR}/data-en.png`, fullPage: true });

    await languageButton(page, "zh").click();
    await expect(pageTitle(page)).toHaveText(dataPage.zh);
  });

  test("at 390 px the tables are cards and the page has no horizontal overflow, in zh/light and en/dark", async ({
    page,
    context,
    baseURL,
  }) => {
    await page.setViewportSize(PHONE);
    await openData(page);
    await expect(pageTitle(page)).toHaveText(dataPage.zh);
    await expectNoHorizontalOverflow(page);

    // A dataset row is a card: no column header, the row laid out as a grid, its cells on screen and captioned.
    const table = page.getByTestId("data-datasets");
    await expect(table.locator("thead")).toBeHidden();
    const card = datasetRow(page, "cn", "daily_bars");
    await expectCardWithin(card, PHONE.width);
    await expect(card.getByTestId("dataset-source")).toHaveAttribute("data-label", "当前数据源");
    await expect(page.getByTestId("data-providers").locator("thead")).toBeHidden();
    await expect(providerRow(page, "sample")).toHaveCSS("display", "grid");
    await screenshot(page, { path: `${SCREENSHOT_DIR}/data-phone.png`, fullPage: true });

    await context.addCookies([
      { name: "dsa_lang", value: "en", url: baseURL! },
      { name: "dsa_theme", value: "dark", url: baseURL! },
    ]);
    await page.reload();
    await expect(pageTitle(page)).toHaveText(dataPage.en);
    await expectDarkBackground(page);
    await expect(datasetRow(page, "cn", "daily_bars")).toHaveCSS("display", "grid");
    await expectNoHorizontalOverflow(page);
    await screenshot(page, { path: `${SCREENSHOT_DIR}/data-phone-en-dark.png`, fullPage: true });
  });
});
