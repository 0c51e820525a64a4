import fs from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { envFilePath, envValue, readEnvText, restoreEnvText, setEnvValue } from "./fixtures/env-file";
import {
  expectDarkBackground,
  expectLightBackground,
  expectNav,
  expectNoHorizontalOverflow,
  languageButton,
  pageTitle,
  screenshot,
  SCREENSHOT_DIR,
  UI_PAGES,
} from "./fixtures/ui";

// Settings page. Runs with admin auth off (the login flows are in login.spec.ts). Every
// test starts from the env file as it was before this file ran, and puts it back at the end.

const settings = UI_PAGES.find((p) => p.slug === "settings")!;
let original: string | null = null;

test.beforeAll(() => {
  original = readEnvText();
});
test.afterEach(() => {
  restoreEnvText(original);
});

const tab = (page: Page, name: string) => page.getByRole("tablist").getByRole("tab", { name, exact: false });
const field = (page: Page, key: string) => page.locator(`#cfg-${key}`);
const row = (page: Page, key: string) => page.locator(`[data-key="${key}"]`);

async function openSettings(page: Page): Promise<void> {
  const response = await page.goto("/settings");
  expect(response?.status()).toBe(200);
  await expect(pageTitle(page)).toHaveText(settings.zh);
}

test("/settings is generated from the config schema: category tabs, typed controls, masked secrets as 已设置/未设置, backup disabled while auth is off", async ({
  page,
}) => {
  // A secret in the file must show as "set" and never reach the page.
  setEnvValue("PUSHPLUS_TOKEN", "pp-secret-value-123");
  await expect.poll(() => envValue("PUSHPLUS_TOKEN")).toBe("pp-secret-value-123");
  await openSettings(page);
  await expect(page).toHaveTitle("设置 · DSA");
  await expect(page.locator("html")).toHaveAttribute("lang", "zh-CN");
  await expectNav(page, settings, "zh");

  const tabs = page.getByRole("tablist", { name: "配置分类" }).getByRole("tab");
  await expect(tabs).toHaveText(["基础", "AI 模型", "数据源", "通知", "系统"]);
  await expect(tab(page, "基础")).toHaveAttribute("aria-selected", "true");
  // base: the watchlist is a textarea, the report language a select.
  await expect(field(page, "STOCK_LIST")).toHaveJSProperty("tagName", "TEXTAREA");
  await expect(field(page, "REPORT_LANGUAGE")).toHaveJSProperty("tagName", "SELECT");
  // The "use the default" entry names the default by its label too.
  await expect(field(page, "REPORT_TYPE").locator("option").first()).toHaveText("简要 (simple) · 默认");

  await tab(page, "系统").click();
  await expect(tab(page, "系统")).toHaveAttribute("aria-selected", "true");
  await expect(page.getByRole("textbox", { name: "定时时间" })).toHaveAttribute("placeholder", "HH:MM");
  await expect(page.getByRole("combobox", { name: "日志级别" })).toBeVisible();
  await expect(page.getByRole("switch", { name: "每日定时" })).toHaveAttribute("aria-checked", "false");
  // The auth switch is shown read-only, pointing at the admin authentication section.
  await expect(page.getByRole("switch", { name: "管理员认证" })).toBeDisabled();
  await expect(row(page, "ADMIN_AUTH_ENABLED")).toContainText("只读");
  await expect(row(page, "ADMIN_AUTH_ENABLED")).toContainText("管理员认证");
  await expect(row(page, "MAX_WORKERS")).toContainText("默认值：3");

  await tab(page, "通知").click();
  await expect(row(page, "PUSHPLUS_TOKEN")).toContainText("已设置");
  await expect(row(page, "PUSHPLUS_TOKEN").getByRole("button", { name: "替换" })).toBeVisible();
  await expect(row(page, "TELEGRAM_BOT_TOKEN")).toContainText("未设置");
  await expect(row(page, "TELEGRAM_BOT_TOKEN").locator("input")).toHaveAttribute("type", "password");
  expect(await page.content(), "a stored secret never reaches the page").not.toContain("pp-secret-value-123");
  // Replace opens an empty password input; cancelling returns to the masked state with nothing pending.
  await row(page, "PUSHPLUS_TOKEN").getByRole("button", { name: "替换" }).click();
  await expect(row(page, "PUSHPLUS_TOKEN").locator('input[type="password"]')).toHaveValue("");
  await row(page, "PUSHPLUS_TOKEN").getByRole("button", { name: "取消" }).click();
  await expect(page.getByText("没有未保存的修改")).toBeVisible();

  // Export and import answer 403 while auth is off: disabled, with the reason.
  await expect(page.getByRole("button", { name: "导出配置" })).toBeDisabled();
  await expect(page.getByRole("button", { name: "导入配置" })).toBeDisabled();
  await expect(page.getByText("导出与导入仅在开启管理员认证后可用")).toBeVisible();
  await expect(page.getByRole("heading", { name: "管理员认证" })).toBeVisible();
  await expect(page.getByRole("banner").getByRole("button", { name: "退出" })).toHaveCount(0);

  await tab(page, "基础").click();
  await screenshot(page, { path: `${SCREENSHOT_DIR}/settings.png`, fullPage: true });
});

