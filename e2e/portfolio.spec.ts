import path from "node:path";
import Database from "better-sqlite3";
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

// The Portfolio page, on sample market data (switched through the e2e server's env file). Accounts,
// trades and positions are emptied before and after. The risk panel is compared number by number with
// GET /api/v1/portfolio/risk for the same account, as_of and cost method.

const portfolio = UI_PAGES.find((p) => p.slug === "portfolio")!;

interface Risk {
  as_of: string;
  cost_method: "fifo" | "avg";
  currency: string;
  positions: { symbol: string; cost_per_share: number; market_value: number; weight_pct: number }[];
  concentration: {
    total_market_value: number;
    top_weight_pct: number;
    hhi: number;
    top_positions: { symbol: string; weight_pct: number }[];
  };
  drawdown: { max_drawdown_pct: number; series: unknown[] };
  volatility_pct: number | null;
  var_95_1d: { amount: number; pct: number } | null;
  exposure: { by_market: { key: string; weight_pct: number }[]; by_currency: { key: string; weight_pct: number }[] };
  warnings: { code: string; message: string }[];
}

function withDb<T>(work: (db: Database.Database) => T): T {
  const db = new Database(path.join(process.env.E2E_DATA_DIR!, "e2e.db"));
  try {
    return work(db);
  } finally {
    db.close();
  }
}

const clearPortfolio = () =>
  withDb((db) => {
    db.prepare("DELETE FROM portfolio_trade").run();
    db.prepare("DELETE FROM portfolio_cash_ledger").run();
    db.prepare("DELETE FROM portfolio_corporate_action").run();
    db.prepare("DELETE FROM portfolio_fx_rate").run();
    db.prepare("DELETE FROM portfolio_position").run();
    db.prepare("DELETE FROM portfolio_account").run();
  });

const money = (v: number) => v.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const cost = (v: number) =>
  v.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 4, useGrouping: false });
const pct = (v: number, digits = 2) => `${v.toFixed(digits)}%`;

interface Snapshot {
  as_of: string;
  cost_method: "fifo" | "avg";
  currency: string;
  total_cash: number;
  total_market_value: number;
  total_equity: number;
  unrealized_pnl: number;
  realized_pnl: number;
  fee_total: number;
  tax_total: number;
  fx_stale: boolean;
  accounts: {
    positions: {
      symbol: string;
      quantity: number;
      avg_cost: number;
      last_price: number;
      market_value_base: number;
      price_source: string;
      price_available: boolean;
    }[];
  }[];
}

async function snapshotFromApi(request: APIRequestContext, query: string): Promise<Snapshot> {
  const response = await request.get(`/api/v1/portfolio/snapshot?${query}`);
  expect(response.status()).toBe(200);
  return (await response.json()) as Snapshot;
}

const signed = (v: number) => `${v > 0 ? "+" : ""}${money(v)}`;

/** The overview's cards and every position row equal GET /snapshot. */
async function expectSnapshotEquals(page: Page, snapshot: Snapshot): Promise<void> {
  const panel = page.getByTestId("snapshot-panel");
  await expect(panel).toHaveAttribute("data-cost-method", snapshot.cost_method);
  await expect(panel).toHaveAttribute("data-as-of", snapshot.as_of);
  const card = (id: string) => panel.getByTestId(`snapshot-${id}`);
  await expect(card("equity").getByTestId("card-value")).toHaveText(money(snapshot.total_equity));
  await expect(card("equity")).toContainText(snapshot.currency);
  await expect(card("market-value").getByTestId("card-value")).toHaveText(money(snapshot.total_market_value));
  await expect(card("cash").getByTestId("card-value")).toHaveText(money(snapshot.total_cash));
  await expect(card("unrealized").getByTestId("card-value")).toHaveText(signed(snapshot.unrealized_pnl));
  await expect(card("realized").getByTestId("card-value")).toHaveText(signed(snapshot.realized_pnl));
  await expect(card("costs")).toHaveAttribute("data-value", String(snapshot.fee_total + snapshot.tax_total));
  await expect(page.getByTestId("fx-badge")).toHaveAttribute("data-stale", String(snapshot.fx_stale));
  const positions = snapshot.accounts.flatMap((a) => a.positions);
  await expect(panel.getByTestId("position-row")).toHaveCount(positions.length);
  for (const p of positions) {
    const row = panel.locator(`[data-testid="position-row"][data-code="${p.symbol}"]`);
    await expect(row).toHaveAttribute("data-source", p.price_source);
    await expect(row.getByTestId("position-avg-cost")).toHaveText(cost(p.avg_cost));
    await expect(row.getByTestId("position-last-price")).toHaveText(p.price_available ? cost(p.last_price) : "—");
    await expect(row.getByTestId("position-market-value")).toContainText(money(p.market_value_base));
  }
}

