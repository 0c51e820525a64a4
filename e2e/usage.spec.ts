import path from "node:path";
import Database from "better-sqlite3";
import { expect, test, type Page } from "@playwright/test";
import {
  expectDarkBackground,
  expectLightBackground,
  expectNav,
  expectNoHorizontalOverflow,
  languageButton,
  mainNav,
  pageTitle,
  screenshot,
  SCREENSHOT_DIR,
  themeButton,
  UI_PAGES,
} from "./fixtures/ui";

// Usage page plus the shell checks every page gets (7.1-7.4). llm_usage rows are written straight
// into the e2e server's database; the numbers the page must show are computed here with Shanghai arithmetic
// (UTC+8 all year). The table is emptied before and after, so the file does not depend on what ran earlier.

const usage = UI_PAGES.find((p) => p.slug === "usage")!;
const H = 3_600_000;
const SH = 8 * H;
const shDay = (ms: number) => new Date(ms + SH).toISOString().slice(0, 10);
const shStart = (day: string) => Date.parse(`${day}T00:00:00Z`) - SH;

interface Row {
  at: number;
  callType: string;
  model: string;
  stockCode: string | null;
  prompt: number;
  completion: number;
  success: boolean;
}

function withDb<T>(work: (db: Database.Database) => T): T {
  const db = new Database(path.join(process.env.E2E_DATA_DIR!, "e2e.db"));
  try {
    return work(db);
  } finally {
    db.close();
  }
}

const clear = () => withDb((db) => db.prepare("DELETE FROM llm_usage").run());

function seed(rows: Row[]): void {
  withDb((db) => {
    const insert = db.prepare(
      `INSERT INTO llm_usage (called_at, call_type, channel, model, stock_code, query_id, prompt_tokens, completion_tokens, total_tokens, duration_ms, success, error)
       VALUES (?, ?, 'e2e', ?, ?, NULL, ?, ?, ?, 900, ?, ?)`,
    );
    db.transaction(() => {
      for (const r of rows) {
        insert.run(
          new Date(r.at).toISOString().replace("Z", "+00:00"),
          r.callType,
          r.model,
          r.stockCode,
          r.prompt,
          r.completion,
          r.prompt + r.completion,
          r.success ? 1 : 0,
          r.success ? null : "timeout",
        );
      }
    })();
  });
}

const n = (value: number) => value.toLocaleString("en-US");
const total = (rows: Row[]) => rows.reduce((s, r) => s + r.prompt + r.completion, 0);

async function expectTotals(page: Page, rows: Row[]): Promise<void> {
  const main = page.getByRole("main");
  await expect(main.getByTestId("usage-total-calls").locator("dd")).toHaveText(n(rows.length));
  await expect(main.getByTestId("usage-total-total").locator("dd")).toHaveText(n(total(rows)));
  await expect(main.getByTestId("usage-total-prompt").locator("dd")).toHaveText(
    n(rows.reduce((s, r) => s + r.prompt, 0)),
  );
  await expect(main.getByTestId("usage-total-completion").locator("dd")).toHaveText(
    n(rows.reduce((s, r) => s + r.completion, 0)),
  );
}

test.beforeAll(clear);
test.afterAll(clear);