test("change a setting and see it persist after a reload (Save → PUT with config_version, file written)", async ({
  page,
}) => {
  await openSettings(page);
  await tab(page, "系统").click();
  const time = page.getByRole("textbox", { name: "定时时间" });
  await time.fill("07:45");
  await page.getByRole("combobox", { name: "大盘复盘市场" }).selectOption("hk");
  await expect(page.getByText("2 项未保存")).toBeVisible();
  await expect(tab(page, "系统")).toContainText("2");
  await page.getByRole("button", { name: "保存", exact: true }).click();
  await expect(page.getByText("已保存 2 项，设置已生效。")).toBeVisible();
  await expect(page.getByText("没有未保存的修改")).toBeVisible();
  expect(envValue("SCHEDULE_TIME")).toBe("07:45");
  expect(envValue("MARKET_REVIEW_REGION")).toBe("hk");

  await page.reload();
  await tab(page, "系统").click();
  await expect(page.getByRole("textbox", { name: "定时时间" })).toHaveValue("07:45");
  await expect(page.getByRole("combobox", { name: "大盘复盘市场" })).toHaveValue("hk");
  const api = await page.request.get("/api/v1/system/config?include_schema=false");
  const items = ((await api.json()) as { items: { key: string; value: string }[] }).items;
  expect(items.find((i) => i.key === "SCHEDULE_TIME")?.value).toBe("07:45");
});

test("Validate shows the issue of a bad value at its field and writes nothing; Save of it is refused with the same issues", async ({
  page,
}) => {
  setEnvValue("SCHEDULE_TIME", "18:30");
  await openSettings(page);
  const before = fs.readFileSync(envFilePath());
  await tab(page, "系统").click();
  await page.getByRole("textbox", { name: "定时时间" }).fill("25:99");
  await page.getByRole("textbox", { name: "分析并发数" }).fill("99");
  await page.getByRole("button", { name: "校验" }).click();
  await expect(page.getByText("发现 2 个错误，请修正后再保存。未写入任何内容。")).toBeVisible();
  await expect(row(page, "SCHEDULE_TIME").locator('[data-severity="error"]')).toContainText(
    "SCHEDULE_TIME must be a time HH:MM",
  );
  await expect(row(page, "MAX_WORKERS").locator('[data-severity="error"]')).toContainText(
    "MAX_WORKERS must be >= 1 and <= 20",
  );
  await expect(tab(page, "系统")).toContainText("2");
  expect(fs.readFileSync(envFilePath()).equals(before), "validate wrote nothing").toBe(true);

  await page.getByRole("button", { name: "保存", exact: true }).click();
  await expect(page.getByText("未保存：发现 2 个错误，配置文件未被修改。")).toBeVisible();
  await expect(row(page, "SCHEDULE_TIME").locator('[data-severity="error"]')).toBeVisible();
  expect(fs.readFileSync(envFilePath()).equals(before), "a refused save wrote nothing").toBe(true);

  // Fixing the values clears the errors on the next validation.
  await page.getByRole("textbox", { name: "定时时间" }).fill("19:05");
  await page.getByRole("textbox", { name: "分析并发数" }).fill("4");
  await page.getByRole("button", { name: "校验" }).click();
  await expect(page.getByText("校验通过，可以保存。未写入任何内容。")).toBeVisible();
  await expect(page.locator('[data-severity="error"]')).toHaveCount(0);
  expect(envValue("SCHEDULE_TIME")).toBe("18:30");
});

