import fs from "node:fs";
import path from "node:path";
import { expect, test, type APIRequestContext, type Locator, type Page } from "@playwright/test";
import { en } from "../lib/i18n/dictionaries/en";
import { zhCN } from "../lib/i18n/dictionaries/zh-CN";
import { markSeededRows, withE2eDb } from "./fixtures/e2e-db";
import { applySettings, readEnvText, restoreEnvText } from "./fixtures/env-file";
import { pageTitle, screenshot, SCREENSHOT_DIR } from "./fixtures/ui";

// Everything outside a report's body speaks the UI language, whatever language the report was written in: stock
// names come from the symbol tables (AAPL is 苹果 / Apple, NVDA 英伟达 / NVIDIA), verdicts and statuses from the
// dictionary by their codes, chat strategies by their name in that language, CSV upload errors from the API's reason
// codes and run-flow steps by their stage keys. The server runs on sample data; records are made through the API:
// AAPL analysed once in English and then in Chinese (the Chinese record is the stock's latest), and two manual
// signals that store the name of the other language (AAPL as 苹果, NVDA as NVIDIA).

interface Made {
  id: number;
  action: string | null;
}

interface Seeded {
  enReport: Made;
  zhReport: Made;
  appleSignal: number;
  nvidiaSignal: number;
}

let originalEnv: string | null = null;
let seeded: Seeded;

const clearRecords = () =>
  withE2eDb((db) => {
    db.prepare("DELETE FROM decision_signal_feedback").run();
    db.prepare("DELETE FROM decision_signal_outcome").run();
    db.prepare("DELETE FROM decision_signal").run();
    db.prepare("DELETE FROM analysis_news").run();
    db.prepare("DELETE FROM analysis_history").run();
  });

async function analyze(request: APIRequestContext, code: string, language: "zh" | "en"): Promise<Made> {
  const res = await request.post("/api/v1/analysis/analyze", {
    data: { stock_code: code, async_mode: false, notify: false, report_language: language },
  });
  expect(res.status(), `analyze ${code} in ${language}`).toBe(200);
  const { report } = (await res.json()) as { report: { meta: { id: number }; summary: { action: string | null } } };
  return { id: report.meta.id, action: report.summary.action };
}

async function createSignal(request: APIRequestContext, fields: Record<string, unknown>): Promise<number> {
  const res = await request.post("/api/v1/decision-signals", {
    data: { source_type: "manual", trigger_source: "e2e-ui-language", horizon: "swing", ...fields },
  });
  expect(res.status(), await res.text()).toBe(200);
  const body = (await res.json()) as { item: { id: number }; created: boolean };
  expect(body.created).toBe(true);
  return body.item.id;
}

async function seed(request: APIRequestContext): Promise<Seeded> {
  clearRecords();
  const enReport = await analyze(request, "AAPL", "en");
  const zhReport = await analyze(request, "AAPL", "zh");
  // The analyses' own signals (when their call is directional) are dropped: the two below are the only ones.
  withE2eDb((db) => db.prepare("DELETE FROM decision_signal").run());
  const appleSignal = await createSignal(request, {
    stock_code: "AAPL",
    stock_name: "苹果",
    market: "us",
    action: "buy",
  });
  const nvidiaSignal = await createSignal(request, {
    stock_code: "NVDA",
    stock_name: "NVIDIA",
    market: "us",
    action: "sell",
  });
  return { enReport, zhReport, appleSignal, nvidiaSignal };
}

test.beforeAll(async ({ request }) => {
  test.setTimeout(90_000);
  originalEnv = readEnvText();
  await applySettings(request, { MARKET_DATA_SOURCES: "sample" });
  seeded = await seed(request);
});
test.afterAll(() => {
  restoreEnvText(originalEnv);
  clearRecords();
});

const historyRow = (page: Page, id: number) => page.locator(`[data-testid="history-row"][data-record-id="${id}"]`);
const signalRow = (page: Page, id: number) => page.locator(`[data-testid="signal-row"][data-signal-id="${id}"]`);
const sidebarStock = (page: Page, code: string) => page.locator(`[data-testid="history-stock"][data-code="${code}"]`);

