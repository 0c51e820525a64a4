import path from "node:path";
import Database from "better-sqlite3";
import { expect, test, type APIRequestContext, type Locator, type Page } from "@playwright/test";
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

// The Signals page. The server runs on sample data (its env file); signals are made through the
// API: one sync analysis gives a history record to link to, then POST /api/v1/decision-signals creates the signals
// (the analysis's own automatic signal is removed first, because the sample data's call for a stock changes from
// day to day). Four signals are created with the signal clock moved 35 days back (SIGNAL_CLOCK_OFFSET_SECONDS, set
// through the config API, which applies it at once), so their 1–10 day outcome windows have closed and the outcome
// run has numbers to show; two are created now.

const signalsPage = UI_PAGES.find((p) => p.slug === "signals")!;
const DAY = 86_400_000;
const SH = 8 * 3_600_000;
const shDay = (ms: number) => new Date(ms + SH).toISOString().slice(0, 10);

interface SignalItem {
  id: number;
  stock_code: string;
  action: string;
  status: string;
  source_report_id: number | null;
  entry_low: number | null;
  entry_high: number | null;
  stop_loss: number | null;
  target_price: number | null;
  created_at: string;
}

interface Seeded {
  report: number;
  pingan: SignalItem; // 000001 buy, 35 days old, swing
  apple: SignalItem; // AAPL sell, 35 days old, swing
  tencent: SignalItem; // 00700 hold, 35 days old, 10d → expired by now
  ping: SignalItem; // 601318 add, 35 days old, long
  moutai: SignalItem; // 600519 buy, now, linked to the analysis record
  tesla: SignalItem; // TSLA watch, now (non-directional: outcomes unable)
}

interface Stats {
  total: number;
  hit_rate_pct: number | null;
  avg_stock_return_pct: number | null;
  breakdowns: { horizon: { value: string; hit_rate_pct: number | null; avg_stock_return_pct: number | null }[] };
  by_horizon_action: { horizon: string; action: string; hit_rate_pct: number | null }[];
}

interface Outcome {
  horizon: string;
  eval_status: string;
  stock_return_pct: number | null;
}

function withDb<T>(work: (db: Database.Database) => T): T {
  const db = new Database(path.join(process.env.E2E_DATA_DIR!, "e2e.db"));
  db.pragma("busy_timeout = 5000");
  try {
    return work(db);
  } finally {
    db.close();
  }
}

const clearSignals = () =>
  withDb((db) => {
    db.prepare("DELETE FROM decision_signal_feedback").run();
    db.prepare("DELETE FROM decision_signal_outcome").run();
    db.prepare("DELETE FROM decision_signal").run();
  });

/** Moves the decision-signal clock by `seconds` (0: back to the real clock); the config API applies it at once. */
async function setSignalClockOffset(request: APIRequestContext, seconds: number): Promise<void> {
  const current = (await (await request.get("/api/v1/system/config?include_schema=false")).json()) as {
    config_version: string;
  };
  const res = await request.put("/api/v1/system/config", {
    data: {
      config_version: current.config_version,
      items: [{ key: "SIGNAL_CLOCK_OFFSET_SECONDS", value: String(seconds) }],
    },
  });
  expect(res.status(), await res.text()).toBe(200);
}

async function createSignal(request: APIRequestContext, fields: Record<string, unknown>): Promise<SignalItem> {
  const res = await request.post("/api/v1/decision-signals", {
    data: { source_type: "manual", trigger_source: "e2e-signals", ...fields },
  });
  expect(res.status(), await res.text()).toBe(200);
  const body = (await res.json()) as { item: SignalItem; created: boolean };
  expect(body.created).toBe(true);
  return body.item;
}

async function getSignal(request: APIRequestContext, id: number): Promise<SignalItem> {
  const res = await request.get(`/api/v1/decision-signals/${id}`);
  expect(res.status()).toBe(200);
  return (await res.json()) as SignalItem;
}

async function stats(request: APIRequestContext): Promise<Stats> {
  return (await (await request.get("/api/v1/decision-signals/outcomes/stats")).json()) as Stats;
}

