import { expect, test, type APIRequestContext, type Locator, type Page } from "@playwright/test";
import { applySettings, readEnvText, restoreEnvText } from "./fixtures/env-file";
import { expectDarkBackground, expectNoHorizontalOverflow, pageTitle, screenshot, SCREENSHOT_DIR } from "./fixtures/ui";

// Batch submission on the Analyze page and the live task panel fed by the SSE task stream
// (GET /api/v1/analysis/tasks/stream). The server runs on sample data with SAMPLE_LATENCY_MS, so each task
// takes long enough for its progress to be seen.

type BatchBody = {
  accepted: { task_id: string; stock_code: string; status: string }[];
  duplicates: { stock_code: string; existing_task_id: string; message: string }[];
  rejected?: { stock_code: string; message: string; reason_code?: string }[] | null;
  message: string;
};
type LogEntry = { id: string; status: string; progress: number; stage: string };

let originalEnv: string | null = null;

async function setLatency(request: APIRequestContext, ms: number): Promise<void> {
  await applySettings(request, { SAMPLE_LATENCY_MS: String(ms) });
}

test.beforeAll(async ({ request }) => {
  originalEnv = readEnvText();
  await applySettings(request, { MARKET_DATA_SOURCES: "sample", SAMPLE_LATENCY_MS: "300" });
});
test.afterAll(() => {
  restoreEnvText(originalEnv);
});

const batchTab = (page: Page) => page.getByRole("tablist", { name: "分析方式" }).getByRole("tab", { name: "批量分析" });
const codesInput = (page: Page) => page.getByRole("textbox", { name: /股票代码（每行一个/ });
const batchSubmit = (page: Page) => page.getByRole("button", { name: /^(提交批量分析|提交中…)$/ });
const connection = (page: Page) => page.getByTestId("task-connection");
const taskRow = (page: Page, taskId: string): Locator =>
  page.locator(`[data-testid="task-row"][data-task-id="${taskId}"]`);

async function openBatch(page: Page): Promise<void> {
  const response = await page.goto("/");
  expect(response?.status()).toBe(200);
  await expect(pageTitle(page)).toHaveText("分析");
  await batchTab(page).click();
  await expect(batchTab(page)).toHaveAttribute("aria-selected", "true");
  await expect(connection(page)).toHaveAttribute("data-state", "open");
}

/** Records every state each task row shows (status, progress, stage), so short-lived states are not missed. */
async function recordTaskRows(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { __taskLog: LogEntry[] };
    w.__taskLog = [];
    const record = () => {
      for (const row of Array.from(document.querySelectorAll<HTMLElement>('[data-testid="task-row"]'))) {
        w.__taskLog.push({
          id: row.dataset.taskId ?? "",
          status: row.dataset.status ?? "",
          progress: Number(row.querySelector('[role="progressbar"]')?.getAttribute("aria-valuenow")),
          stage: row.querySelector('[data-testid="task-stage"]')?.textContent ?? "",
        });
      }
    };
    new MutationObserver(record).observe(document.body, {
      subtree: true,
      childList: true,
      attributes: true,
      characterData: true,
    });
  });
}

async function taskLog(page: Page, taskId: string): Promise<LogEntry[]> {
  const all = await page.evaluate(() => (window as unknown as { __taskLog: LogEntry[] }).__taskLog);
  return all.filter((entry) => entry.id === taskId);
}

async function submitBatch(
  page: Page,
  text: string,
): Promise<{ request: Record<string, unknown>; status: number; body: BatchBody }> {
  await codesInput(page).fill(text);
  const requestPromise = page.waitForRequest(
    (r) => r.url().endsWith("/api/v1/analysis/analyze") && r.method() === "POST",
  );
  const responsePromise = page.waitForResponse((r) => r.url().endsWith("/api/v1/analysis/analyze"));
  await batchSubmit(page).click();
  const request = (await requestPromise).postDataJSON() as Record<string, unknown>;
  const response = await responsePromise;
  return { request, status: response.status(), body: (await response.json()) as BatchBody };
}

async function expectCompletedRow(page: Page, taskId: string, code: string): Promise<void> {
  const row = taskRow(page, taskId);
  await expect(row).toHaveAttribute("data-status", "completed", { timeout: 20_000 });
  await expect(row).toContainText(code);
  await expect(row.getByTestId("task-status")).toHaveText("已完成");
  await expect(row.getByRole("progressbar")).toHaveAttribute("aria-valuenow", "100");
  await expect(row.getByRole("link", { name: "查看报告" })).toHaveAttribute("href", `/history/${taskId}`);
}

