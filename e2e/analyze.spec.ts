import { expect, test, type Locator, type Page, type Response } from "@playwright/test";
import { applySettings, readEnvText, restoreEnvText } from "./fixtures/env-file";
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

// The Analyze page plus the shell rules every page keeps (foundation issue part 7: 7.1 nav
// and phone width, 7.2 language, 7.3 theme). The e2e server starts with the default market sources; this
// file switches its env file to MARKET_DATA_SOURCES=sample (the server re-reads the file within about a
// second) and puts the file back afterwards.

const analyze = UI_PAGES.find((p) => p.slug === "analyze")!;
const ZH_ACTIONS = ["买入", "加仓", "持有", "减仓", "卖出", "观望", "回避", "预警"];
const EN_ACTIONS = ["Buy", "Add", "Hold", "Reduce", "Sell", "Watch", "Avoid", "Alert"];
const LEVELS = [
  { key: "ideal_buy", label: "理想买点" },
  { key: "secondary_buy", label: "次优买点" },
  { key: "stop_loss", label: "止损" },
  { key: "take_profit", label: "止盈" },
];

let originalEnv: string | null = null;

test.beforeAll(async ({ request }) => {
  originalEnv = readEnvText();
  await applySettings(request, { MARKET_DATA_SOURCES: "sample" });
});
test.afterAll(() => {
  restoreEnvText(originalEnv);
});

const codeInput = (page: Page, lang: "zh" | "en" = "zh") =>
  page.getByRole("combobox", { name: lang === "zh" ? "股票代码或名称" : "Stock code or name" });
const submitButton = (page: Page) => page.getByRole("button", { name: /^(开始分析|分析中…|Analyse|Analysing…)$/ });
const byTestId = (page: Page, id: string) => page.getByTestId(id);

async function openAnalyze(page: Page): Promise<void> {
  const response = await page.goto("/");
  expect(response?.status()).toBe(200);
  await expect(pageTitle(page)).toHaveText(analyze.zh);
}

/** Types into the code input and picks the suggestion whose name matches, by keyboard or by mouse. */
async function pickSuggestion(page: Page, typed: string, name: string, how: "keyboard" | "mouse"): Promise<Locator> {
  const input = codeInput(page);
  await input.fill(typed);
  const listbox = page.getByRole("listbox");
  const option = listbox.getByRole("option").filter({ hasText: name });
  await expect(option).toBeVisible();
  await expect(input).toHaveAttribute("aria-expanded", "true");
  if (how === "mouse") await option.click();
  else {
    const options = listbox.getByRole("option");
    const index = (await options.allTextContents()).findIndex((text) => text.includes(name));
    expect(index).toBeGreaterThanOrEqual(0);
    for (let i = 0; i <= index; i++) await input.press("ArrowDown");
    await expect(option).toHaveAttribute("aria-selected", "true");
    await expect(input).toHaveAttribute("aria-activedescendant", (await option.getAttribute("id"))!);
    await input.press("Enter");
  }
  await expect(listbox).toBeHidden();
  return input;
}

/** Submits and waits for the analyze call; returns the request body and the response. */
async function runAnalysis(page: Page, submit: () => Promise<void>) {
  const requestPromise = page.waitForRequest(
    (r) => r.url().endsWith("/api/v1/analysis/analyze") && r.method() === "POST",
  );
  const responsePromise = page.waitForResponse((r) => r.url().endsWith("/api/v1/analysis/analyze"));
  await submit();
  const request = await requestPromise;
  const response = await responsePromise;
  return { body: request.postDataJSON() as Record<string, unknown>, response };
}

/** The rendered text colour as sRGB (Tailwind 4 colours compute to oklch(), so a canvas converts them). */
async function textRgb(el: Locator): Promise<[number, number, number]> {
  return el.evaluate((node) => {
    const ctx = document.createElement("canvas").getContext("2d")!;
    ctx.fillStyle = getComputedStyle(node).color;
    ctx.fillRect(0, 0, 1, 1);
    const [r, g, b] = ctx.getImageData(0, 0, 1, 1).data;
    return [r!, g!, b!] as [number, number, number];
  });
}