async function seed(request: APIRequestContext): Promise<Seeded> {
  const analysis = await request.post("/api/v1/analysis/analyze", {
    data: { stock_code: "600519", report_type: "brief", async_mode: false },
  });
  expect(analysis.status(), "sync analysis of 600519").toBe(200);
  const report = ((await analysis.json()) as { report: { meta: { id: number; current_price: number } } }).report.meta;
  clearSignals();

  await setSignalClockOffset(request, -35 * 86_400);
  let pingan: SignalItem, apple: SignalItem, tencent: SignalItem, ping: SignalItem;
  try {
    pingan = await createSignal(request, {
      stock_code: "000001",
      stock_name: "平安银行",
      market: "cn",
      action: "buy",
      horizon: "swing",
      score: 72,
      confidence: 0.68,
      entry_low: 10.8,
      entry_high: 11.2,
      stop_loss: 10.2,
      target_price: 12.5,
      reason: "放量突破20日均线，均线多头排列。",
    });
    apple = await createSignal(request, {
      stock_code: "AAPL",
      stock_name: "Apple",
      market: "us",
      action: "sell",
      horizon: "swing",
      score: 31,
      entry_low: 228,
      entry_high: 232,
      stop_loss: 240,
      target_price: 210,
    });
    tencent = await createSignal(request, {
      stock_code: "00700",
      stock_name: "腾讯控股",
      market: "hk",
      action: "hold",
      horizon: "10d",
      score: 55,
    });
    ping = await createSignal(request, {
      stock_code: "601318",
      stock_name: "中国平安",
      market: "cn",
      action: "add",
      horizon: "long",
      score: 66,
      stop_loss: 40,
      target_price: 60,
    });
  } finally {
    await setSignalClockOffset(request, 0);
  }
  const price = report.current_price;
  const moutai = await createSignal(request, {
    stock_code: "600519",
    stock_name: "贵州茅台",
    market: "cn",
    source_type: "analysis",
    source_report_id: report.id,
    trigger_source: "analysis",
    action: "buy",
    horizon: "5d",
    score: 64,
    confidence: 0.6,
    entry_low: +(price * 0.98).toFixed(2),
    entry_high: +(price * 1.0).toFixed(2),
    stop_loss: +(price * 0.94).toFixed(2),
    target_price: +(price * 1.1).toFixed(2),
    reason: "回踩支撑后企稳。",
    risk_summary: "消费板块整体承压。",
  });
  const tesla = await createSignal(request, {
    stock_code: "TSLA",
    stock_name: "Tesla",
    market: "us",
    action: "watch",
    horizon: "3d",
  });
  return { report: report.id, pingan, apple, tencent, ping, moutai, tesla };
}

const rows = (page: Page) => page.getByTestId("signal-row");
const rowOf = (page: Page, id: number) => page.locator(`[data-testid="signal-row"][data-signal-id="${id}"]`);
const filterForm = (page: Page) => page.getByRole("search", { name: "筛选信号" });
const drawer = (page: Page) => page.getByTestId("signal-drawer");

async function expectSignalIds(page: Page, ids: number[]): Promise<void> {
  await expect(rows(page)).toHaveCount(ids.length);
  expect(await rows(page).evaluateAll((els) => els.map((el) => Number(el.getAttribute("data-signal-id"))))).toEqual(
    ids,
  );
}

async function openDrawer(page: Page, id: number): Promise<Locator> {
  await rowOf(page, id)
    .getByRole("link", { name: new RegExp(`^查看信号 #${id}`) })
    .click();
  await expect(page).toHaveURL(new RegExp(`[?&]signal=${id}(&|$)`));
  await expect(drawer(page)).toBeVisible();
  return drawer(page);
}

const pct1 = (v: number | null) => (v === null ? "—" : `${v.toFixed(1)}%`);
const signed2 = (v: number | null) => (v === null ? "—" : `${v > 0 ? "+" : ""}${v.toFixed(2)}%`);

let originalEnv: string | null = null;
let seeded: Seeded;