/** The stock name a history row links to (the summary beside it is report text, in the report's language). */
const rowName = (row: Locator) => row.getByRole("link").first();

async function expectVerdict(row: Locator, labels: Readonly<Record<string, string>>, made: Made): Promise<void> {
  const badge = row.getByTestId("record-action");
  if (made.action === null) return;
  await expect(badge).toHaveAttribute("data-action", made.action);
  await expect(badge).toHaveText(labels[made.action]!);
}

test.describe("the English UI", () => {
  test.use({ locale: "en-US", extraHTTPHeaders: { "Accept-Language": "en-US,en;q=0.9" } });

  test("names a US stock in English in History and Signals, with a Chinese report's verdict in English", async ({
    page,
  }) => {
    const s = seeded;
    await page.goto("/history");
    await expect(page.locator("html")).toHaveAttribute("lang", /^en/);
    for (const made of [s.zhReport, s.enReport]) {
      const row = historyRow(page, made.id);
      await expect(rowName(row)).toHaveText(/^Apple\b/);
      await expectVerdict(row, en.historyUi.actions, made);
    }
    await expect(sidebarStock(page, "AAPL")).toContainText("Apple");
    await expect(sidebarStock(page, "AAPL")).not.toContainText("苹果");
    await screenshot(page, { path: `${SCREENSHOT_DIR}/ui-language-en-history.png`, fullPage: true });

    // The Chinese report's page: its title in English, the report body still Chinese.
    await page.goto(`/history/${s.zhReport.id}`);
    await expect(pageTitle(page)).toContainText("Apple");
    await expect(pageTitle(page)).not.toContainText("苹果");

    await page.goto("/signals");
    const apple = signalRow(page, s.appleSignal);
    await expect(rowName(apple)).toHaveText(/^Apple\b/);
    await expect(apple.getByTestId("signal-status")).toHaveText(en.signalsUi.statuses.active);
    await expect(apple.getByTestId("signal-action")).toHaveText(en.signalsUi.actions.buy);
    await expect(rowName(signalRow(page, s.nvidiaSignal))).toHaveText(/^NVIDIA\b/);
    await screenshot(page, { path: `${SCREENSHOT_DIR}/ui-language-en-signals.png`, fullPage: true });
  });

  test("the chat's strategies are named in English", async ({ page, request }) => {
    const skills = (await (await request.get("/api/v1/agent/skills")).json()) as {
      skills: { id: string; name: string }[];
      default_skill_id: string;
    };
    const chineseName = skills.skills.find((skill) => skill.id === skills.default_skill_id)!.name;
    await page.goto("/chat");
    const button = page.getByTestId("chat-strategy-button");
    await expect(button).toHaveText(/^Strategies: [A-Za-z]/);
    await expect(button).not.toContainText(chineseName);
    await button.click();
    await expect(page.getByTestId("chat-strategy-picker")).not.toContainText(chineseName);
    await screenshot(page, { path: `${SCREENSHOT_DIR}/ui-language-en-chat.png`, fullPage: true });
  });
});

