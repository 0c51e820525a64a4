import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { applySettings, readEnvText, restoreEnvText } from "./fixtures/env-file";
import {
  expectDarkBackground,
  expectNoHorizontalOverflow,
  languageButton,
  screenshot,
  SCREENSHOT_DIR,
} from "./fixtures/ui";

// The Settings page's data panel (CSV data source, docs/api.md §10): upload a real-bars file for a code, see it
// listed with its bar count and date range, see a broken file refused with its line, remove the file.

const FIXTURE = path.resolve("tests/fixtures/real-bars/cn-600519-2024-2026.csv");
let originalEnv: string | null = null;
let csvDir = "";

test.beforeAll(async ({ request }) => {
  originalEnv = readEnvText();
  csvDir = path.join(process.env.E2E_DATA_DIR!, "csv-data");
  fs.rmSync(csvDir, { recursive: true, force: true });
  await applySettings(request, { CSV_DATA_DIR: csvDir, MARKET_DATA_SOURCES: "sample" });
});
test.afterAll(() => {
  restoreEnvText(originalEnv);
});

test("settings: the data panel uploads a CSV for a code, lists it, refuses a broken file with its line, and removes it", async ({
  page,
}) => {
  await page.goto("/settings");
  const panel = page.locator("section", { has: page.getByRole("heading", { name: "数据文件（CSV）" }) });
  await expect(panel.getByText("还没有数据文件。")).toBeVisible();
  await expect(panel).toContainText("当前行情数据源（sample）不含 csv");

  await panel.getByLabel("代码").fill("sh600519");
  await panel.getByLabel("CSV 文件").setInputFiles(FIXTURE);
  await panel.getByRole("button", { name: "上传" }).click();
  await expect(panel.getByRole("status")).toHaveText("已保存 600519.csv：365 根 K 线，2024-08-15 至 2026-02-13。");
  const rows = panel.getByRole("table", { name: "数据文件列表" }).getByTestId("data-file");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("600519");
  await expect(rows.first()).toContainText("365");
  await expect(rows.first()).toContainText("2024-08-15 – 2026-02-13");
  expect(fs.readFileSync(path.join(csvDir, "600519.csv"), "utf8")).toBe(fs.readFileSync(FIXTURE, "utf8"));

  // A broken file is refused whole, with the line; the list is unchanged.
  await panel.getByLabel("代码").fill("AAPL");
  await panel.getByLabel("CSV 文件").setInputFiles({
    name: "aapl.csv",
    mimeType: "text/csv",
    buffer: Buffer.from("date,open,high,low,close,volume\n2024-01-02,10,11,9,10.5,100\n2024-01-02,10,11,9,10.5,100\n"),
  });
  await panel.getByRole("button", { name: "上传" }).click();
  await expect(panel.getByRole("alert")).toHaveText("上传失败：AAPL.csv 第 3 行：日期 2024-01-02 与第 2 行重复");
  await expect(rows).toHaveCount(1);
  await screenshot(page, { path: `${SCREENSHOT_DIR}/settings-data.png`, fullPage: true });

  await panel.getByRole("button", { name: "删除 600519 的数据文件" }).click();
  const dialog = page.getByRole("dialog", { name: "删除 600519.csv？" });
  await expect(dialog).toContainText("之后分析 600519 将改用下一个数据源。");
  await dialog.getByRole("button", { name: "删除" }).click();
  await expect(panel.getByRole("status")).toHaveText("已删除 600519.csv。");
  await expect(panel.getByText("还没有数据文件。")).toBeVisible();
  expect(fs.existsSync(path.join(csvDir, "600519.csv"))).toBe(false);
});

test("settings: the data panel in English, dark mode and on a 390px phone, with a valid and a hand-placed invalid file", async ({
  page,
  context,
  baseURL,
}) => {
  fs.mkdirSync(csvDir, { recursive: true });
  fs.copyFileSync(FIXTURE, path.join(csvDir, "600519.csv"));
  fs.writeFileSync(path.join(csvDir, "aapl.csv"), "date,open,high,low,volume\n2024-01-02,10,11,9,1200\n");
  await context.addCookies([{ name: "dsa_theme", value: "dark", url: baseURL! }]);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/settings");
  await languageButton(page, "en").click();
  const panel = page.locator("section", { has: page.getByRole("heading", { name: "Data files (CSV)" }) });
  await expect(panel).toBeVisible();
  await expectDarkBackground(page);
  const rows = panel.getByRole("table", { name: "Data files" }).getByTestId("data-file");
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toContainText("600519");
  await expect(rows.nth(0)).toContainText("2024-08-15 – 2026-02-13");
  await expect(rows.nth(1)).toContainText("aapl");
  await expect(rows.nth(1)).toContainText("Invalid");
  await expect(rows.nth(1)).toContainText("aapl.csv line 1: missing required column(s) close");
  await expect(panel.getByRole("button", { name: "Remove the data file of aapl" })).toBeVisible();
  await expectNoHorizontalOverflow(page);
  await panel.scrollIntoViewIfNeeded();
  await screenshot(panel, { path: `${SCREENSHOT_DIR}/settings-data-en-dark-phone.png` });
  fs.rmSync(csvDir, { recursive: true, force: true });
});

test("an uploaded file drives the next analysis: the report names the data source csv and the file's last bar date", async ({
  page,
}) => {
  await applySettings(page.request, { MARKET_DATA_SOURCES: "csv,sample" });
  await page.goto("/settings");
  const panel = page.locator("section", { has: page.getByRole("heading", { name: "数据文件（CSV）" }) });
  await expect(panel.getByText("不含 csv")).toHaveCount(0);
  await panel.getByLabel("代码").fill("600519");
  await panel.getByLabel("CSV 文件").setInputFiles(FIXTURE);
  await panel.getByRole("button", { name: "上传" }).click();
  await expect(panel.getByRole("status")).toContainText("已保存 600519.csv");

  await page.goto("/");
  await page.getByRole("combobox", { name: "股票代码或名称" }).fill("600519");
  await page.getByRole("button", { name: "开始分析" }).click();
  await expect(page.getByTestId("data-source")).toHaveText("csv", { timeout: 20_000 });
  await expect(page.getByTestId("last-bar-date")).toHaveText("2026-02-13");
  await screenshot(page, { path: `${SCREENSHOT_DIR}/settings-data-analysis.png`, fullPage: true });
  fs.rmSync(csvDir, { recursive: true, force: true });
});