test.describe("usage page", () => {
  test("with no recorded calls: zero totals and the empty state explaining that rule-based analyses use no tokens", async ({
    page,
  }) => {
    clear();
    const response = await page.goto("/usage");
    expect(response?.status()).toBe(200);
    await expect(pageTitle(page)).toHaveText(usage.zh);
    const main = page.getByRole("main");
    await expect(
      main.getByRole("navigation", { name: "统计时段" }).getByRole("link", { name: "本月" }),
    ).toHaveAttribute("aria-current", "page");
    await expectTotals(page, []);
    await expect(main.getByTestId("usage-empty")).toContainText("该时段没有大模型调用记录");
    await expect(main.getByTestId("usage-empty")).toContainText("仅使用规则引擎的分析不调用大模型，不消耗 token");
    await expect(main.getByText("近 30 天没有调用记录。")).toBeVisible();
    await expect(main.getByTestId("usage-recent-calls")).toHaveCount(0);
    await expect(main.getByText("即将推出")).toHaveCount(0);
    await screenshot(page, { path: `${SCREENSHOT_DIR}/usage-empty.png`, fullPage: true });
  });

  test("seeded calls: totals per period tab, tokens per day, per model and call type, recent calls newest first", async ({
    page,
  }) => {
    clear();
    const now = Date.now();
    const todayStart = shStart(shDay(now));
    const monthStart = shStart(`${shDay(now).slice(0, 7)}-01`);
    const recent = (ms: number) => Math.max(todayStart, now - ms);
    const rows: Row[] = [
      {
        at: recent(60_000),
        callType: "analysis",
        model: "deepseek-chat",
        stockCode: "600519",
        prompt: 1200,
        completion: 300,
        success: true,
      },
      {
        at: recent(120_000),
        callType: "agent",
        model: "gpt-4o-mini",
        stockCode: null,
        prompt: 2000,
        completion: 500,
        success: true,
      },
      {
        at: recent(180_000),
        callType: "analysis",
        model: "deepseek-chat",
        stockCode: "AAPL",
        prompt: 0,
        completion: 0,
        success: false,
      },
      {
        at: todayStart - 14 * H,
        callType: "analysis",
        model: "deepseek-chat",
        stockCode: "00700",
        prompt: 800,
        completion: 200,
        success: true,
      },
      {
        at: now - 10 * 24 * H,
        callType: "market_review",
        model: "qwen-plus",
        stockCode: null,
        prompt: 300,
        completion: 100,
        success: true,
      },
      {
        at: monthStart - 24 * H,
        callType: "analysis",
        model: "qwen-plus",
        stockCode: "600036",
        prompt: 4000,
        completion: 1000,
        success: true,
      },
    ];
    seed(rows);
    const today = rows.filter((r) => r.at >= todayStart);
    const month = rows.filter((r) => r.at >= monthStart);

    await page.goto("/usage");
    const main = page.getByRole("main");
    const tabs = main.getByRole("navigation", { name: "统计时段" });
    await expectTotals(page, month);
    await expect(main.getByTestId("usage-empty")).toHaveCount(0);
    await expect(main.getByTestId("usage-range")).toContainText(
      `${shDay(monthStart)} 至 ${shDay(now)}（Asia/Shanghai）`,
    );

    // Tokens per day: today's bar holds today's tokens; the chart's total is the last 30 days'.
    const chart = main.getByTestId("usage-daily-chart");
    await expect(chart).toHaveAttribute("role", "img");
    await expect(chart.locator(`[data-date="${shDay(now)}"]`)).toHaveAttribute("data-tokens", String(total(today)));
    await expect(chart.locator("[data-date]")).toHaveCount(30);
    const last30 = rows.filter((r) => r.at >= shStart(shDay(now - 29 * 24 * H)));
    await expect(main.getByTestId("usage-daily-total")).toHaveText(`总 token ${n(total(last30))}`);

    // Per model, largest first, with the largest single call.
    const models = [...new Set(month.map((r) => r.model))]
      .map((model) => ({ model, rows: month.filter((r) => r.model === model) }))
      .sort((a, b) => total(b.rows) - total(a.rows));
    const modelPanel = main.locator("section").filter({ has: page.getByRole("heading", { name: "按模型" }) });
    const modelRows = modelPanel.getByTestId("usage-bar-row");
    await expect(modelRows).toHaveCount(models.length);
    for (const [i, m] of models.entries()) {
      await expect(modelRows.nth(i)).toContainText(m.model);
      await expect(modelRows.nth(i)).toContainText(n(total(m.rows)));
      await expect(modelRows.nth(i)).toContainText(
        `单次最多 ${n(Math.max(...m.rows.map((r) => r.prompt + r.completion)))}`,
      );
    }
    const typePanel = main.locator("section").filter({ has: page.getByRole("heading", { name: "按调用类型" }) });
    await expect(typePanel).toContainText("个股分析");
    await expect(typePanel).toContainText("智能体问答");

    // Recent calls, newest first; the failed call is marked.
    const table = main.getByTestId("usage-recent-calls");
    await expect(table.locator("tbody tr")).toHaveCount(month.length);
    await expect(table.locator("tbody tr").first()).toContainText("deepseek-chat");
    await expect(table.locator("tbody tr").first()).toContainText("600519");
    await expect(table.locator("tbody tr").first()).toContainText("1,500");
    await expect(table.locator("tbody tr").filter({ hasText: "AAPL" })).toContainText("失败");
    await screenshot(page, { path: `${SCREENSHOT_DIR}/usage.png`, fullPage: true });

    await tabs.getByRole("link", { name: "今日" }).click();
    await expect(page).toHaveURL(/\/usage\?period=today$/);
    await expect(tabs.getByRole("link", { name: "今日" })).toHaveAttribute("aria-current", "page");
    await expectTotals(page, today);
    await expect(main.getByTestId("usage-range")).toContainText(`${shDay(now)} 至 ${shDay(now)}`);

    await tabs.getByRole("link", { name: "全部" }).click();
    await expect(page).toHaveURL(/\/usage\?period=all$/);
    await expectTotals(page, rows);
    await expect(main.getByTestId("usage-recent-calls").locator("tbody tr")).toHaveCount(rows.length);
    // From the earliest call: early in a month the call of ten days ago is older than the one a day before the month.
    await expect(main.getByTestId("usage-range")).toContainText(`${shDay(Math.min(...rows.map((r) => r.at)))} 至`);

    // An unknown period in the address falls back to the month view instead of failing.
    await page.goto("/usage?period=week");
    await expect(
      main.getByRole("navigation", { name: "统计时段" }).getByRole("link", { name: "本月" }),
    ).toHaveAttribute("aria-current", "page");
    await expectTotals(page, month);
  });
});

