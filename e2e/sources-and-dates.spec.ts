import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { withE2eDb } from "./fixtures/e2e-db";
import { applySettings, readEnvText, restoreEnvText } from "./fixtures/env-file";
import { screenshot, SCREENSHOT_DIR } from "./fixtures/ui";

// Every price with its source and date (docs/api.md §13, data quality): with MARKET_DATA_SOURCES=csv,sample a user's
// old CSV files stand beside sample data. The home page keeps its sample note (sample is not the first source, but
// some figures are sample) and says each price's source and date, old ones marked; the portfolio values a holding
// from a file that ended months ago at that close, flagged old, never as a live quote.

const MOUTAI = path.resolve("tests/fixtures/real-bars/cn-600519-2024-2026.csv"); // last row 2026-02-13
const APPLE = path.resolve("tests/fixtures/real-bars/us-AAPL-2012-2014.csv");
let originalEnv: string | null = null;

const clearPortfolio = () =>
  withE2eDb((db) => {
    db.prepare("DELETE FROM portfolio_trade").run();
    db.prepare("DELETE FROM portfolio_cash_ledger").run();
    db.prepare("DELETE FROM portfolio_position").run();
    db.prepare("DELETE FROM portfolio_account").run();
  });

test.beforeAll(async ({ request }) => {
  originalEnv = readEnvText();
  const csvDir = path.join(process.env.E2E_DATA_DIR!, "csv-sources");
  fs.rmSync(csvDir, { recursive: true, force: true });
  fs.mkdirSync(csvDir, { recursive: true });
  fs.copyFileSync(MOUTAI, path.join(csvDir, "600519.csv"));
  fs.copyFileSync(APPLE, path.join(csvDir, "AAPL.csv"));
  await applySettings(request, {
    CSV_DATA_DIR: csvDir,
    MARKET_DATA_SOURCES: "csv,sample",
    SAMPLE_LATENCY_MS: "0",
    STOCK_LIST: "600519,AAPL,000001",
  });
  clearPortfolio();
});
test.afterAll(() => {
  restoreEnvText(originalEnv);
  clearPortfolio();
});

test("home with csv,sample: the sample note stays, and every price says its source and date", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByTestId("home-sample-note")).toHaveText(/部分数字来自样例数据/);
  const rows = page.getByTestId("watch-price-source");
  await expect(rows).toHaveCount(3);
  const moutai = page.locator('[data-testid="watch-price-source"][data-source="csv"]').first();
  await expect(moutai).toHaveText("csv · 2026-02-13（旧）");
  await expect(moutai).toHaveAttribute("data-stale", "true");
  await expect(page.locator('[data-testid="watch-price-source"][data-source="csv"]')).toHaveCount(2);
  await expect(page.locator('[data-testid="watch-price-source"][data-source="csv"]').nth(1)).toHaveText(
    /^csv · 2014-\d\d-\d\d（旧）$/,
  );
  const sample = page.locator('[data-testid="watch-price-source"][data-source="sample"]');
  await expect(sample).toHaveCount(1);
  await expect(sample).toHaveText(/^sample · \d{4}-\d\d-\d\d/);
  await screenshot(page, { path: `${SCREENSHOT_DIR}/home-csv-sample.png`, fullPage: true });
});

test("portfolio with csv,sample: a holding priced from an old file is an old close, not a live quote", async ({
  page,
  request,
}) => {
  const account = await request.post("/api/v1/portfolio/accounts", {
    data: { name: "CSV 账户", market: "cn", base_currency: "CNY" },
  });
  expect(account.ok()).toBe(true);
  const accountId = ((await account.json()) as { id: number }).id;
  const trade = await request.post("/api/v1/portfolio/trades", {
    data: {
      account_id: accountId,
      symbol: "600519",
      trade_date: "2025-06-02",
      side: "buy",
      quantity: 100,
      price: 1500,
      fee: 0,
      tax: 0,
    },
  });
  expect(trade.status(), await trade.text()).toBe(200);
  const snapshot = (await (await request.get(`/api/v1/portfolio/snapshot?account_id=${accountId}`)).json()) as {
    accounts: { positions: Record<string, unknown>[] }[];
  };
  expect(snapshot.accounts[0]!.positions[0]).toMatchObject({
    symbol: "600519",
    price_source: "history_close",
    price_provider: "csv",
    price_date: "2026-02-13",
    price_stale: true,
  });

  await page.goto(`/portfolio?account=${accountId}`);
  const row = page.locator('[data-testid="position-row"][data-code="600519"]');
  await expect(row).toHaveAttribute("data-source", "history_close");
  await expect(row).toHaveAttribute("data-stale", "true");
  await expect(row).toContainText("收盘价 2026-02-13（旧）· csv");
  await expect(row).not.toContainText("实时行情");
});
