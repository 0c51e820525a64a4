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

// The Alerts page on the rule shape of docs/api.md §12.2. The e2e server runs on
// sample quotes (switched through its env file) and has no notification channel configured, so a firing is recorded
// as triggered with a "not sent" notification record (no_channel). Rules, their target states, triggers and alert
// notification records are emptied before and after, so this file does not depend on what ran earlier.

const alerts = UI_PAGES.find((p) => p.slug === "alerts")!;

interface Rule {
  id: number;
  name: string;
  target_scope: string;
  target: string;
  alert_type: string;
  enabled: boolean;
  parameters: Record<string, unknown>;
  targets: { target: string; armed: boolean }[];
}
interface Trigger {
  id: number;
  rule_id: number | null;
  target: string;
  observed_value: number | null;
  threshold: number | null;
  status: "triggered" | "skipped" | "degraded" | "failed";
  diagnostics: { delivery_status?: string; delivery?: { reason?: string } } | null;
}
interface TestResult {
  status: string;
  target_results: { target: string; observed_value: number | null; status: string }[];
}
interface Evaluation {
  checked: { rule_id: number; triggered: boolean }[];
  triggers: Trigger[];
}

const withDb = withE2eDb;

const clearAlerts = () =>
  withDb((db) => {
    db.prepare("DELETE FROM alert_trigger").run();
    db.prepare("DELETE FROM alert_target_state").run();
    db.prepare("DELETE FROM alert_rule").run();
    db.prepare("DELETE FROM notification_delivery WHERE related_kind = 'alert'").run();
  });

/** The sample price of a code, as the alert evaluator sees it: a disabled probe rule's dry run. */
async function samplePrice(request: APIRequestContext, code: string): Promise<number> {
  const created = await request.post("/api/v1/alerts/rules", {
    data: { alert_type: "price_cross", target: code, parameters: { direction: "above", price: 1e9 }, enabled: false },
  });
  expect(created.status()).toBe(201);
  const probe = (await created.json()) as Rule;
  const check = (await (await request.post(`/api/v1/alerts/rules/${probe.id}/test`)).json()) as TestResult;
  expect((await request.delete(`/api/v1/alerts/rules/${probe.id}`)).status()).toBe(200);
  const observed = check.target_results[0]?.observed_value ?? null;
  expect(observed, `a sample quote for ${code}`).toBeGreaterThan(0);
  return observed!;
}

async function rulesFromApi(request: APIRequestContext): Promise<Rule[]> {
  return ((await (await request.get("/api/v1/alerts/rules?page_size=100")).json()) as { items: Rule[] }).items;
}

async function triggersFromApi(
  request: APIRequestContext,
  query: string,
): Promise<{ items: Trigger[]; total: number }> {
  const response = await request.get(`/api/v1/alerts/triggers?${query}`);
  expect(response.status()).toBe(200);
  return (await response.json()) as { items: Trigger[]; total: number };
}

const ruleRow = (page: Page, id: number) => page.locator(`[data-testid="alert-rule-row"][data-rule-id="${id}"]`);
const triggerRows = (page: Page) => page.getByTestId("alert-trigger-row");
const createForm = (page: Page) => page.getByRole("form", { name: "新建提醒规则" });
const triggerFilters = (page: Page) => page.getByRole("search", { name: "筛选触发记录" });
const dialog = (page: Page) => page.getByRole("dialog");
const plain = (value: number) => String(Math.round(value * 10_000) / 10_000);

let originalEnv: string | null = null;

test.beforeAll(async ({ request }) => {
  originalEnv = readEnvText();
  await applySettings(request, { MARKET_DATA_SOURCES: "sample", STOCK_LIST: "600519,000001" });
  clearAlerts();
});
test.afterAll(() => {
  restoreEnvText(originalEnv);
  clearAlerts();
});

describeUiPage(alerts, { built: true });