test.describe("usage page shell (7.1-7.4)", () => {
  let monthTotal = 0;
  test.beforeAll(() => {
    clear();
    const now = Date.now();
    const rows: Row[] = [
      {
        at: now - 60_000,
        callType: "analysis",
        model: "deepseek-chat-with-a-rather-long-model-name",
        stockCode: "600519",
        prompt: 12_345,
        completion: 2_345,
        success: true,
      },
      {
        at: now - 3 * 24 * H,
        callType: "agent",
        model: "gpt-4o-mini",
        stockCode: null,
        prompt: 2000,
        completion: 500,
        success: true,
      },
    ];
    seed(rows);
    monthTotal = total(rows.filter((r) => r.at >= shStart(`${shDay(now).slice(0, 7)}-01`)));
  });

  test("7.1 + 7.4: renders in zh-CN with the nav, its highlighted item, its title and the footer", async ({ page }) => {
    const response = await page.goto(usage.path);
    expect(response?.status()).toBe(200);
    await expect(page.locator("html")).toHaveAttribute("lang", "zh-CN");
    await expectNav(page, usage, "zh");
    await expect(pageTitle(page)).toHaveText(usage.zh);
    await expect(page).toHaveTitle(`${usage.zh} · DSA`);
    const footer = page.getByRole("contentinfo");
    await expect(footer).toContainText("不构成投资建议");
    await expect(footer).toContainText(/版本 \d+\.\d+\.\d+/);
  });

  test("7.2: switches to English, and the choice sticks after a reload", async ({ page }) => {
    await page.goto(usage.path);
    await languageButton(page, "en").click();
    await expect(pageTitle(page)).toHaveText(usage.en);
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    await expectNav(page, usage, "en");
    const main = page.getByRole("main");
    await expect(
      main.getByRole("navigation", { name: "Period" }).getByRole("link", { name: "This month" }),
    ).toHaveAttribute("aria-current", "page");
    await expect(main.getByRole("heading", { name: "By model" })).toBeVisible();
    await expect(main.getByTestId("usage-total-total").locator("dd")).toHaveText(n(monthTotal));
    await expect(page).toHaveTitle(`${usage.en} · DSA`);
    await page.reload();
    await expect(pageTitle(page)).toHaveText(usage.en);
    await expect(main.getByRole("heading", { name: "Recent calls" })).toBeVisible();
    await screenshot(page, { path: `${SCREENSHOT_DIR}/usage-en.png`, fullPage: true });
    await languageButton(page, "zh").click();
    await expect(pageTitle(page)).toHaveText(usage.zh);
  });

  test("7.3: follows a dark system theme, and the toggle overrides it", async ({ page }) => {
    await page.emulateMedia({ colorScheme: "dark" });
    await page.goto(usage.path);
    await expectDarkBackground(page);
    await expect(page.getByRole("main").getByTestId("usage-daily-chart")).toBeVisible();
    await screenshot(page, { path: `${SCREENSHOT_DIR}/usage-dark.png`, fullPage: true });
    await themeButton(page, "light").click();
    await expect(page.locator("html")).toHaveClass("light");
    await expectLightBackground(page);
    await themeButton(page, "dark").click();
    await expect(page.locator("html")).toHaveClass("dark");
    await expectDarkBackground(page);
  });

  test("7.1: fits a 390px phone screen without horizontal overflow (the calls table scrolls inside itself)", async ({
    page,
    context,
    baseURL,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(usage.path);
    await expect(pageTitle(page)).toHaveText(usage.zh);
    await expect(page.getByRole("main").getByTestId("usage-recent-calls")).toBeAttached();
    await expectNoHorizontalOverflow(page);
    // On a phone the navigation is the bottom bar; Usage sits in its "more" menu, which opens on screen.
    await mainNav(page, "zh").getByRole("button", { name: "更多" }).click();
    await expect(mainNav(page, "zh").locator('[aria-current="page"]')).toBeInViewport();
    await page.keyboard.press("Escape");
    const tabs = await page.getByRole("main").getByRole("navigation", { name: "统计时段" }).boundingBox();
    expect(tabs!.x + tabs!.width).toBeLessThanOrEqual(390);
    await screenshot(page, { path: `${SCREENSHOT_DIR}/usage-phone.png`, fullPage: true });

    await context.addCookies([
      { name: "dsa_lang", value: "en", url: baseURL! },
      { name: "dsa_theme", value: "dark", url: baseURL! },
    ]);
    await page.reload();
    await expect(pageTitle(page)).toHaveText(usage.en);
    await expectDarkBackground(page);
    await expectNoHorizontalOverflow(page);
    await screenshot(page, { path: `${SCREENSHOT_DIR}/usage-phone-en-dark.png`, fullPage: true });
  });
});
