import { expect, test } from "@playwright/test";
import {
  expectDarkBackground,
  expectNav,
  languageButton,
  mainNav,
  moreButton,
  pageTitle,
  screenshot,
  SCREENSHOT_DIR,
  UI_PAGES,
  type UiPage,
} from "./fixtures/ui";

const [analyze, history, signals] = (["analyze", "history", "signals"] as const).map(
  (slug) => UI_PAGES.find((p) => p.slug === slug)!,
) as [UiPage, UiPage, UiPage];

test("4.1: GET / with a browser Accept header returns the HTML UI, while API clients still get RootResponse JSON", async ({
  page,
  request,
}) => {
  const response = await page.goto("/");
  expect(response?.status()).toBe(200);
  expect(response?.headers()["content-type"]).toContain("text/html");
  await expect(pageTitle(page)).toHaveText(analyze.zh);
  await expect(mainNav(page, "zh")).toBeVisible();

  const api = await request.get("/", { headers: { accept: "application/json" } });
  expect(api.status()).toBe(200);
  expect(api.headers()["content-type"]).toContain("application/json");
  expect(await api.json()).toMatchObject({ version: expect.any(String) });
});

test("7.1: clicking nav items navigates between pages and moves the highlight", async ({ page }) => {
  await page.goto("/");
  await expectNav(page, analyze, "zh");
  await mainNav(page, "zh").getByRole("link", { name: history.zh, exact: true }).click();
  await expect(page).toHaveURL(/\/history$/);
  await expect(pageTitle(page)).toHaveText(history.zh);
  await expectNav(page, history, "zh");
  await mainNav(page, "zh").getByRole("link", { name: analyze.zh, exact: true }).click();
  await expect(page).toHaveURL(/\/$/);
  await expectNav(page, analyze, "zh");
});

test("7.2: the language chosen on one page stays when navigating to another", async ({ page }) => {
  await page.goto("/");
  await languageButton(page, "en").click();
  await expect(pageTitle(page)).toHaveText(analyze.en);
  await mainNav(page, "en").getByRole("link", { name: signals.en, exact: true }).click();
  await expect(page).toHaveURL(/\/signals$/);
  await expect(pageTitle(page)).toHaveText(signals.en);
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
});

// 7.2 as amended: the first visit follows Accept-Language (zh* → zh-CN, else en); the cookie of the
// user's choice wins over it, and an unknown cookie value is ignored (the header decides again).
test("7.2: a browser asking for English gets the English UI; an unknown dsa_lang falls back to the header, a chosen language wins", async ({
  browser,
  baseURL,
}) => {
  // The browser's own language (Chromium sends it as Accept-Language; a page-level header does not replace it).
  const context = await browser.newContext({ locale: "en-US", baseURL });
  const page = await context.newPage();
  await page.goto("/");
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  await context.addCookies([{ name: "dsa_lang", value: "fr", url: baseURL! }]);
  await page.reload();
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  await expect(pageTitle(page)).toHaveText(analyze.en);
  await context.addCookies([{ name: "dsa_lang", value: "zh-CN", url: baseURL! }]);
  await page.reload();
  await expect(page.locator("html")).toHaveAttribute("lang", "zh-CN");
  await expect(pageTitle(page)).toHaveText(analyze.zh);
  await context.close();
});

test("7.2 + 7.3: the server writes <html lang> and the theme class from the cookies, so the first paint is right (no flash)", async ({
  request,
}) => {
  const htmlTag = async (cookie: string) => {
    const response = await request.get("/", { headers: { accept: "text/html", cookie } });
    expect(response.headers()["content-type"]).toContain("text/html");
    return (await response.text()).match(/<html[^>]*>/)?.[0] ?? "";
  };
  expect(await htmlTag("")).toMatch(/lang="zh-CN"/);
  expect(await htmlTag("")).not.toMatch(/class=/);
  expect(await htmlTag("dsa_theme=dark; dsa_lang=en")).toMatch(/lang="en"/);
  expect(await htmlTag("dsa_theme=dark")).toMatch(/class="dark"/);
  expect(await htmlTag("dsa_theme=light")).toMatch(/class="light"/);
  expect(await htmlTag("dsa_theme=system")).not.toMatch(/class=/);
  expect(await htmlTag("dsa_theme=purple")).not.toMatch(/class=/);
});

test("7.3: with an explicit dark choice the page is dark on its very first paint, before any script runs", async ({
  browser,
  baseURL,
}) => {
  const context = await browser.newContext({ colorScheme: "light", javaScriptEnabled: false });
  await context.addCookies([{ name: "dsa_theme", value: "dark", url: baseURL! }]);
  const page = await context.newPage();
  await page.goto("/");
  await expect(page.locator("html")).toHaveClass("dark");
  await expectDarkBackground(page);
  await context.close();
});

test("4.1 + 7.1: the UI's client-side requests for / reach the page (no JSON, no full reload) when navigating back or refreshing", async ({
  page,
}) => {
  const jsonForRoot: string[] = [];
  page.on("response", (response) => {
    const url = new URL(response.url());
    if (url.pathname === "/" && response.headers()["content-type"]?.includes("application/json"))
      jsonForRoot.push(response.url());
  });
  await page.goto("/");
  await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
  const sameDocument = () =>
    page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument === true);

  await mainNav(page, "zh").getByRole("link", { name: history.zh, exact: true }).click();
  await expect(pageTitle(page)).toHaveText(history.zh);
  await mainNav(page, "zh").getByRole("link", { name: analyze.zh, exact: true }).click();
  await expect(pageTitle(page)).toHaveText(analyze.zh);
  await languageButton(page, "en").click();
  await expect(pageTitle(page)).toHaveText(analyze.en);

  expect(await sameDocument(), "navigation and router.refresh on / stayed in the same document").toBe(true);
  expect(jsonForRoot).toEqual([]);
});