async function riskFromApi(request: APIRequestContext, query: string): Promise<Risk> {
  const response = await request.get(`/api/v1/portfolio/risk?${query}`);
  expect(response.status()).toBe(200);
  return (await response.json()) as Risk;
}

/** Every KPI and valuation row of the panel equals the API's report. */
async function expectPanelEquals(page: Page, risk: Risk): Promise<void> {
  const panel = page.getByTestId("risk-panel");
  await expect(panel).toHaveAttribute("data-cost-method", risk.cost_method);
  await expect(panel).toHaveAttribute("data-as-of", risk.as_of);
  const kpi = (id: string) => panel.getByTestId(`risk-kpi-${id}`);
  await expect(kpi("total").getByTestId("kpi-value")).toHaveText(money(risk.concentration.total_market_value));
  await expect(kpi("total")).toHaveAttribute("data-value", String(risk.concentration.total_market_value));
  await expect(kpi("total")).toContainText(risk.currency);
  await expect(kpi("top-weight").getByTestId("kpi-value")).toHaveText(pct(risk.concentration.top_weight_pct));
  await expect(kpi("hhi").getByTestId("kpi-value")).toHaveText(risk.concentration.hhi.toFixed(4));
  await expect(kpi("hhi")).toHaveAttribute("data-value", String(risk.concentration.hhi));
  await expect(kpi("volatility").getByTestId("kpi-value")).toHaveText(
    risk.volatility_pct === null ? "数据不足" : pct(risk.volatility_pct),
  );
  await expect(kpi("var").getByTestId("kpi-value")).toHaveText(
    risk.var_95_1d === null ? "数据不足" : money(risk.var_95_1d.amount),
  );
  if (risk.var_95_1d) await expect(kpi("var")).toContainText(pct(risk.var_95_1d.pct, 3));
  await expect(kpi("max-drawdown").getByTestId("kpi-value")).toHaveText(pct(risk.drawdown.max_drawdown_pct));

  const top = risk.concentration.top_positions;
  await expect(panel.getByTestId("top-position-row")).toHaveCount(top.length);
  for (const p of top)
    await expect(panel.locator(`[data-testid="top-position-row"][data-code="${p.symbol}"]`)).toHaveAttribute(
      "data-weight",
      String(p.weight_pct),
    );
  for (const [testId, rowsOf] of [
    ["exposure-market", risk.exposure.by_market],
    ["exposure-currency", risk.exposure.by_currency],
  ] as const) {
    const bars = panel.getByTestId(testId).getByTestId("exposure-row");
    await expect(bars).toHaveCount(rowsOf.length);
    for (const e of rowsOf)
      await expect(panel.getByTestId(testId).locator(`[data-key="${e.key}"]`)).toHaveAttribute(
        "data-weight",
        String(e.weight_pct),
      );
  }
  if (risk.drawdown.series.length >= 2)
    await expect(panel.getByTestId("risk-chart")).toHaveAttribute("data-points", String(risk.drawdown.series.length));
  await expect(panel.getByTestId("risk-warning")).toHaveCount(risk.warnings.length);
  // Warnings are worded from their code and numbers in the UI language, not the API's English text.
  for (const warning of risk.warnings)
    await expect(panel.locator(`[data-code="${warning.code}"]`).first()).not.toContainText(warning.message);
}