test.beforeAll(async ({ request }) => {
  originalEnv = readEnvText();
  await applySettings(request, { MARKET_DATA_SOURCES: "sample" });
  seeded = await seed(request);
});
test.afterAll(() => {
  restoreEnvText(originalEnv);
  clearSignals();
});

describeUiPage(signalsPage, { built: true });

test.describe("the Signals list", () => {
  test("lists every signal newest first with status badges, the plan and the report link; the filters narrow it", async ({
    page,
    request,
  }) => {
    const s = seeded;
    const response = await page.goto("/signals");
    expect(response?.status()).toBe(200);
    await expect(pageTitle(page)).toHaveText(signalsPage.zh);
    await expect(page.getByTestId("signals-total")).toHaveText("共 6 条");
    await expectSignalIds(page, [s.tesla.id, s.moutai.id, s.ping.id, s.tencent.id, s.apple.id, s.pingan.id]);
    // Lazy expiry: the 10-day hold given 35 days ago reads as expired.
    await expect(rowOf(page, s.tencent.id).getByTestId("signal-status")).toHaveText("已过期");
    expect((await getSignal(request, s.tencent.id)).status).toBe("expired");
    await expect(rowOf(page, s.pingan.id).getByTestId("signal-status")).toHaveText("有效");
    await expect(rowOf(page, s.pingan.id)).toContainText("平安银行");
    await expect(rowOf(page, s.pingan.id)).toContainText("买入");
    await expect(rowOf(page, s.pingan.id)).toContainText("10.80–11.20");
    await expect(rowOf(page, s.pingan.id)).toContainText("12.50");
    await expect(rowOf(page, s.moutai.id).getByRole("link", { name: `分析 #${s.report}` })).toHaveAttribute(
      "href",
      `/history/${s.report}`,
    );
    await screenshot(page, { path: `${SCREENSHOT_DIR}/signals-list.png`, fullPage: true });

    // Market, then stock (any spelling of the code) and action, through the form.
    await filterForm(page).getByLabel("市场").selectOption("us");
    await filterForm(page).getByRole("button", { name: "筛选" }).click();
    await expect(page).toHaveURL(/\/signals\?market=us/);
    await expectSignalIds(page, [s.tesla.id, s.apple.id]);
    await filterForm(page).getByLabel("市场").selectOption("");
    await filterForm(page).getByLabel("股票代码").fill("600519.SH");
    await filterForm(page).getByLabel("操作").selectOption("buy");
    await filterForm(page).getByRole("button", { name: "筛选" }).click();
    await expect(page).toHaveURL(/stock_code=600519\.SH&action=buy/);
    await expectSignalIds(page, [s.moutai.id]);

    await page.goto("/signals?action=buy");
    await expectSignalIds(page, [s.moutai.id, s.pingan.id]);
    await page.goto("/signals?status=expired");
    await expect(filterForm(page).getByLabel("状态")).toHaveValue("expired");
    await expectSignalIds(page, [s.tencent.id]);

    // Created dates are days in Asia/Shanghai: today holds the two new signals, a month ago the four old ones.
    await page.goto("/signals");
    await filterForm(page).getByLabel("创建起始日").fill(shDay(Date.now()));
    await filterForm(page).getByRole("button", { name: "筛选" }).click();
    await expectSignalIds(page, [s.tesla.id, s.moutai.id]);
    await page.goto(`/signals?created_to=${shDay(Date.now() - 30 * DAY)}`);
    await expectSignalIds(page, [s.ping.id, s.tencent.id, s.apple.id, s.pingan.id]);
    await page.goto(`/signals?created_from=${shDay(Date.now() + DAY)}`);
    await expect(page.getByTestId("signals-empty")).toContainText("没有符合条件的信号");
    await page.getByTestId("signals-empty").getByRole("link", { name: "清除筛选" }).click();
    await expect(page).toHaveURL(/\/signals$/);
    await expect(rows(page)).toHaveCount(6);

    // A filter the API refuses is named and ignored.
    await page.goto("/signals?market=jp&action=sell");
    await expect(page.getByRole("main").getByRole("alert")).toContainText("market");
    await expectSignalIds(page, [s.apple.id]);
  });

  test("holdings only keeps the stocks held in an active portfolio account (cached positions)", async ({ page }) => {
    const s = seeded;
    await page.goto("/signals?holding_only=true");
    await expect(filterForm(page).getByLabel("仅看持仓")).toBeChecked();
    await expect(page.getByTestId("signals-empty")).toBeVisible();

    // One held position of 000001, written the way the portfolio code caches it.
    const accountId = withDb((db) => {
      const targetKey = (
        db.prepare("SELECT target_key FROM decision_signal WHERE id = ?").get(s.pingan.id) as { target_key: string }
      ).target_key;
      const now = new Date().toISOString();
      const account = Number(
        db
          .prepare(
            "INSERT INTO portfolio_account (name, market, currency, active, created_at) VALUES ('e2e 信号', 'cn', 'CNY', 1, ?)",
          )
          .run(now).lastInsertRowid,
      );
      db.prepare(
        "INSERT INTO portfolio_position (account_id, market, stock_code, target_key, quantity, avg_cost, updated_at) VALUES (?, 'cn', '000001', ?, 1000, 10.5, ?)",
      ).run(account, targetKey, now);
      return account;
    });
    try {
      await page.goto("/signals");
      await filterForm(page).getByLabel("仅看持仓").check();
      await filterForm(page).getByRole("button", { name: "筛选" }).click();
      await expect(page).toHaveURL(/holding_only=true/);
      await expectSignalIds(page, [s.pingan.id]);
    } finally {
      withDb((db) => db.prepare("DELETE FROM portfolio_account WHERE id = ?").run(accountId));
    }
  });

  test("pages through the signals with links that keep the filters", async ({ page }) => {
    const s = seeded;
    await page.goto("/signals?page_size=2");
    const pager = page.getByRole("navigation", { name: "分页" });
    await expect(pager).toContainText("第 1 / 3 页");
    await expectSignalIds(page, [s.tesla.id, s.moutai.id]);
    await pager.getByRole("link", { name: "下一页" }).click();
    await expect(page).toHaveURL(/\/signals\?page=2&page_size=2$/);
    await expectSignalIds(page, [s.ping.id, s.tencent.id]);
    await page.goto("/signals?market=cn&page_size=1&page=2");
    await expectSignalIds(page, [s.ping.id]);
    await page.getByRole("navigation", { name: "分页" }).getByRole("link", { name: "上一页" }).click();
    await expect(page).toHaveURL(/\/signals\?market=cn&page_size=1$/);
    await expectSignalIds(page, [s.moutai.id]);
  });
});