/** Counts canvas pixels near the A-share up red (#ef4444) and down green (#22c55e) drawn by the chart. */
async function candleColours(chart: Locator): Promise<{ red: number; green: number }> {
  return chart.evaluate((el) => {
    let red = 0;
    let green = 0;
    for (const canvas of Array.from(el.querySelectorAll("canvas"))) {
      const ctx = canvas.getContext("2d");
      if (!ctx || canvas.width === 0 || canvas.height === 0) continue;
      const data = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
      for (let i = 0; i < data.length; i += 4) {
        const [r, g, b] = [data[i]!, data[i + 1]!, data[i + 2]!];
        if (Math.abs(r - 239) < 12 && Math.abs(g - 68) < 12 && Math.abs(b - 68) < 12) red++;
        if (Math.abs(r - 34) < 12 && Math.abs(g - 197) < 12 && Math.abs(b - 94) < 12) green++;
      }
    }
    return { red, green };
  });
}

/**
 * What every rendered 600519 sample report shows. The page chrome (labels, badges, the sample banner) is in
 * the UI language, zh-CN in these tests; the report's own texts are in `lang`, the report language.
 */
async function expectSampleReport(page: Page, lang: "zh" | "en", response: Response): Promise<void> {
  const strategy = ((await response.json()) as { report: { strategy: Record<string, string | null> } }).report.strategy;
  await expect(byTestId(page, "report-name")).toHaveText(lang === "zh" ? "贵州茅台" : /Kweichow Moutai|贵州茅台/);
  const article = page.getByRole("article");
  await expect(article).toContainText("600519");
  // The market badge is page chrome: it stays in the UI language (zh-CN here) whatever the report language.
  await expect(article).toContainText("A股");

  const badge = byTestId(page, "action-badge");
  await expect(badge).toBeVisible();
  expect(lang === "zh" ? ZH_ACTIONS : EN_ACTIONS).toContain((await badge.textContent())?.trim());

  const score = Number(await byTestId(page, "sentiment-score").textContent());
  expect(score).toBeGreaterThanOrEqual(0);
  expect(score).toBeLessThanOrEqual(100);
  await expect(page.getByRole("meter")).toHaveAttribute("aria-valuenow", String(score));

  await expect(byTestId(page, "report-price")).toHaveText(/^\d+\.\d{2}$/);
  // Daily change coloured by the A-share convention: red up, green down, neutral at 0.
  const change = byTestId(page, "report-change");
  await expect(change).toHaveText(/^[+-]?\d+\.\d{2}%$/);
  const dir = await change.getAttribute("data-direction");
  const [r, g] = await textRgb(change);
  if (dir === "up") expect(r, "up is red").toBeGreaterThan(g);
  if (dir === "down") expect(g, "down is green").toBeGreaterThan(r);

  // rules-v2 gives the levels the verdict needs (a watch call has no second entry, a short call no buy levels):
  // each shows the report's price, or a dash where the plan has none; every scored call has some.
  for (const level of LEVELS) {
    const cell = byTestId(page, `level-${level.key}`);
    await expect(cell).toContainText(level.label);
    const value = strategy[level.key];
    if (value) await expect(cell.locator("dd")).toContainText(/\d+\.\d{2}/.exec(value)![0]);
    else await expect(cell.locator("dd")).toHaveText("—");
  }
  expect(LEVELS.some((level) => strategy[level.key])).toBe(true);

  await expect(byTestId(page, "sample-banner")).toBeVisible();
  await expect(byTestId(page, "sample-banner")).toContainText("样本数据");
  await expect(byTestId(page, "empty-news")).toHaveText(
    lang === "zh"
      ? "未检索到相关新闻证据：本报告仅基于行情与技术指标。"
      : "No news evidence was found: this report rests on prices and technical indicators only.",
  );
  await expect(byTestId(page, "data-source")).toHaveText("sample");
  await expect(byTestId(page, "report-disclaimer")).toBeVisible();

  const chart = byTestId(page, "price-chart");
  await expect(chart).toBeVisible();
  await expect(chart.locator("canvas").first()).toBeVisible();
  const box = await chart.boundingBox();
  expect(box!.width).toBeGreaterThan(200);
  expect(box!.height).toBeGreaterThan(200);
  // The canvas is painted on the next animation frame: poll until both colours show.
  await expect
    .poll(async () => Math.min(...Object.values(await candleColours(chart))), {
      message: "red (up) and green (down) candle pixels",
    })
    .toBeGreaterThan(50);
}