test.describe("the Alerts page", () => {
  test("create a price rule below the sample price, dry-run it, check now, and find its trigger and notification record", async ({
    page,
    request,
  }) => {
    clearAlerts();
    const price = await samplePrice(request, "600519");
    const threshold = Math.floor(price * 0.9 * 100) / 100;

    await page.goto("/alerts");
    await expect(pageTitle(page)).toHaveText(alerts.zh);
    await expect(page.getByTestId("alert-rules-empty")).toBeVisible();
    await expect(page.getByTestId("alert-triggers-empty")).toHaveText("还没有触发记录。");
    await expect(page.getByTestId("alert-notifications-empty")).toHaveText("还没有通知记录。");

    // The parameter inputs follow the type: a direction and a price for a price cross, an action picker for signals.
    const form = createForm(page);
    await expect(form.getByLabel("目标范围")).toHaveValue("single_symbol");
    await form.getByLabel("条件类型").selectOption("signal_action");
    await expect(form.getByLabel("信号操作")).toBeVisible();
    await expect(form.getByLabel("价格", { exact: true })).toHaveCount(0);
    await form.getByLabel("条件类型").selectOption("price_cross");
    await expect(form.getByLabel("方向")).toHaveValue("above");
    // A missing target or threshold is caught before the API is called.
    await form.getByRole("button", { name: "创建规则" }).click();
    await expect(form.getByRole("alert")).toHaveText("请输入股票或指数代码。");

    // The target input autocompletes from the stock list.
    await form.getByRole("combobox", { name: "股票或指数代码" }).fill("600519");
    const suggestions = form.getByRole("listbox").getByRole("option");
    await expect(suggestions.first()).toContainText("600519");
    await suggestions.first().click();
    await form.getByRole("button", { name: "创建规则" }).click();
    await expect(form.getByRole("alert")).toHaveText("请填写价格。");
    await form.getByLabel("价格", { exact: true }).fill(String(threshold));
    await form.getByRole("button", { name: "创建规则" }).click();
    await expect(form.getByRole("status")).toContainText("已创建规则");

    const rules = await rulesFromApi(request);
    expect(rules).toHaveLength(1);
    const rule = rules[0]!;
    expect(rule).toMatchObject({
      target_scope: "single_symbol",
      target: "600519",
      alert_type: "price_cross",
      parameters: { direction: "above", price: threshold },
      enabled: true,
    });
    const row = ruleRow(page, rule.id);
    await expect(row).toContainText(rule.name);
    await expect(row.getByTestId("alert-rule-condition")).toHaveText("价格穿越 · 上穿");
    await expect(row.getByLabel(`规则「${rule.name}」的价格`)).toHaveValue(String(threshold));
    await expect(row.getByRole("switch", { name: `启用规则「${rule.name}」` })).toBeChecked();

    // Dry run: what the rule sees now (the sample price above the threshold), nothing stored.
    await row.getByRole("button", { name: `试运行规则「${rule.name}」` }).click();
    const dryRun = page
      .locator(`[data-testid="alert-rule-feedback"][data-rule-id="${rule.id}"]`)
      .getByTestId("alert-rule-test");
    await expect(dryRun).toHaveAttribute("data-status", "triggered");
    await expect(dryRun).toContainText("条件满足");
    await expect(dryRun).toContainText(`观测值 ${plain(price)} · 阈值 ${plain(threshold)}`);
    expect((await triggersFromApi(request, `rule_id=${rule.id}`)).total, "a dry run stores nothing").toBe(0);
    await screenshot(page, { path: `${SCREENSHOT_DIR}/alerts-dry-run.png`, fullPage: true });

    // Check now: the page reports what POST /api/v1/alerts/evaluate answered, then shows the stored trigger.
    const evaluated = page.waitForResponse(
      (r) => r.url().endsWith("/api/v1/alerts/evaluate") && r.request().method() === "POST",
    );
    await page.getByRole("button", { name: "立即检查" }).click();
    const evaluation = (await (await evaluated).json()) as Evaluation;
    const result = page.getByTestId("alerts-check-result");
    await expect(result).toHaveAttribute("data-checked", String(evaluation.checked.length));
    await expect(result).toHaveAttribute("data-fired", String(evaluation.triggers.length));
    await expect(result).toHaveText(
      `已检查 ${evaluation.checked.length} 个目标，满足条件 ${evaluation.checked.filter((c) => c.triggered).length} 个，新记录 ${evaluation.triggers.length} 条。`,
    );
    expect(evaluation.checked.find((c) => c.rule_id === rule.id)?.triggered).toBe(true);

    // One crossing, one trigger (fired by this check, or by the scheduled evaluator if the market is open now).
    const stored = await triggersFromApi(request, `rule_id=${rule.id}`);
    expect(stored.total).toBe(1);
    const trigger = stored.items[0]!;
    expect(trigger).toMatchObject({ status: "triggered", observed_value: price, threshold });
    // No notification channel in the e2e environment: the firing was not sent, and its record says why.
    expect(trigger.diagnostics?.delivery_status).toBe("suppressed");
    expect(trigger.diagnostics?.delivery?.reason).toContain("no notification channel");

    await expect(page.getByTestId("alert-triggers-total")).toHaveText("共 1 条");
    const triggerRow = triggerRows(page).first();
    await expect(triggerRows(page)).toHaveCount(1);
    await expect(triggerRow).toHaveAttribute("data-trigger-id", String(trigger.id));
    await expect(triggerRow.getByTestId("trigger-status")).toHaveAttribute("data-status", "triggered");
    await expect(triggerRow.getByTestId("trigger-status")).toHaveText("已触发");
    await expect(triggerRow.getByTestId("trigger-delivery-status")).toHaveText("未发送");
    await expect(triggerRow.getByTestId("trigger-observed")).toHaveText(plain(price));
    await expect(triggerRow.getByTestId("trigger-threshold")).toHaveText(plain(threshold));
    await expect(triggerRow.getByTestId("trigger-delivery")).toHaveText(trigger.diagnostics!.delivery!.reason!);
    await expect(triggerRow.getByTestId("trigger-reason")).toHaveText(`价格 ${plain(price)} 高于 ${plain(threshold)}`);
    await expect(triggerRow).toContainText(rule.name);
    // The rule's target is disarmed until its condition is false again, and shows the value it last saw.
    await expect(row.getByTestId("alert-rule-state")).toHaveText("已触发，等待条件恢复");
    await expect(row.getByTestId("alert-rule-last-value")).toHaveText(plain(price));
    // The notification record of the firing (GET /api/v1/alerts/notifications).
    const note = page.getByTestId("alert-notification-row");
    await expect(note).toHaveCount(1);
    await expect(note).toHaveAttribute("data-trigger-id", String(trigger.id));
    await expect(note).toHaveAttribute("data-error-code", "no_channel");
    await expect(note.getByTestId("notification-result")).toHaveText("未成功没有启用的通知渠道");
    await screenshot(page, { path: `${SCREENSHOT_DIR}/alerts-triggered.png`, fullPage: true });

    // Filters: by status and by rule, through the URL.
    await triggerFilters(page).getByLabel("状态").selectOption("failed");
    await triggerFilters(page).getByRole("button", { name: "筛选" }).click();
    await expect(page).toHaveURL(/status=failed/);
    await expect(page.getByTestId("alert-triggers-empty")).toHaveText("没有符合条件的触发记录。");
    await triggerFilters(page).getByLabel("状态").selectOption("triggered");
    await triggerFilters(page).getByLabel("规则").selectOption(String(rule.id));
    await triggerFilters(page).getByRole("button", { name: "筛选" }).click();
    await expect(page).toHaveURL(new RegExp(`rule_id=${rule.id}&status=triggered`));
    await expect(triggerRows(page)).toHaveCount(1);
    await triggerFilters(page).getByRole("link", { name: "清除筛选" }).click();
    await expect(page).toHaveURL(/\/alerts#triggers$/);
    // A malformed number is dropped and named; a status is any text (spec 4.6), one naming nothing lists nothing.
    await page.goto("/alerts?rule_id=abc");
    await expect(triggerFilters(page).getByRole("alert")).toContainText("rule_id");
    await expect(triggerRows(page)).toHaveCount(1);
    await page.goto("/alerts?status=bogus");
    await expect(page.getByTestId("alert-triggers-empty")).toHaveText("没有符合条件的触发记录。");
  });

  test("edit the threshold, disable and enable, and delete a rule with confirmation; its triggers stay", async ({
    page,
    request,
  }) => {
    clearAlerts();
    const price = await samplePrice(request, "AAPL");
    const low = Math.floor(price * 0.5 * 100) / 100;
    const created = await request.post("/api/v1/alerts/rules", {
      data: {
        alert_type: "price_cross",
        target: "AAPL",
        parameters: { direction: "above", price: low },
        name: "苹果突破",
      },
    });
    const rule = (await created.json()) as Rule;
    expect((await request.post("/api/v1/alerts/evaluate")).status()).toBe(200);
    expect((await triggersFromApi(request, `rule_id=${rule.id}`)).total).toBe(1);

    await page.goto("/alerts");
    const row = ruleRow(page, rule.id);
    await expect(row).toContainText("苹果突破");

    // A new threshold above the price: saved through PATCH, re-armed, and the dry run now says "not met".
    const high = Math.ceil(price * 1.5 * 100) / 100;
    const input = row.getByLabel("规则「苹果突破」的价格");
    await input.fill(String(high));
    await row.getByRole("button", { name: "保存" }).click();
    await expect(page.getByRole("status").filter({ hasText: "已更新规则「苹果突破」。" })).toBeVisible();
    await expect(row.getByRole("button", { name: "保存" })).toHaveCount(0);
    await expect.poll(async () => (await rulesFromApi(request))[0]?.parameters.price).toBe(high);
    expect((await rulesFromApi(request))[0]?.parameters.direction).toBe("above");
    await expect(row.getByTestId("alert-rule-state")).toHaveText("待触发");
    await row.getByRole("button", { name: "试运行规则「苹果突破」" }).click();
    const dryRun = page.getByTestId("alert-rule-test");
    await expect(dryRun).toHaveAttribute("data-status", "not_triggered");
    await expect(dryRun).toContainText("条件未满足");

    // Disable (POST .../disable): the switch goes off, the API says so, and "check now" skips the rule.
    const toggle = row.getByRole("switch", { name: "启用规则「苹果突破」" });
    const disabled = page.waitForResponse(
      (r) => r.url().endsWith(`/api/v1/alerts/rules/${rule.id}/disable`) && r.request().method() === "POST",
    );
    await toggle.click();
    expect((await disabled).status()).toBe(200);
    await expect(toggle).not.toBeChecked();
    await expect.poll(async () => (await rulesFromApi(request))[0]?.enabled).toBe(false);
    await page.getByRole("button", { name: "立即检查" }).click();
    await expect(page.getByTestId("alerts-check-result")).toHaveAttribute("data-checked", "0");
    const enabled = page.waitForResponse(
      (r) => r.url().endsWith(`/api/v1/alerts/rules/${rule.id}/enable`) && r.request().method() === "POST",
    );
    await toggle.click();
    expect((await enabled).status()).toBe(200);
    await expect(toggle).toBeChecked();
    await expect.poll(async () => (await rulesFromApi(request))[0]?.enabled).toBe(true);

    // Delete asks first; cancel keeps the rule.
    await row.getByRole("button", { name: "删除规则「苹果突破」" }).click();
    await expect(dialog(page).getByRole("heading")).toHaveText("删除规则「苹果突破」？");
    await screenshot(page, { path: `${SCREENSHOT_DIR}/alerts-delete-confirm.png` });
    await dialog(page).getByRole("button", { name: "取消" }).click();
    await expect(dialog(page)).toBeHidden();
    expect((await request.get(`/api/v1/alerts/rules/${rule.id}`)).status()).toBe(200);

    await row.getByRole("button", { name: "删除规则「苹果突破」" }).click();
    await dialog(page).getByRole("button", { name: "删除" }).click();
    await expect(dialog(page)).toBeHidden();
    await expect(row).toHaveCount(0);
    await expect(page.getByTestId("alert-rules-empty")).toBeVisible();
    expect((await request.get(`/api/v1/alerts/rules/${rule.id}`)).status()).toBe(404);
    // The trigger stays, no longer linked to a rule.
    const left = await triggersFromApi(request, "");
    expect(left.total).toBe(1);
    expect(left.items[0]!.rule_id).toBeNull();
    await expect(triggerRows(page)).toHaveCount(1);
    await expect(triggerRows(page).first()).toHaveAttribute("data-rule-id", "");
  });

  test("the other scopes from the form: the watchlist, a market, a portfolio account; the watchlist's dry run lists each stock", async ({
    page,
    request,
  }) => {
    clearAlerts();
    await page.goto("/alerts");
    const form = createForm(page);

    // Watchlist (STOCK_LIST): the indicator types with their defaults.
    await form.getByLabel("目标范围").selectOption("watchlist");
    await expect(form.getByTestId("alert-watchlist-target")).toHaveText("自选股列表（STOCK_LIST，2 只）");
    await form.getByLabel("条件类型").selectOption("macd_cross");
    await expect(form.getByLabel("方向")).toHaveValue("bullish_cross");
    await expect(form.getByLabel("快线周期")).toHaveValue("12");
    await expect(form.getByLabel("慢线周期")).toHaveValue("26");
    await expect(form.getByLabel("信号周期")).toHaveValue("9");
    await form.getByLabel("方向").selectOption("bearish_cross");
    await form.getByRole("button", { name: "创建规则" }).click();
    await expect(form.getByRole("status")).toContainText("已创建规则「自选股 MACD 死叉」");

    // Market: only the market types are offered; the score drop defaults to 10 points.
    await form.getByLabel("目标范围").selectOption("market");
    await expect(form.getByLabel("条件类型").locator("option")).toHaveText(["大盘红绿灯", "大盘温度下降"]);
    await form.getByLabel(/^市场/).selectOption("us");
    // The light type needs at least one light.
    await form.getByRole("checkbox", { name: "红灯" }).uncheck();
    await form.getByRole("checkbox", { name: "黄灯" }).uncheck();
    await form.getByRole("button", { name: "创建规则" }).click();
    await expect(form.getByRole("alert")).toHaveText("请至少选择一种灯色。");
    await form.getByLabel("条件类型").selectOption("market_light_score_drop");
    await expect(form.getByLabel("下降分数")).toHaveValue("10");
    await form.getByRole("button", { name: "创建规则" }).click();
    await expect(form.getByRole("status")).toContainText("已创建规则");

    // A portfolio account: the risk report's thresholds, no parameters.
    await form.getByLabel("目标范围").selectOption("portfolio_account");
    await expect(form.getByLabel(/^账户/)).toHaveValue("all");
    await form.getByLabel("条件类型").selectOption("portfolio_concentration");
    await expect(form.getByTestId("alert-parameters")).toContainText("使用持仓风险报告的阈值");
    await form.getByRole("button", { name: "创建规则" }).click();
    await expect(form.getByRole("status")).toContainText("已创建规则");

    const rules = await rulesFromApi(request);
    expect(rules.map((r) => [r.target_scope, r.target, r.alert_type, r.parameters])).toEqual([
      [
        "watchlist",
        "default",
        "macd_cross",
        { direction: "bearish_cross", fast_period: 12, slow_period: 26, signal_period: 9 },
      ],
      ["market", "us", "market_light_score_drop", { min_drop: 10 }],
      ["portfolio_account", "all", "portfolio_concentration", {}],
    ]);
    await expect(ruleRow(page, rules[0]!.id).getByTestId("alert-rule-target")).toHaveText("自选股");
    await expect(ruleRow(page, rules[1]!.id).getByTestId("alert-rule-target")).toHaveText("大盘 · 美股");
    await expect(ruleRow(page, rules[2]!.id).getByTestId("alert-rule-target")).toHaveText("持仓账户 · 全部账户");
    await expect(ruleRow(page, rules[1]!.id).getByTestId("alert-rule-condition")).toHaveText("大盘温度下降");
    await expect(
      ruleRow(page, rules[1]!.id).getByLabel("规则「美股 大盘温度较前一交易日下降 10 分」的下降分数"),
    ).toHaveValue("10");
    await expect(ruleRow(page, rules[0]!.id).getByTestId("alert-rule-condition")).toHaveText(
      "MACD 交叉 · 死叉 · 快线周期 12 · 慢线周期 26 · 信号周期 9",
    );

    // The watchlist rule's dry run: one line per STOCK_LIST stock, as the API answered.
    const tested = page.waitForResponse((r) => r.url().endsWith(`/api/v1/alerts/rules/${rules[0]!.id}/test`));
    await ruleRow(page, rules[0]!.id).getByRole("button", { name: "试运行规则「自选股 MACD 死叉」" }).click();
    const answer = (await (await tested).json()) as TestResult & { evaluated_count: number };
    expect(answer.evaluated_count).toBe(2);
    const feedback = page.locator(`[data-testid="alert-rule-feedback"][data-rule-id="${rules[0]!.id}"]`);
    await expect(feedback.getByTestId("alert-rule-test")).toHaveAttribute("data-status", answer.status);
    await expect(feedback.getByTestId("alert-rule-test-target")).toHaveCount(2);
    await expect(feedback.getByTestId("alert-rule-test-target").first()).toContainText("600519");
    await expect(feedback).toContainText("2 个目标：");
    await screenshot(page, { path: `${SCREENSHOT_DIR}/alerts-scopes.png`, fullPage: true });
  });

  test("the trigger history pages with previous/next links that keep the filters", async ({ page, request }) => {
    clearAlerts();
    for (const code of ["600519", "000001", "AAPL"]) {
      const price = await samplePrice(request, code);
      const created = await request.post("/api/v1/alerts/rules", {
        data: {
          alert_type: "price_cross",
          target: code,
          parameters: { direction: "above", price: Math.floor(price * 0.8 * 100) / 100 },
        },
      });
      expect(created.status()).toBe(201);
    }
    const evaluation = (await (await request.post("/api/v1/alerts/evaluate")).json()) as Evaluation;
    const all = await triggersFromApi(request, "page_size=100");
    expect(all.total).toBe(3);
    expect(evaluation.checked).toHaveLength(3);

    await page.goto("/alerts?status=triggered&page_size=2");
    const pager = page.getByRole("navigation", { name: "触发记录分页" });
    await expect(pager).toContainText("第 1 / 2 页");
    const firstPage = (await triggersFromApi(request, "status=triggered&page_size=2&page=1")).items.map((i) =>
      String(i.id),
    );
    expect(await triggerRows(page).evaluateAll((els) => els.map((el) => el.getAttribute("data-trigger-id")))).toEqual(
      firstPage,
    );
    await pager.getByRole("link", { name: "下一页" }).click();
    await expect(page).toHaveURL(/status=triggered&page_size=2&page=2/);
    const secondPage = (await triggersFromApi(request, "status=triggered&page_size=2&page=2")).items.map((i) =>
      String(i.id),
    );
    expect(secondPage).toHaveLength(1);
    await expect(triggerRows(page)).toHaveCount(1);
    await expect(triggerRows(page).first()).toHaveAttribute("data-trigger-id", secondPage[0]!);
    await expect(pager.getByText("下一页")).toHaveAttribute("aria-disabled", "true");
    await pager.getByRole("link", { name: "上一页" }).click();
    await expect(pager).toContainText("第 1 / 2 页");
    await expect(page.getByTestId("alert-triggers-total")).toHaveText("共 3 条");
    await expect(page.getByTestId("alert-notifications-total")).toHaveText("最近 3 条，共 3 条");
  });

  test("with rules and triggers: fits a 390px phone, and renders in dark mode and English", async ({
    page,
    request,
    context,
    baseURL,
  }) => {
    clearAlerts();
    const price = await samplePrice(request, "600519");
    await request.post("/api/v1/alerts/rules", {
      data: {
        alert_type: "price_cross",
        target: "600519",
        parameters: { direction: "above", price: Math.floor(price * 0.9) },
      },
    });
    await request.post("/api/v1/alerts/rules", {
      data: { alert_type: "price_change_percent", target: "00700", parameters: { direction: "down", change_pct: 5 } },
    });
    await request.post("/api/v1/alerts/rules", {
      data: { alert_type: "signal_action", target: "AAPL", parameters: { action: "sell" } },
    });
    await request.post("/api/v1/alerts/rules", {
      data: {
        target_scope: "watchlist",
        target: "default",
        alert_type: "rsi_threshold",
        parameters: { direction: "above", threshold: 70 },
      },
    });
    await request.post("/api/v1/alerts/rules", {
      data: {
        target_scope: "market",
        target: "cn",
        alert_type: "market_light_status",
        parameters: { statuses: ["red", "yellow"] },
      },
    });
    await request.post("/api/v1/alerts/evaluate");

    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/alerts");
    await expect(page.getByTestId("alert-rule-row")).toHaveCount(5);
    await expect(triggerRows(page).first()).toBeVisible();
    await expectNoHorizontalOverflow(page);
    await screenshot(page, { path: `${SCREENSHOT_DIR}/alerts-phone-data.png`, fullPage: true });

    await context.addCookies([{ name: "dsa_theme", value: "dark", url: baseURL! }]);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.reload();
    await expectDarkBackground(page);
    const priceTrigger = triggerRows(page)
      .filter({ hasText: "600519" })
      .filter({ has: page.locator('[data-status="triggered"]') })
      .first();
    await expect(priceTrigger.getByTestId("trigger-delivery-status")).toHaveText("未发送");
    await screenshot(page, { path: `${SCREENSHOT_DIR}/alerts-dark-data.png`, fullPage: true });

    await context.addCookies([{ name: "dsa_lang", value: "en", url: baseURL! }]);
    await page.reload();
    await expect(pageTitle(page)).toHaveText(alerts.en);
    await expect(page.getByRole("button", { name: "Check now" })).toBeVisible();
    await expect(priceTrigger.getByTestId("trigger-delivery-status")).toHaveText("Not sent");
    await expect(page.getByRole("form", { name: "New alert rule" })).toBeVisible();
    await expect(page.getByRole("heading", { name: /Notification records/ })).toBeVisible();
    await screenshot(page, { path: `${SCREENSHOT_DIR}/alerts-en-dark-data.png`, fullPage: true });
  });
});