test.describe("the signal drawer", () => {
  test("shows the price plan and the linked report; feedback is saved through the API and shown again after a reload", async ({
    page,
    request,
  }) => {
    const s = (seeded = await seed(request));
    await page.goto("/signals?market=cn");
    const d = await openDrawer(page, s.moutai.id);
    await expect(page).toHaveURL(new RegExp(`/signals\\?market=cn&signal=${s.moutai.id}$`));
    await expect(d.getByRole("heading", { level: 2 })).toContainText("贵州茅台");
    await expect(d).toContainText(`信号 #${s.moutai.id}`);
    await expect(d.getByTestId("plan-entry").locator("dd")).toHaveText(
      `${s.moutai.entry_low!.toFixed(2)}–${s.moutai.entry_high!.toFixed(2)}`,
    );
    await expect(d.getByTestId("plan-stop").locator("dd")).toHaveText(s.moutai.stop_loss!.toFixed(2));
    await expect(d.getByTestId("plan-target").locator("dd")).toHaveText(s.moutai.target_price!.toFixed(2));
    await expect(d).toContainText("回踩支撑后企稳。");
    await expect(d.getByRole("link", { name: `查看来源报告 #${s.report}` })).toHaveAttribute(
      "href",
      `/history/${s.report}`,
    );
    await expect(d.getByTestId("signal-outcomes-empty")).toBeVisible();

    // Feedback: none yet; "useful" is stored (source web) and still shown after a reload; "not useful" replaces it.
    expect(
      (
        (await (await request.get(`/api/v1/decision-signals/${s.moutai.id}/feedback`)).json()) as {
          feedback_value: string | null;
        }
      ).feedback_value,
    ).toBeNull();
    await expect(d.getByTestId("signal-feedback")).toContainText("尚未反馈");
    await d.getByRole("button", { name: "有用", exact: true }).click();
    await expect(d.getByRole("status").filter({ hasText: "已保存反馈：有用" })).toBeVisible();
    await expect(d.getByRole("button", { name: "有用", exact: true })).toHaveAttribute("aria-pressed", "true");
    const useful = (await (await request.get(`/api/v1/decision-signals/${s.moutai.id}/feedback`)).json()) as {
      feedback_value: string;
      source: string;
    };
    expect(useful).toMatchObject({ feedback_value: "useful", source: "web" });
    await screenshot(page, { path: `${SCREENSHOT_DIR}/signals-drawer.png` });

    await page.reload();
    await expect(drawer(page).getByRole("button", { name: "有用", exact: true })).toHaveAttribute(
      "aria-pressed",
      "true",
    );
    await expect(drawer(page).getByRole("button", { name: "没用", exact: true })).toHaveAttribute(
      "aria-pressed",
      "false",
    );
    await drawer(page).getByRole("button", { name: "没用", exact: true }).click();
    await expect(drawer(page).getByRole("button", { name: "没用", exact: true })).toHaveAttribute(
      "aria-pressed",
      "true",
    );
    await expect
      .poll(
        async () =>
          (
            (await (await request.get(`/api/v1/decision-signals/${s.moutai.id}/feedback`)).json()) as {
              feedback_value: string;
            }
          ).feedback_value,
      )
      .toBe("not_useful");

    // Escape closes the drawer and keeps the filters; the report link opens the history record.
    await page.keyboard.press("Escape");
    await expect(drawer(page)).toHaveCount(0);
    await expect(page).toHaveURL(/\/signals\?market=cn$/);
    await openDrawer(page, s.moutai.id);
    await drawer(page)
      .getByRole("link", { name: `查看来源报告 #${s.report}` })
      .click();
    await expect(page).toHaveURL(new RegExp(`/history/${s.report}$`));
    await expect(pageTitle(page)).toContainText("贵州茅台");

    const missing = await page.goto("/signals?signal=999999");
    expect(missing?.status()).toBe(200);
    await expect(drawer(page).getByRole("alert")).toContainText("信号 #999999 不存在");
  });

  test("status changes: an active signal can be closed after confirming, then only archived", async ({
    page,
    request,
  }) => {
    const s = (seeded = await seed(request));
    await page.goto("/signals");
    let d = await openDrawer(page, s.ping.id);
    await expect(d.getByRole("button", { name: "关闭信号" })).toBeVisible();
    await expect(d.getByRole("button", { name: "标记失效" })).toBeVisible();
    await d.getByRole("button", { name: "关闭信号" }).click();
    const confirm = page.getByRole("dialog", { name: `将信号 #${s.ping.id} 设为「已关闭」？` });
    await expect(confirm).toBeVisible();
    await confirm.getByRole("button", { name: "取消" }).click();
    await expect(confirm).toBeHidden();
    expect((await getSignal(request, s.ping.id)).status).toBe("active");

    await d.getByRole("button", { name: "关闭信号" }).click();
    await confirm.getByRole("button", { name: "确定" }).click();
    await expect(confirm).toBeHidden();
    await expect(d.getByRole("status").filter({ hasText: "状态已改为「已关闭」。" })).toBeVisible();
    await expect(d.getByTestId("signal-status")).toHaveText("已关闭");
    await expect(rowOf(page, s.ping.id).getByTestId("signal-status")).toHaveText("已关闭");
    expect((await getSignal(request, s.ping.id)).status).toBe("closed");
    // Terminal: no way back to active, only archiving.
    await expect(d.getByRole("button", { name: "关闭信号" })).toHaveCount(0);
    await expect(d.getByRole("button", { name: "归档" })).toBeVisible();
    await screenshot(page, { path: `${SCREENSHOT_DIR}/signals-status.png` });

    // The expired hold can be archived; then no status action is left.
    await page.keyboard.press("Escape");
    d = await openDrawer(page, s.tencent.id);
    await d.getByRole("button", { name: "归档" }).click();
    await page
      .getByRole("dialog", { name: `将信号 #${s.tencent.id} 设为「已归档」？` })
      .getByRole("button", { name: "确定" })
      .click();
    await expect(d.getByTestId("signal-status")).toHaveText("已归档");
    await expect(d).toContainText("归档的信号没有可用的状态操作。");
    expect((await getSignal(request, s.tencent.id)).status).toBe("archived");
  });
});