test.describe("the Chinese UI", () => {
  test("names a US stock in Chinese in History and Signals, with an English report's verdict in Chinese", async ({
    page,
  }) => {
    const s = seeded;
    await page.goto("/history");
    for (const made of [s.enReport, s.zhReport]) {
      const row = historyRow(page, made.id);
      await expect(rowName(row)).toHaveText("苹果");
      await expectVerdict(row, zhCN.historyUi.actions, made);
    }
    await expect(sidebarStock(page, "AAPL")).toContainText("苹果");
    await screenshot(page, { path: `${SCREENSHOT_DIR}/ui-language-zh-history.png`, fullPage: true });

    await page.goto("/signals");
    const nvidia = signalRow(page, s.nvidiaSignal);
    await expect(rowName(nvidia)).toHaveText("英伟达");
    await expect(nvidia.getByTestId("signal-status")).toHaveText(zhCN.signalsUi.statuses.active);
    await expect(nvidia.getByTestId("signal-action")).toHaveText(zhCN.signalsUi.actions.sell);
    await expect(rowName(signalRow(page, s.appleSignal))).toHaveText("苹果");
    await screenshot(page, { path: `${SCREENSHOT_DIR}/ui-language-zh-signals.png`, fullPage: true });
  });

  test("an English report's page: Chinese title and run-flow steps", async ({ page }) => {
    await page.goto(`/history/${seeded.enReport.id}`);
    await expect(pageTitle(page)).toContainText("苹果");
    await page.getByTestId("run-details").locator("summary").click();
    const steps = page.getByTestId("flow-steps");
    await expect(steps).toContainText(zhCN.historyUi.flowNodes.daily_bars);
    await expect(steps).not.toContainText("Daily bars");
    await screenshot(page, { path: `${SCREENSHOT_DIR}/ui-language-zh-report.png`, fullPage: true });
  });

  test("the chat's /signals answer names the stocks and statuses in Chinese", async ({ page }) => {
    await page.goto("/chat");
    const input = page.getByRole("textbox", { name: "问题或命令" });
    await input.fill("/signals");
    await input.press("Enter");
    const answer = page.locator('[data-testid="chat-message"][data-role="assistant"]').last();
    await expect(answer).toHaveAttribute("data-state", "complete", { timeout: 30_000 });
    const text = answer.getByTestId("chat-answer-text");
    await expect(text).toContainText("英伟达");
    await expect(text).toContainText(zhCN.signalsUi.statuses.active);
    await expect(text).toContainText(zhCN.signalsUi.actions.sell);
    await expect(text).not.toContainText("NVIDIA");
    await expect(text).not.toContainText("active");
    await screenshot(page, { path: `${SCREENSHOT_DIR}/ui-language-zh-chat.png`, fullPage: true });
  });

  test("today's alert on the home page is worded in Chinese, not the API's English message", async ({
    page,
    request,
  }) => {
    const unseed = markSeededRows();
    try {
      const rule = await request.post("/api/v1/alerts/rules", {
        data: { alert_type: "price_cross", target: "600519", parameters: { direction: "above", price: 1 } },
      });
      expect(rule.status(), await rule.text()).toBe(201);
      const evaluated = (await (await request.post("/api/v1/alerts/evaluate")).json()) as {
        triggers: { message: string }[];
      };
      expect(evaluated.triggers.length).toBeGreaterThan(0);
      await page.goto("/");
      const item = page.getByTestId("home-triggers").locator("li").first();
      await expect(item).toContainText(/价格 [\d.]+ 高于 1/);
      await expect(item).not.toContainText(evaluated.triggers[0]!.message);
    } finally {
      unseed();
    }
  });

  test("a refused CSV upload is explained in Chinese", async ({ page, request }) => {
    const csvDir = path.join(process.env.E2E_DATA_DIR!, "csv-ui-language");
    fs.rmSync(csvDir, { recursive: true, force: true });
    await applySettings(request, { CSV_DATA_DIR: csvDir });
    await page.goto("/settings");
    const panel = page.locator("section", { has: page.getByRole("heading", { name: "数据文件（CSV）" }) });
    await panel.getByLabel("代码").fill("AAPL");
    await panel.getByLabel("CSV 文件").setInputFiles({
      name: "aapl.csv",
      mimeType: "text/csv",
      buffer: Buffer.from("date,open,high,low,volume\n2024-01-02,10,11,9,100\n"),
    });
    await panel.getByRole("button", { name: "上传" }).click();
    await expect(panel.getByRole("alert")).toHaveText(
      "上传失败：AAPL.csv 第 1 行：缺少必需的列 close；表头须含 date, open, high, low, close（现有：date, open, high, low, volume）",
    );
    // A code that names nothing is refused in Chinese too, by the resolver's reason.
    await panel.getByLabel("代码").fill("../x");
    await panel.getByRole("button", { name: "上传" }).click();
    await expect(panel.getByRole("alert")).toHaveText("上传失败：“../x”不是证券代码：请填写代码，而不是路径");
    await screenshot(page, { path: `${SCREENSHOT_DIR}/ui-language-zh-csv.png`, fullPage: true });
    expect(fs.existsSync(path.join(csvDir, "AAPL.csv"))).toBe(false);
  });
});
