import { expect, test, type Locator, type Page } from "@playwright/test";
import { withSampleData } from "./fixtures/env-file";
import {
  expectNav,
  expectNoHorizontalOverflow,
  languageButton,
  mainNav,
  pageTitle,
  screenshot,
  SCREENSHOT_DIR,
  UI_PAGES,
} from "./fixtures/ui";

// One clock, one label language:
// - every time in the UI is written in one zone, the service zone (SERVICE_TIMEZONE, Asia/Shanghai here) unless
//   the user picks the browser's zone in the header, and carries that zone's label; server and browser render the
//   same string, so a reload shows no hydration warning;
// - UI labels (here: the action of a report) come from the UI dictionary by code, not from the record's language;
// - the first visit follows Accept-Language (zh* → zh-CN, else en), then the user's choice.
// The server runs on sample data (MARKET_DATA_SOURCES=sample through its env file), so a review takes seconds.

withSampleData(200);

const history = UI_PAGES.find((p) => p.slug === "history")!;
const market = UI_PAGES.find((p) => p.slug === "market")!;

// Expected strings are written out here, not imported from lib/i18n, so the tests check the dictionaries.
const ZH_ACTIONS: Record<string, string> = {
  buy: "买入",
  add: "加仓",
  hold: "持有",
  reduce: "减仓",
  sell: "卖出",
  watch: "观望",
  avoid: "回避",
  alert: "预警",
};
const EN_ACTIONS: Record<string, string> = {
  buy: "Buy",
  add: "Add",
  hold: "Hold",
  reduce: "Reduce",
  sell: "Sell",
  watch: "Watch",
  avoid: "Avoid",
  alert: "Alert",
};

const SERVICE_ZONE = "Asia/Shanghai";
const BROWSER_ZONE = "America/New_York";

/** An instant's wall clock in a zone, written independently of the app: "2025-01-15 06:28", "06:28:54", "GMT+8". */
function wall(iso: string, timeZone: string): { datetime: string; clock: string; label: string } {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hourCycle: "h23",
    timeZoneName: "short",
  }).formatToParts(new Date(iso));
  const get = (type: string) => parts.find((p) => p.type === type)!.value;
  return {
    datetime: `${get("year")}-${get("month")}-${get("day")} ${get("hour")}:${get("minute")}`,
    clock: `${get("hour")}:${get("minute")}:${get("second")}`,
    label: get("timeZoneName"),
  };
}

/** Hydration complaints of React (dev wording, or the production build's minified errors) on the console. */
function watchHydration(page: Page): string[] {
  const problems: string[] = [];
  const pattern = /hydrat|did not match|didn't match|Minified React error #(418|419|422|423|425)/i;
  page.on("console", (message) => {
    if ((message.type() === "error" || message.type() === "warning") && pattern.test(message.text()))
      problems.push(message.text());
  });
  page.on("pageerror", (error) => {
    if (pattern.test(error.message)) problems.push(error.message);
  });
  return problems;
}

const zoneButton = (page: Page, choice: "service" | "local") =>
  page
    .getByRole("banner")
    .getByRole("group", { name: "时区" })
    .getByRole("button", { name: choice === "service" ? "服务器" : "本地", exact: true });

/**
 * The review's header ("生成于 …") and its task row name the same clock: both in `zone` with the zone's label, at
 * instants less than a minute apart (the review is written, then stored, then the task completes).
 */
async function expectClocksAgree(page: Page, row: Locator, zone: string): Promise<string> {
  const header = page.getByTestId("latest-review").getByTestId("review-generated");
  const generatedAt = (await header.getAttribute("data-at"))!;
  const generated = wall(generatedAt, zone);
  await expect(header).toHaveText(`生成于 ${generated.datetime} ${generated.label}`);

  const time = row.getByTestId("task-time").filter({ visible: true });
  const at = (await time.getAttribute("datetime"))!;
  const done = wall(at, zone);
  await expect(time).toHaveText(`${done.clock} ${done.label}`);
  await expect(time).toHaveAttribute("title", `${done.datetime} ${done.label}`);

  expect(done.label, "one zone label on the page").toBe(generated.label);
  expect(
    Math.abs(Date.parse(at) - Date.parse(generatedAt)),
    "the row and the header describe the same moment",
  ).toBeLessThan(60_000);
  return generated.label;
}

