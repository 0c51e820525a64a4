import AxeBuilder from "@axe-core/playwright";
import { expect, test, type APIRequestContext, type Page, type TestInfo } from "@playwright/test";
import { applySettings, setAdminAuth, withSampleData } from "./fixtures/env-file";
import { openMoreMenu, pageTitle, screenshot, SCREENSHOT_DIR, UI_PAGES } from "./fixtures/ui";
import { markSeededRows } from "./fixtures/e2e-db";

// "Buttons have accessible names; contrast passes axe's rules … assert no serious violations on every
// page". Every UI page (plus the report page, and /login) is checked by axe-core with the WCAG 2 A and AA rules in
// four looks (zh-CN light and en dark at desktop width, and the same two on a 390px phone, where the bottom tab bar
// replaces the top nav: in the suite one look per page, in turn; all four in `npm run test:exhaustive`); then the phone's open "more" menu and the login form. The pages run on the offline sample data with a little seeded data
// (one analysed stock, a portfolio trade, an alert rule), so tables, badges and charts are on screen, not only empty
// states. The full axe results of each check are attached to the test report; screenshots go to
// test-results/screenshots/a11y-*.png.

withSampleData(0);

const WCAG_TAGS = ["wcag2a", "wcag2aa"];
const BLOCKING_IMPACTS = new Set(["serious", "critical"]);

type Look = { name: string; width: number; height: number; lang: "zh-CN" | "en"; theme: "light" | "dark" };
const LOOKS: readonly Look[] = [
  { name: "zh-light", width: 1440, height: 900, lang: "zh-CN", theme: "light" },
  { name: "en-dark", width: 1440, height: 900, lang: "en", theme: "dark" },
  { name: "phone", width: 390, height: 844, lang: "zh-CN", theme: "light" },
  { name: "phone-en-dark", width: 390, height: 844, lang: "en", theme: "dark" },
];

// ---- seeded data: made through the API as a user would, removed again afterwards (rows above the ids seen first).

let unseed: () => void = () => undefined;
let reportId: number | null = null;

async function seed(request: APIRequestContext): Promise<void> {
  unseed = markSeededRows();
  const analysed = await request.post("/api/v1/analysis/analyze", {
    data: { stock_code: "600519", async_mode: false, notify: false },
  });
  expect(analysed.ok(), `analyse 600519 on sample data (HTTP ${analysed.status()})`).toBe(true);
  reportId = ((await analysed.json()) as { report: { meta: { id: number } } }).report.meta.id;

  const account = await request.post("/api/v1/portfolio/accounts", {
    data: { name: "A11y 账户", market: "cn", base_currency: "CNY" },
  });
  expect(account.ok(), `create a portfolio account (HTTP ${account.status()})`).toBe(true);
  const accountId = ((await account.json()) as { id: number }).id;
  const trade = await request.post("/api/v1/portfolio/trades", {
    data: {
      account_id: accountId,
      symbol: "600519",
      trade_date: "2025-06-02",
      side: "buy",
      quantity: 100,
      price: 1500,
      fee: 5,
      tax: 0,
    },
  });
  expect(trade.ok(), `record a trade (HTTP ${trade.status()})`).toBe(true);

  const rule = await request.post("/api/v1/alerts/rules", {
    data: { alert_type: "price_cross", target: "600519", parameters: { direction: "above", price: 1 } },
  });
  expect(rule.ok(), `create an alert rule (HTTP ${rule.status()})`).toBe(true);
  await request.post("/api/v1/alerts/evaluate");
}

test.beforeAll(async ({ request }) => {
  await applySettings(request, { STOCK_LIST: "600519,00700,AAPL" });
  await seed(request);
});
test.afterAll(() => unseed());

// ---- the check

type Target = { slug: string; path: () => string; title?: { zh: string; en: string } };

const TARGETS: readonly Target[] = [
  ...UI_PAGES.map((p) => ({ slug: p.slug, path: () => p.path, title: { zh: p.zh, en: p.en } })),
  { slug: "report", path: () => `/history/${reportId}` },
  { slug: "login", path: () => "/login" },
];