test("a save over an env file changed meanwhile shows the conflict notice; Reload shows the file's new value", async ({
  page,
}) => {
  setEnvValue("SCHEDULE_TIME", "18:00");
  await openSettings(page);
  await tab(page, "系统").click();
  await page.getByRole("textbox", { name: "定时时间" }).fill("09:15");
  // Someone edits the file by hand while the page is open.
  setEnvValue("SCHEDULE_TIME", "06:30");
  await page.getByRole("button", { name: "保存", exact: true }).click();
  const notice = page.getByRole("alert").filter({ hasText: "配置已在别处被修改" });
  await expect(notice).toBeVisible();
  expect(envValue("SCHEDULE_TIME"), "the stale save wrote nothing").toBe("06:30");
  await expect(page.getByRole("textbox", { name: "定时时间" })).toHaveValue("09:15");

  await notice.getByRole("button", { name: "重新加载" }).click();
  await expect(notice).toHaveCount(0);
  await expect(page.getByRole("textbox", { name: "定时时间" })).toHaveValue("06:30");
  await expect(page.getByText("没有未保存的修改")).toBeVisible();

  // The reloaded version is current: the same edit now saves.
  await page.getByRole("textbox", { name: "定时时间" }).fill("09:15");
  await page.getByRole("button", { name: "保存", exact: true }).click();
  await expect(page.getByText("已保存 1 项，设置已生效。")).toBeVisible();
  expect(envValue("SCHEDULE_TIME")).toBe("09:15");
});

test("/settings in English and dark mode (language switch, then the dsa_theme cookie)", async ({
  page,
  context,
  baseURL,
}) => {
  await page.emulateMedia({ colorScheme: "light" });
  await openSettings(page);
  await expectLightBackground(page);
  await languageButton(page, "en").click();
  await expect(pageTitle(page)).toHaveText(settings.en);
  await expect(page.getByRole("tablist", { name: "Setting categories" }).getByRole("tab")).toHaveText([
    "Base",
    "AI model",
    "Data sources",
    "Notifications",
    "System",
  ]);
  await expect(page.getByRole("button", { name: "Validate" })).toBeVisible();
  await expect(page.getByText("Export and import are available only while admin authentication is on")).toBeVisible();

  await context.addCookies([{ name: "dsa_theme", value: "dark", url: baseURL! }]);
  await page.reload();
  await expectDarkBackground(page);
  await expect(pageTitle(page)).toHaveText(settings.en);
  await tab(page, "Notifications").click();
  await expect(row(page, "TELEGRAM_BOT_TOKEN")).toContainText("Not set");
  await tab(page, "Base").click();
  await screenshot(page, { path: `${SCREENSHOT_DIR}/settings-en-dark.png`, fullPage: true });
});

test("/settings fits a 390px phone screen: tabs scroll inside their bar, fields stack, no horizontal overflow", async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openSettings(page);
  await expectNoHorizontalOverflow(page);
  await tab(page, "通知").click();
  await expect(tab(page, "通知")).toBeInViewport();
  await expectNoHorizontalOverflow(page);
  await tab(page, "基础").click();
  await page.getByRole("combobox", { name: "报告语言" }).selectOption("en");
  await expect(page.getByText("1 项未保存")).toBeInViewport();
  await expectNoHorizontalOverflow(page);
  await screenshot(page, { path: `${SCREENSHOT_DIR}/settings-phone.png`, fullPage: true });
});
