import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { withE2eDb } from "./fixtures/e2e-db";
import { applySettings, readEnvText, restoreEnvText } from "./fixtures/env-file";
import { expectDarkBackground, expectNoHorizontalOverflow, screenshot, SCREENSHOT_DIR } from "./fixtures/ui";

// Each position on the Portfolio page shows its stock's latest verdict (action and score of the
// newest report) and that report's stop, and is flagged when its last price is below the stop; at 390 px the
// positions are cards that show P/L without horizontal scrolling. On sample data. The sample report's stop may sit
// under the price (no flag); a decision signal linked to the report then puts the stop above the price, which must
// flag the holding. Portfolio tables are emptied before and after.

const ACTIONS: Record<string, string> = {
  buy: "买入",
  add: "加仓",
  hold: "持有",
  reduce: "减仓",
  sell: "卖出",
  watch: "观望",
  avoid: "回避",
  alert: "预警",
};
const SHORT_SIDE = ["reduce", "sell", "avoid"];

interface Report {
  meta: { id: number };
  summary: { action: string | null; sentiment_score: number | null };
  strategy: { stop_loss: string | null };
}
interface Seeded {
  accountId: number;
  report: Report;
  price: number;
}

const clearPortfolio = () =>
  withE2eDb((db) => {
    db.prepare("DELETE FROM portfolio_trade").run();
    db.prepare("DELETE FROM portfolio_cash_ledger").run();
    db.prepare("DELETE FROM portfolio_corporate_action").run();
    db.prepare("DELETE FROM portfolio_fx_rate").run();
    db.prepare("DELETE FROM portfolio_position").run();
    db.prepare("DELETE FROM portfolio_account").run();
  });

let original: string | null = null;
test.beforeAll(async ({ request }) => {
  original = readEnvText();
  await applySettings(request, { MARKET_DATA_SOURCES: "sample", SAMPLE_LATENCY_MS: "0" });
  clearPortfolio();
});
test.afterAll(() => {
  restoreEnvText(original);
  clearPortfolio();
});

/** "1453.12（支撑下方留出波动缓冲 2026-10-23）" → 1453.12, as lib/signals levelPrice reads a level. */
function levelPrice(text: string | null): number | null {
  const match = text ? /\d+(?:\.\d+)?/.exec(text.replace(/,/g, "")) : null;
  const value = match ? Number(match[0]) : NaN;
  return Number.isFinite(value) && value > 0 ? value : null;
}

const cost = (v: number) =>
  v.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 4, useGrouping: false });
const positionRow = (page: Page, code: string) => page.locator(`[data-testid="position-row"][data-code="${code}"]`);

/** An account holding 600519 (analysed now) and 600900 (never analysed), and the one price of 600519 in its snapshot. */
async function seed(request: APIRequestContext): Promise<Seeded> {
  clearPortfolio();
  withE2eDb((db) => db.prepare("DELETE FROM analysis_history WHERE target_key = 'stock:cn:600900'").run());
  const account = await request.post("/api/v1/portfolio/accounts", {
    data: { name: "止损账户", market: "cn", base_currency: "CNY" },
  });
  expect(account.ok()).toBe(true);
  const accountId = ((await account.json()) as { id: number }).id;
  for (const trade of [
    { symbol: "600519", quantity: 100, price: 1500 },
    { symbol: "600900", quantity: 1000, price: 28 },
  ]) {
    const res = await request.post("/api/v1/portfolio/trades", {
      data: { account_id: accountId, trade_date: "2025-06-02", side: "buy", fee: 0, tax: 0, ...trade },
    });
    expect(res.status(), await res.text()).toBe(200);
  }
  const analysed = await request.post("/api/v1/analysis/analyze", {
    data: { stock_code: "600519", async_mode: false, notify: false },
  });
  expect(analysed.status(), await analysed.text()).toBe(200);
  const report = ((await analysed.json()) as { report: Report }).report;
  const snapshot = (await (await request.get(`/api/v1/portfolio/snapshot?account_id=${accountId}`)).json()) as {
    accounts: { positions: { symbol: string; last_price: number; price_available: boolean }[] }[];
  };
  const held = snapshot.accounts[0]!.positions.find((p) => p.symbol === "600519")!;
  expect(held.price_available).toBe(true);
  return { accountId, report, price: held.last_price };
}

