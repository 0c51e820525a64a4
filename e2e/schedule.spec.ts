import { expect, test } from "@playwright/test";
import { applySettings, readEnvText, restoreEnvText } from "./fixtures/env-file";

// The daily schedule panel of the Settings page: what the schedule will do, and Run now, which queues the
// watchlist and lists the run. The slot is set twelve hours away with no catch-up, so only the button runs it.

let originalEnv: string | null = null;

function shanghaiWall(ms: number): { date: string; time: string } {
  const parts = new Intl.DateTimeFormat("en-CA", {
    timeZone: "Asia/Shanghai",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).formatToParts(new Date(ms));
  const get = (type: string) => parts.find((p) => p.type === type)!.value;
  return { date: `${get("year")}-${get("month")}-${get("day")}`, time: `${get("hour")}:${get("minute")}` };
}

const slotAt = Date.now() + 12 * 3600_000;
const slot = shanghaiWall(slotAt);

test.beforeAll(async ({ request }) => {
  originalEnv = readEnvText();
  await applySettings(request, {
    MARKET_DATA_SOURCES: "sample",
    SERVICE_TIMEZONE: "Asia/Shanghai",
    STOCK_LIST: "601398,NVDA,zz9x",
    MARKET_REVIEW_ENABLED: "false",
    TRADING_DAY_CHECK_ENABLED: "false",
    SCHEDULE_CATCH_UP_MINUTES: "0",
    SCHEDULE_TIME: slot.time,
    SCHEDULE_ENABLED: "true",
  });
});
test.afterAll(() => {
  restoreEnvText(originalEnv);
});

test("settings: the daily schedule panel shows the next slot and the watchlist; Run now queues it and lists the run", async ({
  page,
  request,
}) => {
  await page.goto("/settings");
  const panel = page.locator("section", { has: page.getByRole("heading", { name: "每日定时分析" }) });
  await expect(panel).toBeVisible();
  await expect(panel.getByText("已开启")).toBeVisible();
  await expect(panel.getByText(`每天 ${slot.time}（Asia/Shanghai）`, { exact: false })).toBeVisible();
  // The instant carries the display zone's label (the service zone by default).
  await expect(panel.getByTestId("schedule-next")).toHaveText(`下次运行：${slot.date} ${slot.time} GMT+8`);
  await expect(panel.getByText("自选股：3 个")).toBeVisible();
  await expect(panel.getByText("大盘复盘：关闭")).toBeVisible();
  await expect(panel.getByText("尚未运行。")).toBeVisible();

  await panel.getByRole("button", { name: "立即运行" }).click();
  await expect(panel.getByRole("status")).toHaveText("已运行：加入队列 2 个 · 1 个无法识别 · 大盘复盘：关闭");
  const runs = panel.getByTestId("schedule-run");
  await expect(runs).toHaveCount(1);
  await expect(runs.first()).toContainText("手动");
  await expect(runs.first()).toContainText("完成");
  await expect(runs.first()).toContainText("zz9x");

  // The queued analyses really run: wait for both, so later files start from an idle queue.
  const status = await (await request.get("/api/v1/system/scheduler/status")).json();
  const ids: string[] = status.recent_runs[0].accepted.map((a: { task_id: string }) => a.task_id);
  expect(status.recent_runs[0].accepted.map((a: { stock_code: string }) => a.stock_code)).toEqual(["601398", "NVDA"]);
  for (const id of ids) {
    await expect
      .poll(async () => (await (await request.get(`/api/v1/analysis/status/${id}`)).json()).status, { timeout: 20_000 })
      .toBe("completed");
  }

  // English: the same panel in the other language.
  await page.context().addCookies([{ name: "dsa_lang", value: "en", url: page.url() }]);
  await page.reload();
  const en = page.locator("section", { has: page.getByRole("heading", { name: "Daily schedule" }) });
  await expect(en.getByTestId("schedule-next")).toHaveText(`Next run: ${slot.date} ${slot.time} GMT+8`);
  await expect(en.getByTestId("schedule-run").first()).toContainText("Manual");
});