test.describe("outcomes and statistics", () => {
  test("the run button evaluates the outcomes; the stats panel charts hit rate and average return per horizon and action", async ({
    page,
    request,
  }) => {
    const s = (seeded = await seed(request));
    await page.goto("/signals");
    await expect(page.getByTestId("signal-stats-empty")).toBeVisible();
    await page.getByRole("button", { name: "运行结果评估" }).click();
    await expect(page.getByTestId("outcome-run-status")).toContainText(/已评估 \d+ 项：新增 \d+，更新 0，跳过 0。/);
    await expect(page.getByTestId("signal-stats-empty")).toHaveCount(0);

    const api = await stats(request);
    expect(api.total, "six signals, four horizons each").toBe(24);
    expect(api.hit_rate_pct).not.toBeNull();
    await expect(page.getByTestId("stats-total").locator("dd")).toHaveText(String(api.total));
    await expect(page.getByTestId("stats-hit-rate").locator("dd")).toHaveText(pct1(api.hit_rate_pct));
    await expect(page.getByTestId("stats-avg-return").locator("dd")).toHaveText(signed2(api.avg_stock_return_pct));
    const hitChart = page.getByTestId("chart-hit-rate");
    await expect(hitChart.locator("[data-horizon]")).toHaveCount(4);
    for (const b of api.breakdowns.horizon) {
      await expect(hitChart.locator(`[data-horizon="${b.value}"]`)).toHaveAttribute(
        "data-value",
        b.hit_rate_pct === null ? "" : String(b.hit_rate_pct),
      );
      await expect(hitChart.locator(`[data-horizon="${b.value}"]`)).toContainText(pct1(b.hit_rate_pct));
      await expect(page.getByTestId("chart-avg-return").locator(`[data-horizon="${b.value}"]`)).toContainText(
        signed2(b.avg_stock_return_pct),
      );
    }
    const cells = page.getByTestId("stats-cell");
    await expect(cells).toHaveCount(api.by_horizon_action.length);
    for (const c of api.by_horizon_action) {
      await expect(
        page
          .locator(`[data-testid="stats-cell"][data-horizon="${c.horizon}"][data-action="${c.action}"]`)
          .getByTestId("cell-hit-rate"),
      ).toHaveText(pct1(c.hit_rate_pct));
    }
    await page.getByTestId("signal-stats").scrollIntoViewIfNeeded();
    await screenshot(page, { path: `${SCREENSHOT_DIR}/signals-stats.png`, fullPage: true });

    // The drawer of a 35-day-old signal shows its four horizons, as the API has them.
    const outcomes = (
      (await (await request.get(`/api/v1/decision-signals/${s.pingan.id}/outcomes`)).json()) as { items: Outcome[] }
    ).items;
    expect(outcomes.map((o) => o.horizon)).toEqual(["1d", "3d", "5d", "10d"]);
    expect(outcomes.every((o) => o.eval_status === "completed")).toBe(true);
    const d = await openDrawer(page, s.pingan.id);
    await expect(d.getByTestId("signal-outcome")).toHaveCount(4);
    for (const o of outcomes) {
      const row = d.locator(`[data-testid="signal-outcome"][data-horizon="${o.horizon}"]`);
      await expect(row.getByTestId("outcome-return")).toHaveText(signed2(o.stock_return_pct));
      await expect(row.getByTestId("outcome-result")).toHaveText(/^(命中|未命中|中性)$/);
    }
    // A non-directional watch cannot be evaluated, and says why.
    await page.keyboard.press("Escape");
    const w = await openDrawer(page, s.tesla.id);
    await expect(w.getByTestId("signal-outcome").first().getByTestId("outcome-result")).toHaveText(
      "无法评估 · 非方向性操作",
    );
    await screenshot(page, { path: `${SCREENSHOT_DIR}/signals-outcomes.png` });

    // A second run skips what is final and says so.
    await page.keyboard.press("Escape");
    await page.getByRole("button", { name: "运行结果评估" }).click();
    await expect(page.getByTestId("outcome-run-status")).toContainText(/，跳过 [1-9]\d*。/);

    // Archiving a signal takes its rows out of the statistics (they count every status but archived).
    const patched = await request.patch(`/api/v1/decision-signals/${s.apple.id}/status`, {
      data: { status: "archived" },
    });
    expect(patched.status()).toBe(200);
    await page.reload();
    expect((await stats(request)).total).toBe(20);
    await expect(page.getByTestId("stats-total").locator("dd")).toHaveText("20");
  });
});

