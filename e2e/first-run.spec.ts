import { expect, test, type Page } from "@playwright/test";
import { applySettings, readEnvText, restoreEnvText } from "./fixtures/env-file";
import { screenshot, SCREENSHOT_DIR } from "./fixtures/ui";

// A first run as the README starts it on a machine without internet: the default network sources, none of which
// answers (this machine reaches no host but the npm and apt mirrors), and no watchlist yet. The home page and /market
// say so in one banner with the two ways forward, the setup checklist stays on the home page until the required
// steps are done, and a failed analysis is worded in the UI's language with the providers that failed.

const NETWORK_SOURCES = "eastmoney,tencent,yahoo";
let original: string | null = null;

test.beforeAll(async ({ request }) => {
  original = readEnvText();
  await applySettings(request, { MARKET_DATA_SOURCES: NETWORK_SOURCES, STOCK_LIST: "" });
});
test.afterAll(() => restoreEnvText(original));

async function analyse(page: Page, formName: string, code: string): Promise<void> {
  // Typed only once the page runs (its task stream is open): a submit before hydration reloads the page instead.
  await expect(page.getByTestId("task-connection")).toHaveAttribute("data-state", "open");
  const form = page.getByRole("form", { name: formName });
  await form.getByRole("combobox").fill(code);
  // The submit button, not Enter: suggestions that arrive late reopen the list, where Enter picks an option.
  await form.locator('button[type="submit"]').click();
}

test("zh: the banner names the unreachable sources, the checklist shows, and a failed analysis says why in Chinese", async ({
  page,
  request,
}) => {
  const status = (await (await request.get("/api/v1/system/config/setup/status")).json()) as {
    is_complete: boolean;
    ready_for_smoke: boolean;
    required_missing_keys: string[];
  };
  // The setup status tests the providers: listed is not enough.
  expect(status.is_complete).toBe(false);
  expect(status.ready_for_smoke).toBe(false);
  expect(status.required_missing_keys).toEqual(["MARKET_DATA_SOURCES", "STOCK_LIST"]);

  await page.goto("/");
  const banner = page.getByTestId("data-unreachable");
  await expect(banner).toContainText("无法连接行情数据源");
  await expect(banner).toContainText("eastmoney、tencent、yahoo");
  await expect(banner.getByRole("button", { name: "改用样例数据" })).toBeVisible();
  await expect(banner.getByRole("link", { name: "上传 CSV 文件" })).toHaveAttribute("href", "/settings#data-files");

  const checklist = page.getByTestId("setup-checklist");
  await expect(checklist).toContainText("开始使用");
  await expect(checklist.locator('[data-key="MARKET_DATA_SOURCES"]')).toHaveAttribute("data-status", "needs_action");
  await expect(checklist.locator('[data-key="MARKET_DATA_SOURCES"]')).toContainText("行情数据源");
  await expect(checklist.locator('[data-key="STOCK_LIST"]')).toContainText("自选股");
  await expect(checklist).not.toContainText("Market data sources");

  await analyse(page, "分析请求", "600519");
  const error = page.getByTestId("analyze-error");
  // Each provider's retries on a network error come first (a slow resolver makes them seconds).
  await expect(error).toContainText("分析失败", { timeout: 20_000 });
  await expect(error).toContainText("拿不到行情");
  // yahoo does not serve A-shares: it was never asked.
  await expect(error).toContainText("eastmoney, tencent 都没有应答");
  await expect(error).toContainText("设置 → 数据");
  await expect(error).not.toContainText("No market data");
  // A queued analysis fails the same way, worded in the task list from the task's error_code.
  const accepted = await page.request.post("/api/v1/analysis/analyze", {
    data: { stock_code: "000001", async_mode: true },
  });
  expect(accepted.status()).toBe(202);
  const taskId = ((await accepted.json()) as { task_id: string }).task_id;
  const row = page.locator(`[data-testid="task-row"][data-task-id="${taskId}"]`);
  await expect(row).toHaveAttribute("data-status", "failed", { timeout: 20_000 });
  await expect(row.getByTestId("task-error")).toContainText("拿不到行情");
  await expect(row.getByTestId("task-error")).not.toContainText("No market data");
  await screenshot(page, { path: `${SCREENSHOT_DIR}/first-run-offline-zh.png`, fullPage: true });

  await page.goto("/market");
  await expect(page.getByTestId("data-unreachable")).toContainText("无法连接行情数据源");
});

test.describe("en", () => {
  test.use({ locale: "en-US", extraHTTPHeaders: { "Accept-Language": "en-US,en;q=0.9" } });

  test("en: the same banner and failure in English", async ({ page }) => {
    await page.goto("/");
    await expect(page.getByTestId("data-unreachable")).toContainText("Market data sources cannot be reached");
    await expect(page.getByTestId("setup-checklist")).toContainText("Getting started");
    await analyse(page, "Analysis request", "AAPL");
    const error = page.getByTestId("analyze-error");
    await expect(error).toContainText("did not answer", { timeout: 20_000 });
    await expect(error).toContainText("yahoo");
    await screenshot(page, { path: `${SCREENSHOT_DIR}/first-run-offline-en.png`, fullPage: true });
  });
});

test("'use the sample data' switches the sources: the banner goes, the data check is done and an analysis runs", async ({
  page,
  request,
}) => {
  await page.goto("/");
  await page.getByTestId("data-unreachable").getByRole("button", { name: "改用样例数据" }).click();
  await expect(page.getByTestId("data-unreachable")).toHaveCount(0);
  await expect(page.getByTestId("setup-checklist").locator('[data-key="MARKET_DATA_SOURCES"]')).toHaveAttribute(
    "data-status",
    "configured",
  );
  const config = (await (await request.get("/api/v1/system/config")).json()) as {
    items: { key: string; value: string }[];
  };
  expect(config.items.find((i) => i.key === "MARKET_DATA_SOURCES")?.value).toBe("csv,sample");

  // The sample data's codes are one click away (any other code has no data there).
  const picks = page.getByTestId("sample-stocks");
  await picks.getByText(/样例数据中有 \d+ 只股票/).click();
  await picks.getByRole("button", { name: "600519 贵州茅台" }).click();
  await expect(page.getByRole("form", { name: "分析请求" }).getByRole("combobox")).toHaveValue("600519");
  await analyse(page, "分析请求", "600519");
  await expect(page.getByTestId("report-name")).toHaveText("贵州茅台");
  // A code the sample data lacks names the codes it has.
  await analyse(page, "分析请求", "600036");
  await expect(page.getByTestId("analyze-error")).toContainText("样例数据有这些代码");
  await expect(page.getByTestId("analyze-error")).toContainText("600519");
});