test.describe("the Analyze page", () => {
  test("type 茅台, pick 贵州茅台 from the autocomplete by keyboard, analyse (sync, sample data) and see the report with the chart", async ({
    page,
  }) => {
    await openAnalyze(page);
    // Defaults: detailed report, report language = UI language (zh).
    await expect(page.getByRole("radio", { name: "详细" })).toBeChecked();
    await expect(page.getByRole("radio", { name: "中文" })).toBeChecked();

    // Autocomplete rows show code, name and market badge.
    await codeInput(page).fill("茅台");
    const option = page.getByRole("listbox").getByRole("option").filter({ hasText: "贵州茅台" });
    await expect(option).toContainText("600519");
    await expect(option).toContainText("A股");
    const input = await pickSuggestion(page, "茅台", "贵州茅台", "keyboard");
    await expect(input).toHaveValue("600519 贵州茅台");

    // A slowed answer makes the loading state observable.
    await page.route("**/api/v1/analysis/analyze", async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 800));
      await route.continue();
    });
    const { body, response } = await runAnalysis(page, async () => {
      await submitButton(page).click();
      await expect(submitButton(page)).toHaveText("分析中…");
      await expect(submitButton(page)).toBeDisabled();
      await expect(byTestId(page, "analyze-loading")).toContainText("正在拉取行情");
    });
    expect(body).toMatchObject({
      stock_code: "600519",
      report_type: "detailed",
      report_language: "zh",
      async_mode: false,
    });
    expect(response.status()).toBe(200);
    await expect(submitButton(page)).toHaveText("开始分析");
    await expect(submitButton(page)).toBeEnabled();

    await expectSampleReport(page, "zh", response);
    await expect(page.getByRole("heading", { name: "检查清单" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "风险提示" })).toBeVisible();
    const indicators = page.locator("section").filter({ has: page.getByRole("heading", { name: "技术指标" }) });
    for (const label of ["MA5", "MA10", "MA20", "MA60", "乖离 MA5", "量比", "换手率"])
      await expect(indicators.getByText(label, { exact: true })).toBeVisible();
    await expect(byTestId(page, "model-used")).toHaveText("规则引擎（未使用大模型）");
    await screenshot(page, { path: `${SCREENSHOT_DIR}/analyze-report.png`, fullPage: true });
  });

  test("an English report via the report-language picker (UI stays zh-CN), picked with the mouse", async ({ page }) => {
    await openAnalyze(page);
    await page.getByText("English", { exact: true }).click();
    await expect(page.getByRole("radio", { name: "English" })).toBeChecked();
    await page.getByText("简报", { exact: true }).click();
    await expect(page.getByRole("radio", { name: "简报" })).toBeChecked();
    await pickSuggestion(page, "Moutai", "贵州茅台", "mouse");
    const { body, response } = await runAnalysis(page, () => submitButton(page).click());
    expect(body).toMatchObject({ stock_code: "600519", report_type: "brief", report_language: "en" });
    expect(response.status()).toBe(200);
    await expectSampleReport(page, "en", response);
    // The page chrome stays in the UI language; a brief report has no checklist.
    await expect(pageTitle(page)).toHaveText(analyze.zh);
    await expect(page.getByRole("heading", { name: "检查清单" })).toHaveCount(0);
    await screenshot(page, { path: `${SCREENSHOT_DIR}/analyze-report-en.png`, fullPage: true });
  });

  test("the report in dark mode and at 390px phone width, without horizontal overflow", async ({ page }) => {
    await page.emulateMedia({ colorScheme: "dark" });
    await openAnalyze(page);
    await expectDarkBackground(page);
    // A typed code without a pick is submitted as typed, with Enter.
    await codeInput(page).fill("600519");
    await expect(page.getByRole("listbox").getByRole("option").first()).toBeVisible();
    await codeInput(page).press("Escape");
    const { body, response } = await runAnalysis(page, () => codeInput(page).press("Enter"));
    expect(body).toMatchObject({ stock_code: "600519" });
    await expectSampleReport(page, "zh", response);
    // The chart's canvas background follows the dark theme.
    const surface = await byTestId(page, "price-chart").evaluate((el) => {
      const canvas = el.querySelector("canvas")!;
      const [r, g, b] = canvas.getContext("2d")!.getImageData(2, 2, 1, 1).data;
      return (r! + g! + b!) / 3;
    });
    expect(surface, "dark chart background").toBeLessThan(60);
    await screenshot(page, { path: `${SCREENSHOT_DIR}/analyze-report-dark.png`, fullPage: true });

    await page.emulateMedia({ colorScheme: "light" });
    await page.setViewportSize({ width: 390, height: 844 });
    await openAnalyze(page);
    await expectLightBackground(page);
    await pickSuggestion(page, "茅台", "贵州茅台", "mouse");
    const phone = await runAnalysis(page, () => submitButton(page).click());
    await expectSampleReport(page, "zh", phone.response);
    await expectNoHorizontalOverflow(page);
    await screenshot(page, { path: `${SCREENSHOT_DIR}/analyze-report-phone.png`, fullPage: true });
  });

  test("an invalid input (abc123) shows the API's 400 validation reason in the UI language; an empty input is caught before any request", async ({
    page,
  }) => {
    await openAnalyze(page);
    let requests = 0;
    page.on("request", (r) => {
      if (r.url().endsWith("/api/v1/analysis/analyze")) requests++;
    });
    await submitButton(page).click();
    await expect(byTestId(page, "analyze-error")).toContainText("请输入股票代码或名称。");
    expect(requests).toBe(0);

    await codeInput(page).fill("abc123");
    await codeInput(page).press("Escape");
    const { body, response } = await runAnalysis(page, () => submitButton(page).click());
    expect(body).toMatchObject({ stock_code: "abc123" });
    expect(response.status()).toBe(400);
    const answer = (await response.json()) as { error: string; message: string; reason_code: string };
    expect(answer).toMatchObject({ error: "validation_error", reason_code: "mixed_letters_digits" });
    const alert = page.getByRole("alert").filter({ hasText: "abc123：“abc123”字母与数字混合，但不是可识别的代码" });
    await expect(alert).toBeVisible();
    await expect(alert).toContainText("输入有误");
    await expect(page.getByRole("article")).toHaveCount(0);
    await screenshot(page, { path: `${SCREENSHOT_DIR}/analyze-error.png`, fullPage: true });
  });
});