async function openInLook(page: Page, baseURL: string, target: Target, look: Look): Promise<void> {
  await page.setViewportSize({ width: look.width, height: look.height });
  await page.emulateMedia({ colorScheme: look.theme });
  await page.context().addCookies([
    { name: "dsa_lang", value: look.lang, url: baseURL },
    { name: "dsa_theme", value: look.theme, url: baseURL },
  ]);
  const response = await page.goto(target.path());
  expect(response?.status(), `${target.path()} answers`).toBe(200);
  await expect(page.locator("html")).toHaveAttribute("lang", look.lang);
  await expect(pageTitle(page)).toBeVisible();
  if (target.title) await expect(pageTitle(page)).toHaveText(look.lang === "en" ? target.title.en : target.title.zh);
  // Fonts load and the client components' first effects paint before axe reads colours and names.
  await page.evaluate(async () => {
    await document.fonts.ready;
    for (let frame = 0; frame < 2; frame += 1)
      await new Promise((resolve) => requestAnimationFrame(() => resolve(undefined)));
  });
}

type Violation = {
  id: string;
  impact?: string | null;
  help: string;
  nodes: { target: unknown[]; failureSummary?: string }[];
};

/** Runs axe on the page as it is now, attaches the results, and fails on serious or critical violations. */
async function expectNoSeriousViolations(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const results = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
  await testInfo.attach(`axe-${name}.json`, {
    body: JSON.stringify(results, null, 2),
    contentType: "application/json",
  });
  const blocking = (results.violations as Violation[]).filter((v) => BLOCKING_IMPACTS.has(v.impact ?? ""));
  const summary = blocking.map((v) => ({
    rule: v.id,
    impact: v.impact,
    help: v.help,
    nodes: v.nodes
      .slice(0, 8)
      .map((n) => ({ target: n.target.join(" "), why: n.failureSummary?.split("\n").slice(0, 3).join(" ") })),
    count: v.nodes.length,
  }));
  expect(summary, `serious/critical axe violations on ${name}`).toEqual([]);
}

// The suite checks each target in one look, the looks taken in turn so each is checked on a quarter of the targets;
// `npm run test:exhaustive` (DSA_EXHAUSTIVE=1) checks every target in every look.
const EXHAUSTIVE = process.env.DSA_EXHAUSTIVE === "1";

TARGETS.forEach((target, index) => {
  test.describe(`axe on ${target.slug}`, () => {
    for (const look of EXHAUSTIVE ? LOOKS : [LOOKS[index % LOOKS.length]!]) {
      test(`21 §5: ${target.slug} in ${look.name} has no serious or critical WCAG 2 A/AA violations`, async ({
        page,
        baseURL,
      }, testInfo) => {
        await openInLook(page, baseURL!, target, look);
        await screenshot(page, { path: `${SCREENSHOT_DIR}/a11y-${target.slug}-${look.name}.png`, fullPage: true });
        await expectNoSeriousViolations(page, testInfo, `${target.slug}-${look.name}`);
      });
    }
  });
});

test.describe("axe on interactive states", () => {
  test("21 §5: the phone's bottom tab bar with its 'more' menu open has no serious violations", async ({
    page,
    baseURL,
  }, testInfo) => {
    for (const look of LOOKS.filter((l) => l.width < 768)) {
      await openInLook(page, baseURL!, TARGETS.find((t) => t.slug === "settings")!, look);
      expect(await openMoreMenu(page, look.lang === "en" ? "en" : "zh"), "the phone nav has a 'more' menu").toBe(true);
      await screenshot(page, { path: `${SCREENSHOT_DIR}/a11y-nav-more-${look.name}.png` });
      await expectNoSeriousViolations(page, testInfo, `nav-more-${look.name}`);
    }
  });

  // Last: switches admin auth on (the login form instead of the "auth is off" note) and back off again.
  test("21 §5: the login page's password form (auth on) has no serious violations", async ({
    page,
    baseURL,
    request,
  }, testInfo) => {
    await setAdminAuth(request, true);
    try {
      for (const look of LOOKS.filter((l) => l.name === "zh-light" || l.name === "phone-en-dark")) {
        await openInLook(page, baseURL!, { slug: "login", path: () => "/login" }, look);
        await expect(page.locator('input[type="password"]').first()).toBeVisible();
        await screenshot(page, { path: `${SCREENSHOT_DIR}/a11y-login-form-${look.name}.png`, fullPage: true });
        await expectNoSeriousViolations(page, testInfo, `login-form-${look.name}`);
      }
    } finally {
      await setAdminAuth(request, false);
    }
  });
});
