import { expect, test, type APIRequestContext, type Locator, type Page } from "@playwright/test";
import { applySettings, readEnvText, restoreEnvText } from "./fixtures/env-file";
import { expectNoHorizontalOverflow, screenshot, SCREENSHOT_DIR } from "./fixtures/ui";
import { markSeededRows } from "./fixtures/e2e-db";

// At 390 px the wide lists (history, signals, alerts, a report's runs, a backtest's tables) are cards: a row's key
// figures lie inside the screen, with no sideways scroll. The data is made through the API on the sample provider
// (two runs of one stock, a manual signal with a full plan, a price rule that fires, a finished backtest) and removed
// again afterwards (rows above the ids seen first, and the backtest run through the API). At desktop width the
// history list is still a table with its header.

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1440, height: 900 };
const CODE = "600519";
// A backtest call every fifth trading day: enough calls for every table, few cards to render.
const BACKTEST_STEP = 5;
const BACKTEST_TIMEOUT_MS = 30_000;

interface Seeded {
  olderReport: number;
  newerReport: number;
  signal: number;
  rule: number;
  trigger: number;
  backtest: string;
}

let unseed: () => void = () => undefined;
let originalEnv: string | null = null;
let seeded: Seeded;

async function analyze(request: APIRequestContext): Promise<number> {
  const response = await request.post("/api/v1/analysis/analyze", {
    data: { stock_code: CODE, async_mode: false, notify: false },
  });
  expect(response.status(), `analyze ${CODE}`).toBe(200);
  return ((await response.json()) as { report: { meta: { id: number } } }).report.meta.id;
}

async function seed(request: APIRequestContext): Promise<Seeded> {
  const backtestPosted = await request.post("/api/v1/backtests", { data: { stock_code: CODE, step: BACKTEST_STEP } });
  expect(backtestPosted.status(), await backtestPosted.text()).toBe(202);
  const backtest = ((await backtestPosted.json()) as { backtest_id: string }).backtest_id;

  const olderReport = await analyze(request);
  const newerReport = await analyze(request);

  const signalPosted = await request.post("/api/v1/decision-signals", {
    data: {
      stock_code: "000001",
      stock_name: "平安银行",
      market: "cn",
      source_type: "manual",
      trigger_source: "e2e-phone-cards",
      action: "buy",
      horizon: "swing",
      score: 72,
      entry_low: 10.8,
      entry_high: 11.2,
      stop_loss: 10.2,
      target_price: 12.5,
    },
  });
  expect(signalPosted.status(), await signalPosted.text()).toBe(200);
  const signal = ((await signalPosted.json()) as { item: { id: number } }).item.id;

  // Above a price far below any sample quote: it fires on the first check, which records a "not sent" notification
  // (the e2e server has no channel).
  const rulePosted = await request.post("/api/v1/alerts/rules", {
    data: {
      alert_type: "price_cross",
      target: CODE,
      name: "茅台价格提醒",
      parameters: { direction: "above", price: 1 },
    },
  });
  expect(rulePosted.status(), await rulePosted.text()).toBe(201);
  const rule = ((await rulePosted.json()) as { id: number }).id;
  const evaluated = await request.post("/api/v1/alerts/evaluate");
  expect(evaluated.status()).toBe(200);
  const triggers = ((await evaluated.json()) as { triggers: { id: number; rule_id: number | null }[] }).triggers;
  const trigger = triggers.find((x) => x.rule_id === rule);
  expect(trigger, "the rule fired").toBeDefined();

  await expect
    .poll(
      async () => ((await (await request.get(`/api/v1/backtests/${backtest}`)).json()) as { status: string }).status,
      { message: "the backtest finishes", timeout: BACKTEST_TIMEOUT_MS },
    )
    .toBe("completed");

  return { olderReport, newerReport, signal, rule, trigger: trigger!.id, backtest };
}

test.beforeAll(async ({ request }) => {
  test.setTimeout(90_000);
  originalEnv = readEnvText();
  await applySettings(request, { MARKET_DATA_SOURCES: "sample", SAMPLE_LATENCY_MS: "0" });
  unseed = markSeededRows();
  seeded = await seed(request);
});

test.afterAll(async ({ request }) => {
  if (seeded) await request.delete(`/api/v1/backtests/${seeded.backtest}`);
  unseed();
  restoreEnvText(originalEnv);
});

