import fs from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { startScriptedModel, type ScriptedModel } from "@/tests/kits/scripted-model";
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

// The Screening page over a CSV folder of real bars: 招商银行 600036 cut off on the first day (after a year of
// history) whose volume is at least three times its 5-day average, so the volume-surge strategy has a known
// candidate whose ratio the test computes from the file. The env file is put back afterwards.

const screeningPage = UI_PAGES.find((p) => p.slug === "screening")!;
const REAL_BARS = path.resolve("tests/fixtures/real-bars");
const PHONE = { width: 390, height: 844 };
let originalEnv: string | null = null;
let ratio = "";
let surgeDate = "";

function cutAtVolumeSurge(source: string, target: string): void {
  const [header, ...lines] = fs.readFileSync(source, "utf8").trim().split("\n");
  const volume = (i: number) => Number(lines[i]!.split(",")[5]);
  const ratioAt = (i: number) => volume(i) / ([1, 2, 3, 4, 5].reduce((s, k) => s + volume(i - k), 0) / 5);
  const i = lines.findIndex((_, k) => k >= 260 && ratioAt(k) >= 3);
  expect(i).toBeGreaterThan(0);
  const value = Math.round(ratioAt(i) * 100) / 100;
  ratio = Number.isInteger(value) ? String(value) : value.toFixed(2);
  surgeDate = lines[i]!.split(",")[0]!;
  fs.writeFileSync(target, [header, ...lines.slice(0, i + 1)].join("\n") + "\n");
}

test.beforeAll(async ({ request }) => {
  originalEnv = readEnvText();
  const csvDir = path.join(process.env.E2E_DATA_DIR!, "csv-screening");
  fs.rmSync(csvDir, { recursive: true, force: true });
  fs.mkdirSync(csvDir, { recursive: true });
  cutAtVolumeSurge(path.join(REAL_BARS, "cn-600036-2021-2025.csv"), path.join(csvDir, "600036.csv"));
  fs.copyFileSync(path.join(REAL_BARS, "cn-600519-2024-2026.csv"), path.join(csvDir, "600519.csv"));
  await applySettings(request, { CSV_DATA_DIR: csvDir, MARKET_DATA_SOURCES: "csv" });
});
test.afterAll(() => restoreEnvText(originalEnv));

async function openScreening(page: Page): Promise<void> {
  const response = await page.goto(screeningPage.path);
  expect(response?.status()).toBe(200);
}

async function runVolumeSurge(page: Page, strategyName: string): Promise<void> {
  const form = page.getByTestId("screen-form");
  await form.locator('select[name="strategy"]').selectOption({ label: strategyName });
  await form.locator('select[name="market"]').selectOption("cn");
  await form.getByRole("button").click();
  await expect(page).toHaveURL(/\/screening\?run=/);
  await expect(page.getByTestId("screening-run")).toBeVisible();
}

