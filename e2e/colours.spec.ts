import { expect, test, type APIRequestContext, type BrowserContext, type Locator, type Page } from "@playwright/test";
import { withSampleData } from "./fixtures/env-file";
import { screenshot, SCREENSHOT_DIR } from "./fixtures/ui";

// Price colours follow the user's market convention. Red up / green down for China-style users, green
// up / red down for the others: a Settings control (涨跌颜色 / Price colours) whose default follows the UI language
// (zh-CN red up, en green up), applied to every price and change, and to the share image, whose default is the
// report's language and which takes ?colors=red_up|green_up. The server runs on sample data here.

withSampleData(0);

type Hue = "red" | "green" | "other";
type Convention = "red_up" | "green_up";

const HUES: Record<Convention, { up: Hue; down: Hue }> = {
  red_up: { up: "red", down: "green" },
  green_up: { up: "green", down: "red" },
};

/** A colour's hue family from its sRGB channels (Tailwind 4 colours compute to oklch(), so a canvas converts them). */
function hueOf([r, g, b]: readonly number[]): Hue {
  if (r! > 100 && r! > 1.5 * g! && r! > 1.5 * b!) return "red";
  if (g! > 80 && g! > 1.3 * r! && g! > b!) return "green";
  return "other";
}

/** Direction (data-direction) and rendered text colour of every element a locator matches. */
async function directionColours(elements: Locator): Promise<{ direction: string; rgb: number[] }[]> {
  return elements.evaluateAll((nodes) => {
    const ctx = document.createElement("canvas").getContext("2d", { willReadFrequently: true })!;
    return nodes.map((node) => {
      ctx.clearRect(0, 0, 1, 1);
      ctx.fillStyle = getComputedStyle(node).color;
      ctx.fillRect(0, 0, 1, 1);
      return {
        direction: node.getAttribute("data-direction") ?? "",
        rgb: Array.from(ctx.getImageData(0, 0, 1, 1).data.slice(0, 3)),
      };
    });
  });
}

/** Every rising element shows the convention's "up" hue and every falling one its "down" hue; at least one moves. */
async function expectConvention(elements: Locator, convention: Convention): Promise<void> {
  await expect(elements.first()).toBeVisible();
  const seen = await directionColours(elements);
  const moving = seen.filter((s) => s.direction === "up" || s.direction === "down");
  expect(moving.length, "at least one rising or falling figure").toBeGreaterThan(0);
  for (const { direction, rgb } of moving) {
    expect(hueOf(rgb), `${direction} in ${convention} (rgb ${rgb.join(",")})`).toBe(
      HUES[convention][direction as "up" | "down"],
    );
  }
}

const indexPrices = (page: Page) =>
  page.locator('[data-testid="index-strip"][data-region="cn"] [data-testid="index-price"]');
const settingsPreview = (page: Page) => page.getByTestId("price-colors-preview").locator("[data-direction]");
const priceColorsGroup = (page: Page) => page.getByTestId("price-colors");

async function openMarket(page: Page): Promise<void> {
  const response = await page.goto("/market?region=cn");
  expect(response?.status()).toBe(200);
  await expect(page.locator('[data-testid="index-strip"][data-region="cn"]')).toBeVisible();
}

async function renderedConvention(page: Page): Promise<string | null> {
  return page.locator("style#price-colors").getAttribute("data-colors");
}

async function setLanguage(
  context: BrowserContext,
  baseURL: string | undefined,
  locale: "zh-CN" | "en",
): Promise<void> {
  await context.addCookies([{ name: "dsa_lang", value: locale, url: baseURL! }]);
}

async function screenshots(page: Page, name: string): Promise<void> {
  await screenshot(page, { path: `${SCREENSHOT_DIR}/colours-${name}.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await screenshot(page, { path: `${SCREENSHOT_DIR}/colours-${name}-phone.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 720 });
}