// At a phone width the top tabs become a bottom tab bar: the four most used pages as tabs (icon and
// label) and "more", a disclosure button whose menu lists the other pages and the API docs.
test("21 §5: at 390px the nav is a bottom tab bar of four tabs and 'more', whose menu works by keyboard and closes with Escape, a click elsewhere or a navigation", async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/");
  const nav = mainNav(page, "zh");
  const more = moreButton(page, "zh");
  await expect(nav.getByRole("link")).toHaveText(["分析", "大盘", "历史", "持仓"]);
  await expect(more).toHaveAttribute("aria-expanded", "false");
  await expect(page.getByRole("banner").getByRole("navigation")).toHaveCount(0);

  // Keyboard: Enter opens it, Tab walks into the menu, Escape closes it and gives the focus back to "more".
  const menuNames = ["选股", "数据", "问股", "信号", "回测", "模拟盘", "提醒", "用量", "设置", "API 文档"];
  await expect(async () => {
    await more.focus();
    await page.keyboard.press("Enter");
    await expect(more).toHaveAttribute("aria-expanded", "true", { timeout: 1000 });
  }).toPass();
  const menu = page.locator(`[id="${await more.getAttribute("aria-controls")}"]`);
  await expect(menu.getByRole("link")).toHaveText(menuNames);
  await page.keyboard.press("Tab");
  await expect(menu.getByRole("link", { name: "选股" })).toBeFocused();
  await screenshot(page, { path: `${SCREENSHOT_DIR}/shell-phone-more.png` });
  await page.keyboard.press("Escape");
  await expect(more).toHaveAttribute("aria-expanded", "false");
  await expect(more).toBeFocused();
  await expect(menu).toBeHidden();

  // A press elsewhere closes it; Space opens it again.
  await page.keyboard.press(" ");
  await expect(more).toHaveAttribute("aria-expanded", "true");
  await pageTitle(page).click();
  await expect(more).toHaveAttribute("aria-expanded", "false");

  // Following a link of the menu navigates and closes the menu; "more" then holds the current page.
  await more.click();
  await menu.getByRole("link", { name: "信号" }).click();
  await expect(page).toHaveURL(/\/signals$/);
  await expect(pageTitle(page)).toHaveText(signals.zh);
  await expect(more).toHaveAttribute("aria-expanded", "false");
  await expectNav(page, signals, "zh");
  await more.click();
  await expect(menu.getByRole("link", { name: "信号" })).toHaveAttribute("aria-current", "page");
  await nav.getByRole("link", { name: "分析" }).click();
  await expect(more).toHaveAttribute("aria-expanded", "false");
  await expect(pageTitle(page)).toHaveText(analyze.zh);
  await expect(nav.getByRole("link", { name: "分析" })).toHaveAttribute("aria-current", "page");
});

test("21 §5: at desktop width the nav stays in the header as one row of all pages, and the bottom tab bar is not shown", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/history");
  const nav = page.getByRole("banner").getByRole("navigation", { name: "主导航" });
  await expect(nav.getByRole("link")).toHaveText([...UI_PAGES.map((p) => p.zh), "API 文档"]);
  const tops = await nav
    .getByRole("link")
    .evaluateAll((links) => links.map((l) => Math.round(l.getBoundingClientRect().top)));
  expect(new Set(tops).size, "one row").toBe(1);
  await expect(moreButton(page, "zh")).toHaveCount(0);
  await expect(page.locator("#phone-nav")).toBeHidden();
  await expectNav(page, history, "zh");
});

test("every page links the service's icon; /favicon.ico is a PNG the browser decodes (no 404 in the tab)", async ({
  page,
  request,
}) => {
  const res = await request.get("/favicon.ico");
  expect(res.status()).toBe(200);
  expect(res.headers()["content-type"]).toBe("image/png");
  expect([...(await res.body()).subarray(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
  for (const path of ["/", "/history", "/settings"]) {
    await page.goto(path);
    await expect(page.locator('head link[rel="icon"]')).toHaveAttribute("href", "/favicon.ico");
  }
  const size = await page.evaluate(async () => {
    const img = new Image();
    img.src = "/favicon.ico";
    await img.decode();
    return [img.naturalWidth, img.naturalHeight];
  });
  expect(size).toEqual([48, 48]);
});

test("the en UI spells the verb one way on every page: Analyse, never Analyze", async ({ page, context, baseURL }) => {
  await context.addCookies([{ name: "dsa_lang", value: "en", url: baseURL! }]);
  for (const { path } of UI_PAGES) {
    await page.goto(path);
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    const text = await page.locator("body").innerText();
    expect(text.match(/Analy[zs]\w*/g)?.filter((w) => w.includes("z")) ?? [], path).toEqual([]);
  }
  await expect(mainNav(page, "en").getByRole("link", { name: "Analyse", exact: true })).toBeVisible();
});