test.describe("the Screening page", () => {
  test("in zh: the strategies explained, a run with the candidate's figures, and the run kept in the history", async ({
    page,
  }) => {
    await openScreening(page);
    await expect(page.locator("html")).toHaveAttribute("lang", "zh-CN");
    await expect(pageTitle(page)).toHaveText(screeningPage.zh);
    await expect(page).toHaveTitle(`${screeningPage.zh} · DSA`);
    await expectNav(page, screeningPage, "zh");

    const strategies = page.getByTestId("strategy-item");
    await expect(strategies).toHaveCount(8);
    await expect(page.locator('[data-strategy="volume_surge"]')).toContainText("当日成交量至少是前 5 日均量的 3 倍");

    await runVolumeSurge(page, "异常放量");
    await expect(page.getByTestId("run-quality")).toHaveAttribute("data-status", "verified");
    await expect(page.getByTestId("run-quality")).toHaveText("数据完整");
    await expect(page.getByTestId("run-summary")).toHaveText(
      "异常放量 · A股 · 股票池 2 只（csv），读取 2 只，通过 1 只",
    );
    const row = page.locator('[data-testid="candidate-row"][data-code="600036"]');
    await expect(row.getByTestId("candidate-stock")).toContainText("招商银行");
    await expect(row.getByTestId("candidate-reasons")).toHaveText(`量比（对前 5 日均量） ${ratio} ≥ 3`);
    await expect(row.getByTestId("candidate-bar")).toContainText(surgeDate);
    // Bars of 2022 are not current, and the row says so; its sparkline draws the last 30 closes.
    await expect(row.getByTestId("candidate-stale")).toHaveText("数据未更新");
    await expect(row.getByRole("img", { name: "招商银行 最近 30 个交易日收盘价" })).toHaveAttribute(
      "data-points",
      "30",
    );

    // Onto the watchlist from the row.
    await row.getByRole("button", { name: "加自选" }).click();
    await expect(row.getByRole("button", { name: "已加入自选" })).toBeDisabled();
    const watchlist = (await (await page.request.get("/api/v1/stocks/watchlist")).json()) as { stock_codes: string[] };
    expect(watchlist.stock_codes).toContain("600036");

    // The run is the current row of the history, and opens again from there.
    const runId = await page.getByTestId("screening-run").getAttribute("data-run-id");
    const current = page.locator(`[data-testid="history-row"][data-run-id="${runId}"]`);
    await expect(current).toHaveAttribute("aria-current", "true");
    await screenshot(page, { path: `${SCREENSHOT_DIR}/screening.png`, fullPage: true });
    await page.goto("/screening?run=missing-run");
    await expect(page.getByRole("main").getByRole("alert")).toHaveText("找不到这次筛选（missing-run）。");
  });

  test("a strategy of one's own: written in the editor, run, and deleted", async ({ page }) => {
    await openScreening(page);
    const editor = page.getByTestId("strategy-editor");
    await editor.getByText("新建自定义策略").click();
    const form = editor.getByRole("form", { name: "新建自定义策略" });
    await form.getByLabel("编号").fill("e2e_surge");
    await form.getByLabel("中文名称").fill("我的放量");
    await form.getByLabel("英文名称").fill("My surge");
    await form.getByLabel("中文说明").fill("量比至少 3 倍");
    await form.getByLabel("英文说明").fill("Volume at least 3×");
    await form
      .getByLabel("条件（全部满足才入选；数据不足时该条件不通过） 1")
      .selectOption({ label: "量比（对前 5 日均量）" });
    await form.getByLabel("数值").fill("3");
    await form.locator('select[name="rank_metric"]').selectOption({ label: "量比（对前 5 日均量）" });
    await form.getByRole("button", { name: "保存策略" }).click();
    const saved = page.locator('[data-strategy="e2e_surge"]');
    await expect(saved).toContainText("我的放量");
    await expect(saved).toContainText("自定义");

    await runVolumeSurge(page, "我的放量");
    const row = page.locator('[data-testid="candidate-row"][data-code="600036"]');
    await expect(row.getByTestId("candidate-reasons")).toHaveText(`量比（对前 5 日均量） ${ratio} ≥ 3`);

    await page.locator('[data-strategy="e2e_surge"]').getByRole("button", { name: "删除 我的放量" }).click();
    await expect(page.locator('[data-strategy="e2e_surge"]')).toHaveCount(0);
  });

  test("in English: the words of the form, the strategies and the reasons", async ({ page }) => {
    await openScreening(page);
    await languageButton(page, "en").click();
    await expect(pageTitle(page)).toHaveText(screeningPage.en);
    await expectNav(page, screeningPage, "en");
    await expect(page.locator('[data-strategy="new_high_52w"]')).toContainText("New 52-week high");
    await runVolumeSurge(page, "Volume surge");
    const row = page.locator('[data-testid="candidate-row"][data-code="600036"]');
    await expect(row.getByTestId("candidate-reasons")).toHaveText(`Volume vs 5-day average ${ratio} ≥ 3`);
    await expect(row.getByTestId("candidate-score")).toHaveText(`Volume vs 5-day average ${ratio}`);
    await expect(page.getByTestId("run-quality")).toHaveText("Complete data");
    await screenshot(page, { path: `${SCREENSHOT_DIR}/screening-en.png`, fullPage: true });
    await languageButton(page, "zh").click();
    await expect(pageTitle(page)).toHaveText(screeningPage.zh);
  });

  test("at 390 px the candidates are cards and the page has no horizontal overflow, in zh/light and en/dark", async ({
    page,
    context,
    baseURL,
  }) => {
    await page.setViewportSize(PHONE);
    await openScreening(page);
    await runVolumeSurge(page, "异常放量");
    await expectNoHorizontalOverflow(page);
    await expect(page.getByTestId("screening-candidates").locator("thead")).toBeHidden();
    const card = page.locator('[data-testid="candidate-row"][data-code="600036"]');
    await expectCardWithin(card, PHONE.width);
    await screenshot(page, { path: `${SCREENSHOT_DIR}/screening-phone.png`, fullPage: true });

    await context.addCookies([
      { name: "dsa_lang", value: "en", url: baseURL! },
      { name: "dsa_theme", value: "dark", url: baseURL! },
    ]);
    await page.reload();
    await expect(pageTitle(page)).toHaveText(screeningPage.en);
    await expectDarkBackground(page);
    await expect(card).toHaveCSS("display", "grid");
    await expectNoHorizontalOverflow(page);
    await screenshot(page, { path: `${SCREENSHOT_DIR}/screening-phone-en-dark.png`, fullPage: true });
  });
});