test.describe("batch analysis and the live task panel", () => {
  test("a batch of 3 codes plus an unregistered index code: accepted 3 / rejected 1, the panel shows progress and then 3 completed tasks with report links", async ({
    page,
    request,
  }) => {
    await openBatch(page);
    await recordTaskRows(page);
    await codesInput(page).fill("601398\nAMZN, 09988 csi999999");
    await expect(page.getByTestId("batch-count")).toHaveText("4 个代码");

    const { request: sent, status, body } = await submitBatch(page, "601398\nAMZN, 09988 csi999999");
    expect(sent).toMatchObject({
      stock_codes: ["601398", "AMZN", "09988", "csi999999"],
      async_mode: true,
      report_type: "detailed",
      report_language: "zh",
    });
    expect(status).toBe(202);
    expect(body.accepted).toHaveLength(3);
    expect(body.rejected).toHaveLength(1);

    // The answer as the page shows it.
    const result = page.getByTestId("batch-result");
    await expect(result.getByTestId("batch-accepted")).toHaveAttribute("data-count", "3");
    await expect(result.getByTestId("batch-accepted")).toContainText("已接受3");
    await expect(result.getByTestId("batch-duplicates")).toHaveAttribute("data-count", "0");
    await expect(result.getByTestId("batch-rejected")).toHaveAttribute("data-count", "1");
    const rejected = result.getByTestId("batch-rejected-item");
    await expect(rejected).toHaveCount(1);
    await expect(rejected).toContainText("csi999999");
    // The reason worded in the UI language from the answer's reason_code.
    expect(body.rejected![0]).toMatchObject({ reason_code: "unregistered_index" });
    await expect(rejected).toHaveText("csi999999：csi999999 不是支持的指数");
    for (const item of body.accepted) await expect(result).toContainText(item.stock_code);

    // Every accepted task appears once in the panel and ends completed, with a link to its report.
    const codes = ["601398", "AMZN", "09988"];
    for (const [i, item] of body.accepted.entries()) await expectCompletedRow(page, item.task_id, codes[i]!);
    // Merged by task_id: one row per task, whatever mix of stream events and list reads delivered it.
    for (const item of body.accepted) await expect(taskRow(page, item.task_id)).toHaveCount(1);
    await expect(connection(page)).toHaveText("实时");

    // On the way there each showed a running state with a progress between 0 and 100 and its stage (the codes
    // are ones no earlier spec or home watchlist reads, so no stored bars or cached quote finish a task unseen).
    for (const item of body.accepted) {
      const log = await taskLog(page, item.task_id);
      const running = log.filter((e) => e.status === "processing" && e.progress > 0 && e.progress < 100);
      expect(running.length, `task ${item.stock_code} showed progress while running`).toBeGreaterThan(0);
      expect(
        running.some((e) => /^(拉取日线|拉取实时行情|检索新闻|计算指标与规则决策|调用大模型|保存报告)$/.test(e.stage)),
        `task ${item.stock_code} showed a stage`,
      ).toBe(true);
      // The link points at a stored report.
      const stored = await request.get(`/api/v1/history/${item.task_id}`);
      expect(stored.status()).toBe(200);
    }
    await screenshot(page, { path: `${SCREENSHOT_DIR}/analyze-batch.png`, fullPage: true });

    await page.setViewportSize({ width: 390, height: 844 });
    await expectNoHorizontalOverflow(page);
    const phoneRow = await taskRow(page, body.accepted[0]!.task_id).boundingBox();
    expect(phoneRow!.x + phoneRow!.width, "task rows fit the phone width").toBeLessThanOrEqual(390);
    await screenshot(page, { path: `${SCREENSHOT_DIR}/analyze-batch-phone.png`, fullPage: true });

    await page.emulateMedia({ colorScheme: "dark" });
    await page.setViewportSize({ width: 1280, height: 900 });
    await expectDarkBackground(page);
    await screenshot(page, { path: `${SCREENSHOT_DIR}/analyze-batch-dark.png`, fullPage: true });
  });

  test("the same codes again while they run are reported as duplicates with the running task; a single running code answers 409 and shows as a duplicate", async ({
    page,
  }) => {
    await setLatency(page.request, 1500);
    try {
      await openBatch(page);
      const first = await submitBatch(page, "000858 MSFT");
      expect(first.status).toBe(202);
      expect(first.body.accepted.map((a) => a.stock_code)).toEqual(["000858", "MSFT"]);

      const again = await submitBatch(page, "000858, MSFT");
      expect(again.status).toBe(202);
      expect(again.body.accepted).toEqual([]);
      expect(again.body.duplicates.map((d) => d.existing_task_id).sort()).toEqual(
        first.body.accepted.map((a) => a.task_id).sort(),
      );
      const result = page.getByTestId("batch-result");
      await expect(result.getByTestId("batch-accepted")).toHaveAttribute("data-count", "0");
      await expect(result.getByTestId("batch-duplicates")).toHaveAttribute("data-count", "2");
      await expect(result.getByTestId("batch-duplicate-item")).toHaveCount(2);
      for (const item of first.body.accepted) await expect(result).toContainText(item.task_id);

      // One code only: spec 4.2 rule 8, a flat 409 DuplicateTaskError.
      const single = await submitBatch(page, "MSFT");
      expect(single.status).toBe(409);
      await expect(result.getByTestId("batch-duplicates")).toHaveAttribute("data-count", "1");
      await expect(result.getByTestId("batch-duplicate-item")).toContainText("MSFT");
      await expect(page.getByTestId("batch-error")).toHaveCount(0);
      await screenshot(page, { path: `${SCREENSHOT_DIR}/analyze-batch-duplicates.png`, fullPage: true });

      for (const [i, item] of first.body.accepted.entries())
        await expectCompletedRow(page, item.task_id, ["000858", "MSFT"][i]!);
    } finally {
      await setLatency(page.request, 300);
    }
  });

  test("when the stream drops the panel says so, reconnects, and shows tasks that finished while it was away", async ({
    page,
    request,
  }) => {
    // The first stream connection ends right after `connected` (as when a proxy or a restart cuts it); the
    // browser's reconnect attempts then fail until the test lets them through to the real stream.
    let phase: "drop" | "down" | "up" = "drop";
    const attempts = { dropped: 0, refused: 0, passed: 0 };
    await page.route("**/api/v1/analysis/tasks/stream", async (route) => {
      if (phase === "up") {
        attempts.passed++;
        return route.fallback();
      }
      if (phase === "down") {
        attempts.refused++;
        return route.abort("internetdisconnected");
      }
      attempts.dropped++;
      phase = "down";
      return route.fulfill({
        status: 200,
        headers: { "content-type": "text/event-stream", "cache-control": "no-cache" },
        body: 'event: connected\ndata: {"message":"Connected to the task stream"}\n\n',
      });
    });
    await page.goto("/");
    await expect(connection(page)).toHaveAttribute("data-state", "reconnecting");
    await expect(connection(page)).toHaveText("连接中断，正在重连…");
    expect(attempts.dropped).toBe(1);
    await screenshot(page, { path: `${SCREENSHOT_DIR}/analyze-reconnecting.png`, fullPage: true });

    // Tasks submitted and finished while the stream is down: no event of theirs reaches the page.
    const submitted = await request.post("/api/v1/analysis/analyze", {
      data: { stock_codes: ["601318", "TSLA"], async_mode: true },
    });
    expect(submitted.status()).toBe(202);
    const { accepted } = (await submitted.json()) as BatchBody;
    expect(accepted).toHaveLength(2);
    for (const item of accepted) {
      await expect
        .poll(
          async () =>
            ((await (await request.get(`/api/v1/analysis/status/${item.task_id}`)).json()) as { status: string })
              .status,
          { timeout: 20_000 },
        )
        .toBe("completed");
      await expect(taskRow(page, item.task_id)).toHaveCount(0);
    }

    await expect.poll(() => attempts.refused, { message: "the browser keeps trying to reconnect" }).toBeGreaterThan(0);
    phase = "up";
    await expect(connection(page)).toHaveAttribute("data-state", "open", { timeout: 20_000 });
    expect(attempts.passed).toBeGreaterThan(0);
    await expect(connection(page)).toHaveText("实时");
    for (const [i, item] of accepted.entries()) await expectCompletedRow(page, item.task_id, ["601318", "TSLA"][i]!);

    // And live events flow again on the new connection.
    await batchTab(page).click();
    await recordTaskRows(page);
    const live = await submitBatch(page, "NVDA 300750");
    expect(live.status).toBe(202);
    for (const [i, item] of live.body.accepted.entries())
      await expectCompletedRow(page, item.task_id, ["NVDA", "300750"][i]!);
    const log = await taskLog(page, live.body.accepted[0]!.task_id);
    expect(log.some((e) => e.status === "processing")).toBe(true);
    await screenshot(page, { path: `${SCREENSHOT_DIR}/analyze-reconnected.png`, fullPage: true });
  });
});