test.describe("one clock on the Market page", () => {
  // A browser in New York: the service zone (Shanghai) must win until the user asks for local time.
  test.use({ timezoneId: BROWSER_ZONE });

  test("the task row and the report header agree in the service zone with its label; 'local' moves both to the browser's zone, and a reload keeps it without a hydration warning", async ({
    page,
    context,
  }) => {
    const problems = watchHydration(page);
    const response = await page.goto("/market");
    expect(response?.status()).toBe(200);
    await expect(pageTitle(page)).toHaveText(market.zh);
    await expect(page.getByTestId("task-connection")).toHaveAttribute("data-state", "open");
    await expect(zoneButton(page, "service")).toHaveAttribute("aria-pressed", "true");
    await expect(zoneButton(page, "service")).toHaveAttribute("title", "按服务时区 Asia/Shanghai（GMT+8）显示时间");

    const accepted = page.waitForResponse(
      (r) => r.url().endsWith("/api/v1/analysis/market-review") && r.request().method() === "POST",
    );
    await page
      .getByRole("group", { name: "选择复盘市场" })
      .getByRole("button", { name: "复盘A股", exact: true })
      .click();
    const answer = await accepted;
    expect(answer.status()).toBe(202);
    const taskId = String(((await answer.json()) as { task_id: string }).task_id);
    const row = page.locator(`[data-testid="task-row"][data-task-id="${taskId}"]`);
    await expect(row).toHaveAttribute("data-status", "completed", { timeout: 30_000 });
    await expect(page.getByTestId("latest-review")).toHaveAttribute("data-query-id", taskId, { timeout: 10_000 });

    // Service zone (the default): Shanghai's clock and label on both, although the browser runs in New York.
    expect(await expectClocksAgree(page, row, SERVICE_ZONE)).toBe("GMT+8");
    await screenshot(page, { path: `${SCREENSHOT_DIR}/clock-market-service.png`, fullPage: true });

    // Local: the browser's zone goes into the cookie, the server renders in it, the live row follows.
    await zoneButton(page, "local").click();
    await expect(zoneButton(page, "local")).toHaveAttribute("aria-pressed", "true");
    expect(decodeURIComponent((await context.cookies()).find((c) => c.name === "dsa_tz")?.value ?? "")).toBe(
      BROWSER_ZONE,
    );
    expect(await expectClocksAgree(page, row, BROWSER_ZONE)).toMatch(/^E[SD]T$/);
    await screenshot(page, { path: `${SCREENSHOT_DIR}/clock-market-local.png`, fullPage: true });

    // A reload renders the same strings on the server and in the browser: no hydration warning.
    await page.reload();
    await expect(page.getByTestId("task-connection")).toHaveAttribute("data-state", "open");
    await expect(zoneButton(page, "local")).toHaveAttribute("aria-pressed", "true");
    await expect(row).toHaveAttribute("data-status", "completed");
    await expectClocksAgree(page, row, BROWSER_ZONE);
    expect(problems, "hydration warnings on the console").toEqual([]);

    // Phone width: the row's own time (shown beside the status there) carries the label too, nothing overflows.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await expect(row).toHaveAttribute("data-status", "completed");
    await expectClocksAgree(page, row, BROWSER_ZONE);
    await expectNoHorizontalOverflow(page);
    const toggle = await zoneButton(page, "local").boundingBox();
    expect(toggle!.x + toggle!.width, "the zone toggle is on screen").toBeLessThanOrEqual(390);
    await screenshot(page, { path: `${SCREENSHOT_DIR}/clock-market-phone.png`, fullPage: true });

    // Back to the service zone.
    await zoneButton(page, "service").click();
    await expect(zoneButton(page, "service")).toHaveAttribute("aria-pressed", "true");
    expect(await expectClocksAgree(page, row, SERVICE_ZONE)).toBe("GMT+8");
    expect((await context.cookies()).find((c) => c.name === "dsa_tz")?.value).toBe("service");
    expect(problems).toEqual([]);
  });
});