/** The element is laid out and lies across the screen's width: it can be read without scrolling sideways. */
async function expectOnScreen(target: Locator, name: string): Promise<void> {
  await expect(target, `${name} is shown`).toBeVisible();
  const box = await target.boundingBox();
  expect(box, `${name} has a box`).not.toBeNull();
  expect(box!.x, `${name} starts on screen`).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width, `${name} ends on screen`).toBeLessThanOrEqual(PHONE.width);
}

/** The named key cells of a card, then every cell it shows, lie on the screen. */
async function expectCardOnScreen(card: Locator, keys: Record<string, Locator>, name: string): Promise<void> {
  for (const [key, cell] of Object.entries(keys)) await expectOnScreen(cell, `${name}: ${key}`);
  const cells = await card.locator("td:visible, th:visible").all();
  expect(cells.length, `${name} shows its cells`).toBeGreaterThan(0);
  for (const [i, cell] of cells.entries()) await expectOnScreen(cell, `${name}: cell ${i + 1}`);
}

/** A card's caption is its data-label, drawn by ::before. */
async function expectCaption(cell: Locator, label: string): Promise<void> {
  await expect(cell).toHaveAttribute("data-label", label);
  expect(["none", "normal", ""]).not.toContain(await cell.evaluate((el) => getComputedStyle(el, "::before").content));
}

async function finish(page: Page, name: string): Promise<void> {
  await expectNoHorizontalOverflow(page);
  await screenshot(page, { path: `${SCREENSHOT_DIR}/${name}-cards-390.png`, fullPage: true });
}

test.describe("at 390 px the lists are cards", () => {
  test.use({ viewport: PHONE });

  test("history: the newest record's verdict, score and price are on screen, captioned", async ({ page }) => {
    await page.goto("/history");
    const table = page.getByTestId("history-table");
    const card = table.locator(`[data-testid="history-row"][data-record-id="${seeded.newerReport}"]`);
    await expect(card).toBeVisible();
    await expect(table.locator("thead")).toBeHidden();
    const score = card.getByTestId("history-score");
    await expectCardOnScreen(
      card,
      {
        stock: card.getByRole("link"),
        verdict: card.getByTestId("history-action"),
        score,
        price: card.getByTestId("history-price"),
        time: card.locator("time"),
      },
      "history card",
    );
    await expectCaption(score, "评分");
    await finish(page, "history");
  });

  test("signals: the signal's action, score and entry/stop/target are on screen", async ({ page }) => {
    await page.goto("/signals");
    const card = page.locator(`[data-testid="signal-row"][data-signal-id="${seeded.signal}"]`);
    await expect(card).toBeVisible();
    await expect(card.getByTestId("signal-entry")).toHaveText("10.80–11.20");
    await expectCardOnScreen(
      card,
      {
        stock: card.getByRole("link", { name: new RegExp(`^查看信号 #${seeded.signal}`) }),
        action: card.getByTestId("signal-action"),
        status: card.getByTestId("signal-status"),
        score: card.getByTestId("signal-score"),
        entry: card.getByTestId("signal-entry"),
        stop: card.getByTestId("signal-stop"),
        target: card.getByTestId("signal-target"),
      },
      "signal card",
    );
    await expectCaption(card.getByTestId("signal-stop"), "止损");
    await finish(page, "signals");
  });

  test("alerts: the rule, its firing and the notification record are on screen", async ({ page }) => {
    await page.goto("/alerts");
    const rule = page.locator(`[data-testid="alert-rule-row"][data-rule-id="${seeded.rule}"]`);
    await expect(rule).toBeVisible();
    await expectCardOnScreen(
      rule,
      {
        target: rule.getByTestId("alert-rule-target"),
        condition: rule.getByTestId("alert-rule-condition"),
        "last value": rule.getByTestId("alert-rule-last-value"),
        switch: rule.getByRole("switch"),
      },
      "rule card",
    );
    const trigger = page.locator(`[data-testid="alert-trigger-row"][data-trigger-id="${seeded.trigger}"]`);
    await expectCardOnScreen(
      trigger,
      {
        status: trigger.getByTestId("trigger-status"),
        observed: trigger.getByTestId("trigger-observed"),
        threshold: trigger.getByTestId("trigger-threshold"),
        reason: trigger.getByTestId("trigger-reason"),
      },
      "trigger card",
    );
    const note = page.locator(`[data-testid="alert-notification-row"][data-trigger-id="${seeded.trigger}"]`).first();
    await expectCardOnScreen(note, { result: note.getByTestId("notification-result") }, "notification card");
    await finish(page, "alerts");
  });

  test("a report's runs: the current run's verdict, score and price are on screen", async ({ page }) => {
    await page.goto(`/history/${seeded.newerReport}`);
    const panel = page.locator("section", { has: page.getByRole("heading", { name: "该股票的历次分析" }) });
    const current = panel.locator('[data-testid="stock-run"][aria-current="true"]');
    await expect(current).toBeVisible();
    await expect(
      panel.locator(`[data-testid="stock-run"]:has(a[href="/history/${seeded.olderReport}"])`),
    ).toBeVisible();
    await expectCardOnScreen(
      current,
      {
        verdict: current.getByTestId("stock-run-action"),
        score: current.getByTestId("stock-run-score"),
        price: current.getByTestId("stock-run-price"),
      },
      "run card",
    );
    await finish(page, "report-runs");
  });

  test("backtest: the first call's action, score, close and plan, and the summary figures are on screen", async ({
    page,
  }) => {
    await page.goto(`/backtest?id=${encodeURIComponent(seeded.backtest)}`);
    const call = page.getByTestId("calls-table").locator("tbody tr").first();
    await expect(call).toBeVisible();
    await expectCardOnScreen(
      call,
      {
        action: call.getByTestId("call-action"),
        score: call.getByTestId("call-score"),
        close: call.getByTestId("call-close"),
        "ideal buy": call.getByTestId("call-ideal-buy"),
        stop: call.getByTestId("call-stop-loss"),
        target: call.getByTestId("call-take-profit"),
      },
      "call card",
    );
    await expectCardOnScreen(page.getByTestId("summary-10").locator("tbody tr").first(), {}, "summary card");
    await expectCardOnScreen(page.locator("[data-testid=robust-10] tr[data-group=long_side]"), {}, "robust card");
    await finish(page, "backtest");
  });
});