test("21 §6: a position shows its latest verdict and the report's stop, and is flagged below the stop", async ({
  page,
  request,
  context,
  baseURL,
}) => {
  test.setTimeout(60_000);
  const { accountId, report, price } = await seed(request);
  const reportStop = levelPrice(report.strategy.stop_loss);
  expect(reportStop, `the sample report names a stop (${report.strategy.stop_loss})`).not.toBeNull();

  await page.goto(`/portfolio?account=${accountId}`);
  const headers = page.getByTestId("positions");
  await expect(headers.getByRole("columnheader", { name: "最新结论", exact: true })).toBeVisible();
  await expect(headers.getByRole("columnheader", { name: "止损", exact: true })).toBeVisible();
  const row = positionRow(page, "600519");
  const action = report.summary.action!;
  await expect(row.getByTestId("position-verdict-action")).toHaveAttribute("data-action", action);
  await expect(row.getByTestId("position-verdict-action")).toHaveText(ACTIONS[action]!);
  if (report.summary.sentiment_score !== null)
    await expect(row.getByTestId("position-verdict-score")).toHaveText(`${report.summary.sentiment_score} 分`);
  await expect(
    row.getByTestId("position-verdict").getByRole("link", { name: /查看 600519 的最新报告$/ }),
  ).toHaveAttribute("href", `/history/${report.meta.id}`);

  // The report's own stop, and the flag exactly when the price is under a protective (non short-side) stop.
  await expect(row.getByTestId("position-stop-value")).toHaveText(cost(reportStop!));
  const flagged = !SHORT_SIDE.includes(action) && price < reportStop!;
  await expect(row).toHaveAttribute("data-below-stop", String(flagged));
  await expect(row.getByRole("img", { name: /^低于止损/ })).toHaveCount(flagged ? 1 : 0);

  // A stock never analysed says so and has no stop.
  const other = positionRow(page, "600900");
  await expect(other.getByTestId("position-verdict")).toHaveText("未分析");
  await expect(other.getByTestId("position-stop")).toHaveText("—");
  await expect(other).toHaveAttribute("data-below-stop", "false");

  // A hold signal linked to the report with its stop 5 % above the price: the holding is below its stop.
  const stop = Math.round(price * 1.05 * 100) / 100;
  const signal = await request.post("/api/v1/decision-signals", {
    data: {
      stock_code: "600519",
      market: "cn",
      source_type: "manual",
      source_report_id: report.meta.id,
      trigger_source: "e2e-portfolio-verdicts",
      action: "hold",
      stop_loss: stop,
    },
  });
  expect(signal.status(), await signal.text()).toBe(200);
  const signalId = ((await signal.json()) as { item: { id: number } }).item.id;
  await page.reload();
  await expect(row.getByTestId("position-stop-value")).toHaveText(cost(stop));
  await expect(row.getByTestId("position-stop-value")).toHaveAttribute("title", `止损来自决策信号 #${signalId}`);
  await expect(row).toHaveAttribute("data-below-stop", "true");
  await expect(
    row.getByRole("img", { name: `低于止损：600519 现价 ${cost(price)} 低于止损 ${cost(stop)}` }),
  ).toBeVisible();
  await expect(row.getByTestId("position-verdict-action")).toHaveAttribute("data-action", action);
  await expect(other.getByRole("img", { name: /^低于止损/ })).toHaveCount(0);
  await screenshot(page, { path: `${SCREENSHOT_DIR}/portfolio-verdicts.png`, fullPage: true });

  await context.addCookies([{ name: "dsa_lang", value: "en", url: baseURL! }]);
  await page.reload();
  await expect(headers.getByRole("columnheader", { name: "Latest verdict", exact: true })).toBeVisible();
  await expect(
    row.getByRole("img", { name: `Below stop: 600519 at ${cost(price)} is below the stop ${cost(stop)}` }),
  ).toBeVisible();
  await expect(other.getByTestId("position-verdict")).toHaveText("Not analysed");
  await screenshot(page, { path: `${SCREENSHOT_DIR}/portfolio-verdicts-en.png`, fullPage: true });
});

test("21 §5: at 390 px the positions are cards showing P/L, verdict and the flag without horizontal scrolling", async ({
  page,
  request,
  context,
  baseURL,
}) => {
  test.setTimeout(60_000);
  const { accountId, report, price } = await seed(request);
  const stop = Math.round(price * 1.05 * 100) / 100;
  const signal = await request.post("/api/v1/decision-signals", {
    data: {
      stock_code: "600519",
      market: "cn",
      source_type: "manual",
      source_report_id: report.meta.id,
      trigger_source: "e2e-portfolio-verdicts",
      action: "hold",
      stop_loss: stop,
    },
  });
  expect(signal.status(), await signal.text()).toBe(200);

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/portfolio?account=${accountId}`);
  await expect(positionRow(page, "600519")).toBeVisible();
  await expectNoHorizontalOverflow(page);
  // Cards: no column headers; every figure of a card inside the screen.
  await expect(page.getByTestId("positions").getByRole("columnheader", { name: "浮动盈亏", exact: true })).toBeHidden();
  for (const code of ["600519", "600900"]) {
    const card = positionRow(page, code);
    for (const id of [
      "position-pnl",
      "position-last-price",
      "position-verdict",
      "position-stop",
      "position-market-value",
    ]) {
      const found = await card.getByTestId(id).boundingBox();
      expect(found, `${code} ${id} is shown`).not.toBeNull();
      const box = found!;
      expect(box.x, `${code} ${id} starts on screen`).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width, `${code} ${id} ends on screen`).toBeLessThanOrEqual(390);
    }
    const pnl = card.getByTestId("position-pnl");
    await expect(pnl).toContainText(/[+-]?\d[\d,]*\.\d{2}/);
    // The card labels its figures: the ::before of each cell shows its data-label, the column's name.
    await expect(pnl).toHaveAttribute("data-label", "浮动盈亏");
    expect(["none", "normal", ""]).not.toContain(await pnl.evaluate((el) => getComputedStyle(el, "::before").content));
  }
  const flag = positionRow(page, "600519").getByRole("img", { name: /^低于止损/ });
  await flag.scrollIntoViewIfNeeded();
  await expect(flag).toBeInViewport();
  await screenshot(page, { path: `${SCREENSHOT_DIR}/portfolio-verdicts-phone.png`, fullPage: true });

  await context.addCookies([{ name: "dsa_theme", value: "dark", url: baseURL! }]);
  await page.reload();
  await expectDarkBackground(page);
  await expectNoHorizontalOverflow(page);
  await screenshot(page, { path: `${SCREENSHOT_DIR}/portfolio-verdicts-phone-dark.png`, fullPage: true });
});