test.describe("shell rules on the Analyze page (/)", () => {
  test("7.1 + 7.4: / renders in zh-CN by default with the nav, its highlighted item, its title, the analysis form (no coming-soon state) and the footer", async ({
    page,
  }) => {
    await openAnalyze(page);
    await expect(page.locator("html")).toHaveAttribute("lang", "zh-CN");
    await expectNav(page, analyze, "zh");
    await expect(page).toHaveTitle(`${analyze.zh} · DSA`);
    const main = page.getByRole("main");
    await expect(main.getByText("即将推出")).toHaveCount(0);
    await expect(codeInput(page)).toBeVisible();
    await expect(page.getByRole("group", { name: "报告类型" }).getByRole("radio")).toHaveCount(4);
    await expect(submitButton(page)).toHaveText("开始分析");
    const footer = page.getByRole("contentinfo");
    await expect(footer).toContainText("不构成投资建议");
    await expect(footer).toContainText(/版本 \d+\.\d+\.\d+/);
    await screenshot(page, { path: `${SCREENSHOT_DIR}/analyze.png`, fullPage: true });
  });

  test("7.2: / switches to English with the language switch (the report language follows), and the choice sticks after a reload", async ({
    page,
  }) => {
    await openAnalyze(page);
    await languageButton(page, "en").click();
    await expect(pageTitle(page)).toHaveText(analyze.en);
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    await expectNav(page, analyze, "en");
    await expect(codeInput(page, "en")).toBeVisible();
    await expect(page.getByRole("radio", { name: "English" })).toBeChecked();
    await expect(page.getByRole("contentinfo")).toContainText("not investment advice");
    await expect(page).toHaveTitle(`${analyze.en} · DSA`);
    expect((await page.context().cookies()).find((c) => c.name === "dsa_lang")?.value).toBe("en");

    await page.reload();
    await expect(pageTitle(page)).toHaveText(analyze.en);
    await expect(languageButton(page, "en")).toHaveAttribute("aria-pressed", "true");
    await screenshot(page, { path: `${SCREENSHOT_DIR}/analyze-en.png`, fullPage: true });
    await languageButton(page, "zh").click();
    await expect(pageTitle(page)).toHaveText(analyze.zh);
    await expect(page.locator("html")).toHaveAttribute("lang", "zh-CN");
  });

  test("7.3: / follows a dark system theme, and the light/dark/system toggle overrides it", async ({ page }) => {
    await page.emulateMedia({ colorScheme: "dark" });
    await page.goto("/");
    await expect(page.locator("html")).not.toHaveAttribute("class", /(light|dark)/);
    await expectDarkBackground(page);
    await screenshot(page, { path: `${SCREENSHOT_DIR}/analyze-dark.png`, fullPage: true });
    await themeButton(page, "light").click();
    await expect(page.locator("html")).toHaveClass("light");
    await expectLightBackground(page);
    await themeButton(page, "system").click();
    await expectDarkBackground(page);
    await page.emulateMedia({ colorScheme: "light" });
    await themeButton(page, "dark").click();
    await expect(page.locator("html")).toHaveClass("dark");
    await expectDarkBackground(page);
    await page.reload();
    await expect(page.locator("html")).toHaveClass("dark");
    await expect(themeButton(page, "dark")).toHaveAttribute("aria-pressed", "true");
  });

  test("7.1: / fits a 390px phone screen without horizontal overflow, in zh-CN/light and en/dark", async ({
    page,
    context,
    baseURL,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await openAnalyze(page);
    await expectNoHorizontalOverflow(page);
    await expectNav(page, analyze, "zh");
    for (const control of [
      languageButton(page, "en"),
      themeButton(page, "system"),
      submitButton(page),
      codeInput(page),
    ]) {
      const box = await control.boundingBox();
      expect(box, "controls are on screen").not.toBeNull();
      expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    }
    await expect(mainNav(page, "zh").locator('[aria-current="page"]')).toBeInViewport();
    await screenshot(page, { path: `${SCREENSHOT_DIR}/analyze-phone.png`, fullPage: true });

    await context.addCookies([
      { name: "dsa_lang", value: "en", url: baseURL! },
      { name: "dsa_theme", value: "dark", url: baseURL! },
    ]);
    await page.reload();
    await expect(pageTitle(page)).toHaveText(analyze.en);
    await expectDarkBackground(page);
    await expectNoHorizontalOverflow(page);
    await screenshot(page, { path: `${SCREENSHOT_DIR}/analyze-phone-en-dark.png`, fullPage: true });
  });
});