test.describe("the Screening page with a scripted model", () => {
  let model: ScriptedModel;

  test.beforeAll(async ({ request }) => {
    model = await startScriptedModel();
    // The model listens on 127.0.0.1, which the outbound policy refuses by default.
    await applySettings(request, {
      OUTBOUND_ALLOW_PRIVATE: "true",
      OPENAI_API_KEY: "sk-test-scripted-model",
      OPENAI_BASE_URL: model.url,
      OPENAI_MODEL: "scripted-model",
    });
  });
  // The file's afterAll puts the env file back, which removes the channel again.
  test.afterAll(async () => {
    await model.close();
  });

  test("the re-rank box: the model's view beside the candidates, and an invented figure is not used", async ({
    page,
  }) => {
    const view = (marketView: string) => ({
      text: JSON.stringify({
        order: ["600036"],
        market_view: marketView,
        selection_logic: `招商银行量比 ${ratio}，成交明显放大。`,
        portfolio_risk: "只有一只候选股，集中度高。",
      }),
    });
    model.fallback = () => view("放量个股稀少。");
    await openScreening(page);
    const box = page.getByTestId("screen-form").getByRole("checkbox", { name: "用模型重新排序" });
    await expect(box).toBeVisible({ timeout: 10_000 });
    await box.check();
    await runVolumeSurge(page, "异常放量");
    const llm = page.getByTestId("run-llm");
    await expect(llm).toContainText("模型重新排序（openai/scripted-model）");
    await expect(llm).toContainText(`招商银行量比 ${ratio}，成交明显放大。`);
    const row = page.locator('[data-testid="candidate-row"][data-code="600036"]');
    await expect(row.getByTestId("candidate-rule-rank")).toHaveText("规则第 1");
    const sent = model.requests.filter((r) => r.path.endsWith("/chat/completions")).at(-1)!;
    expect(sent.messagesText).toContain("600036");

    // A figure the data does not hold: the rule order stays and the run says why.
    model.fallback = () => view("目标价 99.99 元。");
    await openScreening(page);
    await page.getByTestId("screen-form").getByRole("checkbox", { name: "用模型重新排序" }).check();
    await runVolumeSurge(page, "异常放量");
    await expect(page.getByTestId("run-llm")).toHaveCount(0);
    await expect(page.getByTestId("run-llm-failed")).toContainText("99.99");
  });
});