const tradeForm = (page: Page) => page.getByRole("form", { name: "录入交易" });
const importForm = (page: Page) => page.getByRole("form", { name: "导入券商交割单" });
const positionRow = (page: Page, code: string) => page.locator(`[data-testid="position-row"][data-code="${code}"]`);
const dialog = (page: Page) => page.getByRole("dialog");

async function addTrade(
  page: Page,
  trade: { side: "买入" | "卖出"; code: string; quantity: number; price: number; fee?: number; date: string },
): Promise<void> {
  const form = tradeForm(page);
  await form.getByLabel("方向").selectOption({ label: trade.side });
  await form.getByRole("combobox", { name: "股票代码" }).fill(trade.code);
  await form.getByLabel("数量").fill(String(trade.quantity));
  await form.getByLabel("价格").fill(String(trade.price));
  await form.getByLabel("费用").fill(String(trade.fee ?? 0));
  await form.getByLabel("成交日期").fill(trade.date);
  await form.getByRole("button", { name: "添加交易" }).click();
  await expect(form.getByRole("status")).toContainText(`已记录：${trade.side} ${trade.code} ${trade.quantity} 股`);
}

let originalEnv: string | null = null;

test.beforeAll(async ({ request }) => {
  originalEnv = readEnvText();
  await applySettings(request, { MARKET_DATA_SOURCES: "sample" });
  clearPortfolio();
});
test.afterAll(() => {
  restoreEnvText(originalEnv);
  clearPortfolio();
});

describeUiPage(portfolio, { built: true });