test.describe("the home page at 390 px", () => {
  test.use({ viewport: PHONE });

  test("the cockpit follows the analyse form; the empty task and report panels wait until they hold something", async ({
    page,
  }) => {
    await page.goto("/");
    await expect(page.getByTestId("cockpit")).toBeVisible();
    await expect(page.getByText("选择一只股票开始分析。")).toBeHidden();
    // The task list shows only when it holds tasks (the stream lists the server's recent ones, e.g. this file's
    // backtest); empty, nothing stands between the form and the cockpit but the form's own controls.
    await expect(page.getByTestId("task-connection")).toHaveAttribute("data-state", "open");
    // Polled: the stream's task list may arrive after the connection opens and show the panel.
    await expect
      .poll(async () => {
        const box = page.getByTestId("task-panel-box");
        const hasTasks = (await page.getByTestId("task-row").count()) > 0;
        if (hasTasks !== (await box.isVisible())) return "task panel shown without tasks, or hidden with tasks";
        const above = await (hasTasks ? box : page.getByRole("form", { name: "分析请求" })).boundingBox();
        const cockpit = await page.getByTestId("cockpit").boundingBox();
        return cockpit!.y - (above!.y + above!.height) < 120 ? "cockpit next" : "a gap before the cockpit";
      })
      .toBe("cockpit next");
    await expectNoHorizontalOverflow(page);
    await screenshot(page, { path: `${SCREENSHOT_DIR}/home-390.png`, fullPage: true });
  });
});

test.describe("at desktop width the lists stay tables", () => {
  test.use({ viewport: DESKTOP });

  test("history: the table shows its header row", async ({ page }) => {
    await page.goto("/history");
    const table = page.getByTestId("history-table");
    await expect(table.locator(`[data-record-id="${seeded.newerReport}"]`)).toBeVisible();
    await expect(table.locator("thead")).toBeVisible();
    await expect(table.getByRole("columnheader", { name: "评分", exact: true })).toBeVisible();
    expect(await table.evaluate((el) => getComputedStyle(el).display)).toBe("table");
  });
});