test.describe("price colours follow the market convention", () => {
  test("21 §4: the zh-CN UI shows rises in red and falls in green by default, in light and dark mode", async ({
    page,
  }) => {
    await openMarket(page);
    expect(await renderedConvention(page)).toBe("red_up");
    await expectConvention(indexPrices(page), "red_up");
    await screenshots(page, "zh-red-up");
    await page.emulateMedia({ colorScheme: "dark" });
    await expectConvention(indexPrices(page), "red_up");
    await page.emulateMedia({ colorScheme: "light" });

    await page.goto("/settings");
    await expect(priceColorsGroup(page).getByRole("radio", { name: /跟随语言/ })).toBeChecked();
    await expectConvention(settingsPreview(page), "red_up");
  });

  test("21 §4: the en UI shows rises in green and falls in red by default", async ({ page, context, baseURL }) => {
    await setLanguage(context, baseURL, "en");
    await openMarket(page);
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    expect(await renderedConvention(page)).toBe("green_up");
    await expectConvention(indexPrices(page), "green_up");
    await screenshots(page, "en-green-up");

    await page.goto("/settings");
    await expect(priceColorsGroup(page).getByRole("radio", { name: /Follow language/ })).toBeChecked();
    await expectConvention(settingsPreview(page), "green_up");
  });

  test("21 §4: the setting flips the colours on every page, wins over the language, and 'follow language' restores the default", async ({
    page,
    context,
    baseURL,
  }) => {
    await page.goto("/settings");
    const group = priceColorsGroup(page);
    await group.getByRole("radio", { name: "绿涨红跌", exact: true }).check();
    // The cookie is written and the page renders again (router.refresh()): the preview takes the new colours.
    await expect(group).toHaveAttribute("data-colors", "green_up");
    await expectConvention(settingsPreview(page), "green_up");
    expect((await context.cookies()).find((c) => c.name === "dsa_colors")?.value).toBe("green_up");
    await group.scrollIntoViewIfNeeded();
    await screenshots(page, "settings-green-up");

    await openMarket(page);
    expect(await renderedConvention(page)).toBe("green_up");
    await expectConvention(indexPrices(page), "green_up");
    await screenshots(page, "zh-green-up");

    // The user's choice wins over the language: red up in the en UI too.
    await page.goto("/settings");
    await priceColorsGroup(page).getByRole("radio", { name: "红涨绿跌", exact: true }).check();
    await expect(priceColorsGroup(page)).toHaveAttribute("data-colors", "red_up");
    await setLanguage(context, baseURL, "en");
    await openMarket(page);
    await expectConvention(indexPrices(page), "red_up");

    // Follow language: back to the en default (green up), and red up again in zh-CN.
    await page.goto("/settings");
    await priceColorsGroup(page)
      .getByRole("radio", { name: /Follow language/ })
      .check();
    await expect(priceColorsGroup(page)).toHaveAttribute("data-colors", "green_up");
    await expectConvention(settingsPreview(page), "green_up");
    await setLanguage(context, baseURL, "zh-CN");
    await openMarket(page);
    await expectConvention(indexPrices(page), "red_up");
  });

  test("21 §4: the share image of a zh report is red up by default and green up with ?colors=green_up", async ({
    page,
    request,
  }) => {
    const { id, changePct } = await movingZhReport(request);
    const note = `${changePct > 0 ? "+" : ""}${changePct.toFixed(2)}%`;
    const direction = changePct > 0 ? "up" : "down";

    for (const [query, convention] of [
      ["", "red_up"],
      ["?colors=green_up", "green_up"],
      ["?colors=red_up", "red_up"],
    ] as const) {
      const response = await page.goto(`/api/v1/history/${id}/share-image-html${query}`);
      expect(response?.status()).toBe(200);
      await expect(page.locator('meta[name="price-colors"]')).toHaveAttribute("content", convention);
      // The price tile's change note (the first box with exactly that text: the hero comes first).
      const rgb = await page.evaluate((text) => {
        const box = Array.from(document.querySelectorAll("div")).find(
          (d) => d.children.length === 0 && d.textContent === text,
        );
        if (!box) return null;
        const ctx = document.createElement("canvas").getContext("2d")!;
        ctx.fillStyle = getComputedStyle(box).color;
        ctx.fillRect(0, 0, 1, 1);
        return Array.from(ctx.getImageData(0, 0, 1, 1).data.slice(0, 3));
      }, note);
      expect(rgb, `the change ${note} is on the card`).not.toBeNull();
      expect(hueOf(rgb!), `${direction} (${note}) in ${convention}`).toBe(HUES[convention][direction]);
      if (query !== "?colors=red_up")
        await screenshot(page, { path: `${SCREENSHOT_DIR}/colours-share-${convention}.png`, fullPage: true });
    }

    // The PNG takes the same parameter; anything but the two conventions is refused.
    expect((await request.get(`/api/v1/history/${id}/share-image?colors=green_up`)).status()).toBe(200);
    expect((await request.get(`/api/v1/history/${id}/share-image-html?colors=blue_up`)).status()).toBe(422);
  });
});

/** A zh report (sync analysis on sample data) whose price moved on the day, so its colour says up or down. */
async function movingZhReport(request: APIRequestContext): Promise<{ id: number; changePct: number }> {
  for (const code of ["600519", "000001", "601318", "000858"]) {
    const response = await request.post("/api/v1/analysis/analyze", {
      data: { stock_code: code, report_type: "detailed", report_language: "zh", async_mode: false },
    });
    expect(response.status(), `analyze ${code}`).toBe(200);
    const { meta } = ((await response.json()) as { report: { meta: { id: number; change_pct: number | null } } })
      .report;
    if (meta.change_pct !== null && meta.change_pct !== 0) return { id: meta.id, changePct: meta.change_pct };
  }
  throw new Error("no sample stock moved on the day");
}