test.describe("the Portfolio page", () => {
  test("account, trades (buy, buy, partial sell), CSV import with a line error, FIFO vs average cost, and the risk panel equal to the API", async ({
    page,
    request,
  }) => {
    test.setTimeout(90_000);
    clearPortfolio();
    await page.goto("/portfolio");
    await expect(pageTitle(page)).toHaveText(portfolio.zh);
    await expect(page.getByTestId("accounts-empty")).toBeVisible();

    // Create an account: the page opens it.
    const accountForm = page.getByRole("form", { name: "新建账户" });
    await accountForm.getByLabel("账户名称").fill("E2E 主账户");
    await accountForm.getByLabel("券商").fill("华泰");
    await accountForm.getByRole("button", { name: "创建账户" }).click();
    await expect(page).toHaveURL(/\/portfolio\?account=\d+$/);
    const accounts = (
      (await (await request.get("/api/v1/portfolio/accounts")).json()) as {
        accounts: {
          id: number;
          name: string;
          market: string;
          base_currency: string;
          is_active: boolean;
          broker: string | null;
        }[];
      }
    ).accounts;
    expect(accounts).toHaveLength(1);
    const account = accounts[0]!;
    expect(account).toMatchObject({
      name: "E2E 主账户",
      market: "cn",
      base_currency: "CNY",
      is_active: true,
      broker: "华泰",
    });
    await expect(
      page.getByRole("navigation", { name: "选择账户" }).getByRole("link", { name: "E2E 主账户" }),
    ).toHaveAttribute("aria-current", "page");

    // Two buys at different prices and a partial sell: FIFO sells the first lot, average cost pools them.
    await addTrade(page, { side: "买入", code: "600519", quantity: 100, price: 1400, date: "2025-03-03" });
    await addTrade(page, { side: "买入", code: "600519", quantity: 100, price: 1600, date: "2025-03-04" });
    await addTrade(page, { side: "卖出", code: "600519", quantity: 100, price: 1700, date: "2025-03-05" });
    const moutai = positionRow(page, "600519");
    await expect(moutai.getByTestId("position-quantity")).toHaveText("100");
    // The overview is FIFO by default: the open lot is the second buy.
    await expect(moutai.getByTestId("position-avg-cost")).toHaveText("1600.00");
    const positions = (
      (await (await request.get(`/api/v1/portfolio/positions?account_id=${account.id}`)).json()) as {
        items: { symbol: string; avg_cost: number; fifo_cost: number }[];
      }
    ).items;
    expect(positions.find((p) => p.symbol === "600519")).toMatchObject({ avg_cost: 1500, fifo_cost: 1600 });

    // A sale above the holding is refused with the API's message.
    const form = tradeForm(page);
    await form.getByLabel("方向").selectOption({ label: "卖出" });
    await form.getByRole("combobox", { name: "股票代码" }).fill("600519");
    await form.getByLabel("数量").fill("500");
    await form.getByLabel("价格").fill("1700");
    await form.getByLabel("成交日期").fill("2025-03-06");
    await form.getByRole("button", { name: "添加交易" }).click();
    await expect(form.getByRole("alert")).toContainText("exceeds the 100 held");

    // Broker import (docs/api.md §12.1.7-9): a file with a bad line previews with the line named; the import stores the good row.
    const badCsv =
      "date,side,code,quantity,price,fee\n2025-03-04,buy,000001,1000,11.5,5\n2025-03-05,buy,NOTACODE123,100,11,0\n";
    const parsed = await request.post("/api/v1/portfolio/imports/csv/parse", {
      multipart: { broker: "generic", file: { name: "bad.csv", mimeType: "text/csv", buffer: Buffer.from(badCsv) } },
    });
    expect(parsed.status()).toBe(200);
    const apiPreview = (await parsed.json()) as { record_count: number; error_count: number; errors: string[] };
    expect(apiPreview).toMatchObject({ record_count: 1, error_count: 1 });
    expect(apiPreview.errors[0]).toContain("line 3");
    const imports = importForm(page);
    await imports.getByLabel("券商格式").selectOption("generic");
    await imports
      .getByLabel("选择文件")
      .setInputFiles({ name: "bad.csv", mimeType: "text/csv", buffer: Buffer.from(badCsv) });
    await expect(imports.getByLabel("CSV 内容")).toHaveValue(badCsv);
    await imports.getByRole("button", { name: "预览" }).click();
    await expect(imports.getByTestId("import-parse-summary")).toHaveText("读取 1 笔，跳过 0 行，错误 1 行");
    await expect(imports.getByTestId("import-dry-summary")).toHaveText("预计新增 1 笔，重复 0 笔，失败 1 笔");
    await expect(imports.getByTestId("import-errors")).toContainText(apiPreview.errors[0]!);
    await expect(imports.getByTestId("import-record")).toHaveCount(1);
    await screenshot(page, { path: `${SCREENSHOT_DIR}/portfolio-import-preview.png`, fullPage: true });
    await expect(page.getByTestId("trades-total")).toHaveText("共 3 笔");
    await imports.getByRole("button", { name: "导入", exact: true }).click();
    await expect(imports.getByRole("alert")).toHaveText("已导入 1 笔交易（重复 0，失败 1）。");
    await expect(page.getByTestId("trades-total")).toHaveText("共 4 笔");

    // Pasted, with Chinese headers: the 000001 row is the one imported above (a duplicate), 601318 is new.
    await imports
      .getByLabel("CSV 内容")
      .fill("日期,方向,代码,数量,价格,手续费\n2025-03-04,买入,000001,1000,11.5,5\n2025-03-06,买入,601318,200,48,2\n");
    await imports.getByRole("button", { name: "预览" }).click();
    await expect(imports.getByTestId("import-dry-summary")).toHaveText("预计新增 1 笔，重复 1 笔，失败 0 笔");
    await imports.getByRole("button", { name: "导入", exact: true }).click();
    await expect(imports.getByRole("status")).toHaveText("已导入 1 笔交易（重复 1，失败 0）。");
    await expect(page.getByTestId("trades-total")).toHaveText("共 5 笔");
    await expect(page.getByTestId("position-row")).toHaveCount(3);
    await expect(positionRow(page, "000001").getByTestId("position-avg-cost")).toHaveText("11.505");

    // The overview and the risk panel (today, FIFO by default) equal the API's snapshot and report.
    const fifoSnapshot = await snapshotFromApi(request, `account_id=${account.id}&cost_method=fifo`);
    expect(fifoSnapshot.total_cash).toBeCloseTo(-140_000 - 160_000 + 170_000 - 11_500 - 5 - 9_600 - 2, 2);
    await expectSnapshotEquals(page, fifoSnapshot);
    const fifo = await riskFromApi(request, `account_id=${account.id}&cost_method=fifo`);
    expect(fifo.positions).toHaveLength(3);
    expect(fifo.volatility_pct).not.toBeNull();
    await expectPanelEquals(page, fifo);
    expect(fifo.positions.find((p) => p.symbol === "600519")?.cost_per_share).toBe(1600);
    await screenshot(page, { path: `${SCREENSHOT_DIR}/portfolio-risk-fifo.png`, fullPage: true });

    // Average cost: the switch is a link; the cost of 600519 changes, the market value does not.
    await page.getByRole("navigation", { name: "成本法" }).getByRole("link", { name: "平均成本" }).click();
    await expect(page).toHaveURL(/cost_method=avg/);
    await expect(positionRow(page, "600519").getByTestId("position-avg-cost")).toHaveText("1500.00");
    await expectSnapshotEquals(page, await snapshotFromApi(request, `account_id=${account.id}&cost_method=avg`));
    const avg = await riskFromApi(request, `account_id=${account.id}&cost_method=avg`);
    expect(avg.positions.find((p) => p.symbol === "600519")?.cost_per_share).toBe(1500);
    await expectPanelEquals(page, avg);
    expect(avg.concentration.total_market_value).toBe(fifo.concentration.total_market_value);

    // as_of: an earlier date values only the trades up to it.
    await page.getByLabel("估值日期").fill("2025-03-05");
    await page.getByRole("button", { name: "应用" }).click();
    await expect(page).toHaveURL(/as_of=2025-03-05/);
    await expect(page).toHaveURL(/cost_method=avg/);
    const early = await riskFromApi(request, `account_id=${account.id}&cost_method=avg&as_of=2025-03-05`);
    expect(early.positions.map((p) => p.symbol).sort()).toEqual(["000001", "600519"]);
    await expectPanelEquals(page, early);
    await expectSnapshotEquals(
      page,
      await snapshotFromApi(request, `account_id=${account.id}&cost_method=avg&as_of=2025-03-05`),
    );
    await screenshot(page, { path: `${SCREENSHOT_DIR}/portfolio-risk-as-of.png`, fullPage: true });

    // A malformed as_of is named and ignored.
    await page.goto(`/portfolio?account=${account.id}&as_of=2025-02-30`);
    await expect(page.getByRole("alert").filter({ hasText: "as_of" })).toBeVisible();
  });

  test("delete a trade with confirmation, deactivate the account, and the all-accounts report", async ({
    page,
    request,
  }) => {
    clearPortfolio();
    const account = (await (
      await request.post("/api/v1/portfolio/accounts", {
        data: { name: "港股账户", market: "hk", base_currency: "HKD" },
      })
    ).json()) as { id: number };
    for (const trade of [
      { side: "buy", symbol: "00700", quantity: 100, price: 380, trade_date: "2025-04-01" },
      { side: "buy", symbol: "00700", quantity: 100, price: 400, trade_date: "2025-04-02" },
      { side: "sell", symbol: "00700", quantity: 150, price: 420, trade_date: "2025-04-03" },
    ]) {
      expect(
        (await request.post("/api/v1/portfolio/trades", { data: { account_id: account.id, ...trade } })).status(),
      ).toBe(200);
    }
    const trades = (
      (await (await request.get(`/api/v1/portfolio/trades?account_id=${account.id}`)).json()) as {
        items: { id: number; side: string; trade_date: string }[];
      }
    ).items;
    const firstBuy = trades.find((t) => t.trade_date === "2025-04-01")!;
    const sale = trades.find((t) => t.side === "sell")!;

    await page.goto(`/portfolio?account=${account.id}`);
    await expect(positionRow(page, "00700").getByTestId("position-quantity")).toHaveText("50");

    // Deleting the first buy would leave the sale of 150 above the 100 held: refused, the message stays in the dialog.
    await page.getByRole("button", { name: `删除交易 #${firstBuy.id}` }).click();
    await expect(dialog(page).getByRole("heading")).toHaveText("删除这笔交易？");
    await dialog(page).getByRole("button", { name: "删除" }).click();
    await expect(dialog(page).getByRole("alert")).toContainText("exceeds the 100 held");
    await screenshot(page, { path: `${SCREENSHOT_DIR}/portfolio-delete-refused.png` });
    await dialog(page).getByRole("button", { name: "取消" }).click();
    await expect(page.getByTestId("trade-row")).toHaveCount(3);

    await page.getByRole("button", { name: `删除交易 #${sale.id}` }).click();
    await dialog(page).getByRole("button", { name: "删除" }).click();
    await expect(dialog(page)).toBeHidden();
    await expect(page.getByTestId("trade-row")).toHaveCount(2);
    await expect(positionRow(page, "00700").getByTestId("position-quantity")).toHaveText("200");
    await expect(positionRow(page, "00700").getByTestId("position-avg-cost")).toHaveText("390.00");

    // Analyse the held stock (docs/api.md §12.1.14): a task is queued and named.
    await positionRow(page, "00700").getByRole("button", { name: "分析 00700" }).click();
    await expect(positionRow(page, "00700").getByTestId("analysis-message")).toContainText("已提交分析任务");
    const taskId = ((await positionRow(page, "00700").getByTestId("analysis-message").textContent()) ?? "")
      .replace("已提交分析任务 ", "")
      .trim();
    expect((await request.get(`/api/v1/analysis/status/${taskId}`)).status()).toBe(200);
    expect((await request.get(`/api/v1/portfolio/trades?account_id=${account.id}`)).ok()).toBe(true);

    // The all-accounts report (base currency) equals the API's; deactivating the account takes it out.
    await page.getByRole("navigation", { name: "选择账户" }).getByRole("link", { name: "全部账户" }).click();
    await expect(page).toHaveURL(/account=all/);
    await expectPanelEquals(page, await riskFromApi(request, "cost_method=fifo"));
    await expectSnapshotEquals(page, await snapshotFromApi(request, "cost_method=fifo"));
    await page.getByRole("navigation", { name: "选择账户" }).getByRole("link", { name: "港股账户" }).click();
    await page.getByRole("button", { name: "停用账户" }).click();
    await expect(page.getByRole("status").filter({ hasText: "账户已停用" })).toBeVisible();
    await expect(
      page.getByRole("navigation", { name: "选择账户" }).getByRole("link", { name: /港股账户/ }),
    ).toContainText("已停用");
    const list = (
      (await (await request.get("/api/v1/portfolio/accounts?include_inactive=true")).json()) as {
        accounts: { id: number; is_active: boolean }[];
      }
    ).accounts;
    expect(list.find((a) => a.id === account.id)?.is_active).toBe(false);
    expect(
      (
        (await (await request.get("/api/v1/portfolio/accounts?include_inactive=false")).json()) as {
          accounts: unknown[];
        }
      ).accounts,
    ).toHaveLength(0);
    await page.getByRole("navigation", { name: "选择账户" }).getByRole("link", { name: "全部账户" }).click();
    const none = await riskFromApi(request, "cost_method=fifo");
    expect(none.concentration.total_market_value).toBe(0);
    await expectPanelEquals(page, none);
    await page
      .getByRole("navigation", { name: "选择账户" })
      .getByRole("link", { name: /港股账户/ })
      .click();
    await page.getByRole("button", { name: "启用账户" }).click();
    await expect(page.getByRole("button", { name: "停用账户" })).toBeVisible();
  });

  test("cash ledger and corporate actions: a deposit, a 2-for-1 split and a dividend move the overview as the API says", async ({
    page,
    request,
  }) => {
    test.setTimeout(60_000);
    clearPortfolio();
    const account = (await (
      await request.post("/api/v1/portfolio/accounts", {
        data: { name: "分红账户", market: "cn", base_currency: "CNY" },
      })
    ).json()) as { id: number };
    expect(
      (
        await request.post("/api/v1/portfolio/trades", {
          data: {
            account_id: account.id,
            symbol: "000001",
            trade_date: "2025-06-02",
            side: "buy",
            quantity: 1000,
            price: 12,
            fee: 5,
            tax: 0,
          },
        })
      ).status(),
    ).toBe(200);
    await page.goto(`/portfolio?account=${account.id}`);
    await expect(page.getByTestId("cash-empty")).toBeVisible();
    await expect(page.getByTestId("actions-empty")).toBeVisible();
    // A buy without its deposit leaves cash negative: the card says what is missing.
    await expect(page.getByTestId("snapshot-cash").getByTestId("card-hint")).toContainText("现金为负");
    // The price column holds a quote or a close (each row says which): it is the last price, not "the close".
    await expect(page.getByTestId("positions").locator("thead")).toContainText("最新价");
    await expect(page.getByTestId("positions").locator("thead")).not.toContainText("收盘价");

    const cashForm = page.getByRole("form", { name: "现金流水" });
    await cashForm.getByLabel("金额").fill("20000");
    await cashForm.getByLabel("日期").fill("2025-06-01");
    await cashForm.getByRole("button", { name: "记录" }).click();
    await expect(cashForm.getByRole("status")).toHaveText("已记录：转入 20,000.00 CNY");
    await expect(page.getByTestId("cash-row")).toHaveCount(1);
    await expect(page.getByTestId("snapshot-cash").getByTestId("card-hint")).toHaveCount(0);
    let snapshot = await snapshotFromApi(request, `account_id=${account.id}&cost_method=fifo`);
    expect(snapshot.total_cash).toBeCloseTo(20_000 - 12_005, 2);
    await expectSnapshotEquals(page, snapshot);

    const actionForm = page.getByRole("form", { name: "公司行动" });
    await actionForm.getByLabel("类型").selectOption({ label: "拆股/合股" });
    await actionForm.getByLabel("股票代码").fill("000001");
    await actionForm.getByLabel("拆股比例（新股/旧股）").fill("2");
    await actionForm.getByLabel("生效日期").fill("2025-07-01");
    await actionForm.getByRole("button", { name: "记录" }).click();
    await expect(actionForm.getByRole("status")).toHaveText("已记录：拆股/合股 000001（2025-07-01 起）");
    await expect(positionRow(page, "000001").getByTestId("position-quantity")).toHaveText("2,000");
    await expect(positionRow(page, "000001").getByTestId("position-avg-cost")).toHaveText("6.0025");

    await actionForm.getByLabel("类型").selectOption({ label: "现金分红" });
    await actionForm.getByLabel("每股分红").fill("0.3");
    await actionForm.getByLabel("生效日期").fill("2025-08-01");
    await actionForm.getByRole("button", { name: "记录" }).click();
    await expect(page.getByTestId("action-row")).toHaveCount(2);
    snapshot = await snapshotFromApi(request, `account_id=${account.id}&cost_method=fifo`);
    // The dividend is paid on the 2,000 shares held after the split: 600 into cash and realized P&L.
    expect(snapshot.total_cash).toBeCloseTo(20_000 - 12_005 + 600, 2);
    expect(snapshot.realized_pnl).toBeCloseTo(600, 2);
    await expectSnapshotEquals(page, snapshot);
    await screenshot(page, { path: `${SCREENSHOT_DIR}/portfolio-cash-actions.png`, fullPage: true });

    // Deleting the dividend takes it out of the cash again.
    const actions = (
      (await (
        await request.get(`/api/v1/portfolio/corporate-actions?account_id=${account.id}&action_type=cash_dividend`)
      ).json()) as { items: { id: number }[] }
    ).items;
    await page.getByRole("button", { name: `删除记录 #${actions[0]!.id}` }).click();
    await dialog(page).getByRole("button", { name: "删除" }).click();
    await expect(page.getByTestId("action-row")).toHaveCount(1);
    await expectSnapshotEquals(page, await snapshotFromApi(request, `account_id=${account.id}&cost_method=fifo`));
  });

  test("with positions: fits a 390px phone, and renders in dark mode and English", async ({
    page,
    request,
    context,
    baseURL,
  }) => {
    clearPortfolio();
    const account = (await (
      await request.post("/api/v1/portfolio/accounts", {
        data: { name: "混合账户", market: "cn", base_currency: "CNY" },
      })
    ).json()) as { id: number };
    const csv =
      "date,side,code,quantity,price,fee\n2025-05-06,buy,600519,100,1500,5\n2025-05-06,buy,AAPL,50,190,1\n2025-05-07,buy,00700,200,380,3\n2025-06-02,sell,600519,40,1550,2\n";
    const imported = await request.post("/api/v1/portfolio/imports/csv/commit", {
      multipart: {
        account_id: String(account.id),
        broker: "generic",
        dry_run: "false",
        file: { name: "mixed.csv", mimeType: "text/csv", buffer: Buffer.from(csv) },
      },
    });
    expect(imported.status()).toBe(200);
    expect(await imported.json()).toMatchObject({ inserted_count: 4, failed_count: 0 });

    // FX: USD and HKD against the account's CNY. Without PORTFOLIO_FX_RATES and before a refresh the fallback rates are stale;
    // the refresh fetches both from the sample provider and the overview is current.
    await page.goto(`/portfolio?account=${account.id}`);
    const staleBefore = (await snapshotFromApi(request, `account_id=${account.id}&cost_method=fifo`)).fx_stale;
    await expect(page.getByTestId("fx-badge")).toHaveAttribute("data-stale", String(staleBefore));
    await page.getByRole("button", { name: "刷新汇率" }).click();
    await expect(page.getByTestId("fx-message")).toHaveText("已更新 2 个汇率。");
    await expect(page.getByTestId("fx-badge")).toHaveAttribute("data-stale", "false");
    await expectSnapshotEquals(page, await snapshotFromApi(request, `account_id=${account.id}&cost_method=fifo`));

    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/portfolio?account=${account.id}`);
    await expect(page.getByTestId("risk-panel")).toBeVisible();
    await expectNoHorizontalOverflow(page);
    await screenshot(page, { path: `${SCREENSHOT_DIR}/portfolio-phone-data.png`, fullPage: true });

    await context.addCookies([{ name: "dsa_theme", value: "dark", url: baseURL! }]);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.reload();
    await expectDarkBackground(page);
    await expectPanelEquals(page, await riskFromApi(request, `account_id=${account.id}&cost_method=fifo`));
    await expectSnapshotEquals(page, await snapshotFromApi(request, `account_id=${account.id}&cost_method=fifo`));
    await screenshot(page, { path: `${SCREENSHOT_DIR}/portfolio-dark-data.png`, fullPage: true });

    await context.addCookies([{ name: "dsa_lang", value: "en", url: baseURL! }]);
    await page.reload();
    await expect(pageTitle(page)).toHaveText(portfolio.en);
    await expect(page.getByRole("form", { name: "Enter a trade" })).toBeVisible();
    await expect(
      page.getByRole("navigation", { name: "Cost method" }).getByRole("link", { name: "Average" }),
    ).toBeVisible();
    await screenshot(page, { path: `${SCREENSHOT_DIR}/portfolio-en-dark-data.png`, fullPage: true });
  });
});