test.describe("phone width and dark mode", () => {
  test("the list and the drawer fit a 390px phone, and render in dark mode and English", async ({
    page,
    context,
    baseURL,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/signals");
    await expect(rows(page)).not.toHaveCount(0);
    await expectNoHorizontalOverflow(page);
    await screenshot(page, { path: `${SCREENSHOT_DIR}/signals-list-phone.png`, fullPage: true });
    const d = await openDrawer(page, seeded.pingan.id);
    const box = await d.boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    await expectNoHorizontalOverflow(page);
    await screenshot(page, { path: `${SCREENSHOT_DIR}/signals-drawer-phone.png` });

    await context.addCookies([
      { name: "dsa_lang", value: "en", url: baseURL! },
      { name: "dsa_theme", value: "dark", url: baseURL! },
    ]);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto("/signals");
    await expectDarkBackground(page);
    await expect(pageTitle(page)).toHaveText(signalsPage.en);
    await expect(page.getByRole("search", { name: "Filter signals" })).toBeVisible();
    await screenshot(page, { path: `${SCREENSHOT_DIR}/signals-dark.png`, fullPage: true });
    await page.getByRole("link", { name: new RegExp(`^Open signal #${seeded.pingan.id}`) }).click();
    await expect(drawer(page).getByRole("heading", { name: "Price plan" })).toBeVisible();
    await expect(drawer(page).getByRole("button", { name: "Useful", exact: true })).toBeVisible();
    await screenshot(page, { path: `${SCREENSHOT_DIR}/signals-drawer-dark.png` });
  });
});

test.describe("one active signal per stock and side", () => {
  test("a stock analysed three times has one active signal; the two before it are kept as invalidated", async ({
    page,
    request,
  }) => {
    const analyse = async (code: string) => {
      const res = await request.post("/api/v1/analysis/analyze", {
        data: { stock_code: code, report_type: "brief", async_mode: false },
      });
      expect(res.status(), code).toBe(200);
      return ((await res.json()) as { report: { summary: { action: string | null } } }).report.summary.action;
    };
    // A sample stock the seed left alone whose analysis today is a directional call (which makes a signal).
    let code: string | null = null;
    for (const candidate of ["300750", "000858", "TSLA", "NVDA", "MSFT", "09988"]) {
      const action = await analyse(candidate);
      if (action !== null && action !== "watch" && action !== "alert") {
        code = candidate;
        break;
      }
    }
    expect(code, "no sample stock made a directional call today").not.toBeNull();
    await analyse(code!);
    await analyse(code!);
    try {
      await page.goto(`/signals?stock_code=${code}&status=active`);
      await expect(rows(page)).toHaveCount(1);
      await expect(rows(page).getByTestId("signal-status")).toHaveText("有效");
      await page.goto(`/signals?stock_code=${code}&status=invalidated`);
      await expect(rows(page)).toHaveCount(2);
      await expect(rows(page).getByTestId("signal-status")).toHaveText(["已失效", "已失效"]);
    } finally {
      withDb((db) => db.prepare("DELETE FROM decision_signal WHERE stock_code = ?").run(code));
    }
  });
});