test.describe("labels in the UI language", () => {
  test("a zh-CN UI shows an English report's action in Chinese in the History sidebar and list; the English UI in English", async ({
    page,
    request,
  }) => {
    const analyzed = await request.post("/api/v1/analysis/analyze", {
      data: { stock_code: "600519", report_type: "simple", report_language: "en", async_mode: false },
    });
    expect(analyzed.status()).toBe(200);
    const { report } = (await analyzed.json()) as {
      report: { meta: { id: number }; summary: { action: string | null; action_label: string | null } };
    };
    const id = report.meta.id;
    try {
      const action = report.summary.action;
      expect(action, "the sample analysis decides an action").not.toBeNull();
      // The record keeps its report language ...
      expect(report.summary.action_label).toBe(EN_ACTIONS[action!]);

      // ... and the zh-CN UI labels it from its dictionary by the code.
      await page.goto("/history");
      await expect(pageTitle(page)).toHaveText(history.zh);
      const stock = page
        .getByRole("navigation", { name: "股票", exact: true })
        .locator('[data-testid="history-stock"][data-code="600519"]');
      const badge = stock.getByTestId("history-stock-action");
      await expect(badge).toHaveAttribute("data-action", action!);
      await expect(badge).toHaveText(ZH_ACTIONS[action!]!);
      const row = page.locator(`[data-testid="history-row"][data-record-id="${id}"]`);
      await expect(row.getByTestId("record-action")).toHaveText(ZH_ACTIONS[action!]!);
      await screenshot(page, { path: `${SCREENSHOT_DIR}/clock-history-labels.png`, fullPage: true });

      await page.setViewportSize({ width: 390, height: 844 });
      await page.reload();
      await expect(badge).toHaveText(ZH_ACTIONS[action!]!);
      await expectNoHorizontalOverflow(page);
      await screenshot(page, { path: `${SCREENSHOT_DIR}/clock-history-labels-phone.png`, fullPage: true });

      await page.setViewportSize({ width: 1280, height: 900 });
      await languageButton(page, "en").click();
      await expect(pageTitle(page)).toHaveText(history.en);
      await expect(
        page
          .getByRole("navigation", { name: "Stocks", exact: true })
          .locator('[data-testid="history-stock"][data-code="600519"]')
          .getByTestId("history-stock-action"),
      ).toHaveText(EN_ACTIONS[action!]!);
    } finally {
      expect((await request.delete("/api/v1/history", { data: { record_ids: [id] } })).status()).toBe(200);
    }
  });
});

test.describe("the first visit follows Accept-Language", () => {
  test.use({ locale: "en-US", extraHTTPHeaders: { "Accept-Language": "en-US,en;q=0.9" } });

  test("an English browser gets the English UI on its first visit; choosing 中文 switches it, and the choice sticks", async ({
    page,
    context,
  }) => {
    const response = await page.goto("/history");
    expect(response?.status()).toBe(200);
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    await expect(pageTitle(page)).toHaveText(history.en);
    await expectNav(page, history, "en");
    await expect(
      page
        .getByRole("banner")
        .getByRole("group", { name: "Time zone" })
        .getByRole("button", { name: "Server", exact: true }),
    ).toHaveAttribute("aria-pressed", "true");
    expect(
      (await context.cookies()).find((c) => c.name === "dsa_lang"),
      "nothing is stored until the user chooses",
    ).toBeUndefined();
    await screenshot(page, { path: `${SCREENSHOT_DIR}/clock-first-visit-en.png`, fullPage: true });

    await languageButton(page, "zh").click();
    await expect(pageTitle(page)).toHaveText(history.zh);
    await expect(page.locator("html")).toHaveAttribute("lang", "zh-CN");
    expect((await context.cookies()).find((c) => c.name === "dsa_lang")?.value).toBe("zh-CN");
    await page.reload();
    await expect(pageTitle(page)).toHaveText(history.zh);
    await expect(mainNav(page, "zh")).toBeVisible();

    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await expect(pageTitle(page)).toHaveText(history.zh);
    await expectNoHorizontalOverflow(page);
    await screenshot(page, { path: `${SCREENSHOT_DIR}/clock-first-visit-zh-phone.png`, fullPage: true });
  });

  test("zh* → zh-CN and any other language → en on the first request; no usable header keeps zh-CN", async ({
    request,
  }) => {
    const lang = async (acceptLanguage: string | null) => {
      const headers: Record<string, string> = { accept: "text/html", "accept-language": acceptLanguage ?? "*" };
      const html = await (await request.get("/history", { headers })).text();
      return html.match(/<html[^>]*\slang="([^"]+)"/)?.[1];
    };
    expect(await lang("zh-TW,zh;q=0.9")).toBe("zh-CN");
    expect(await lang("en-GB")).toBe("en");
    expect(await lang("de-DE,de;q=0.9")).toBe("en");
    expect(await lang("fr;q=0.5,zh-CN;q=0.9")).toBe("zh-CN");
    expect(await lang(null)).toBe("zh-CN");
  });
});
