import fs from "node:fs";
import { expect, test } from "@playwright/test";
import { screenshot } from "./fixtures/ui";

test("4.1 /docs renders the OpenAPI document offline (no external host contacted)", async ({ page, baseURL }) => {
  const external: string[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (!["127.0.0.1", "localhost"].includes(url.hostname) && url.protocol.startsWith("http"))
      external.push(request.url());
  });
  await page.goto("/docs");
  await expect(page.getByRole("heading", { name: /DSA stock analysis service/ })).toBeVisible({ timeout: 20_000 });
  await expect(page.getByText("Liveness check").first()).toBeVisible();
  await screenshot(page, { path: "test-results/screenshots/docs.png", fullPage: false });
  expect(external, `requests left the machine from ${baseURL}/docs`).toEqual([]);
});

test("/docs names the service's and the API contract's versions apart and links back to the app", async ({ page }) => {
  const { version } = JSON.parse(fs.readFileSync("package.json", "utf8")) as { version: string };
  await page.goto("/docs");
  const bar = page.getByRole("navigation", { name: "DSA" });
  await expect(bar).toContainText(`DSA ${version} · API contract `);
  // The document's own version is the API contract's, the one the bar names.
  const apiVersion = ((await (await page.request.get("/openapi.json")).json()) as { info: { version: string } }).info
    .version;
  await expect(bar).toContainText(`API contract ${apiVersion}`);
  await bar.getByRole("link", { name: "← DSA" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("banner").getByRole("navigation", { name: "主导航" })).toBeVisible();
});

test.describe("the header's API docs link", () => {
  test.use({
    locale: "en-US",
    extraHTTPHeaders: { "Accept-Language": "en-US,en;q=0.9" },
    viewport: { width: 1024, height: 700 },
  });

  test("stays in view in the en header however long the page labels run (only the pages scroll)", async ({ page }) => {
    await page.goto("/settings");
    const nav = page.getByRole("banner").getByRole("navigation", { name: "Main navigation" });
    const docs = nav.getByRole("link", { name: "API docs" });
    await expect(docs).toBeVisible();
    const [link, box] = [await docs.boundingBox(), await nav.boundingBox()];
    expect(link!.x).toBeGreaterThanOrEqual(box!.x);
    expect(link!.x + link!.width).toBeLessThanOrEqual(box!.x + box!.width + 0.5);
    // Nothing covers or clips it: the point at its centre is the link itself.
    const hit = await page.evaluate(
      ([x, y]) => document.elementFromPoint(x!, y!)?.closest("a")?.getAttribute("href") ?? null,
      [link!.x + link!.width / 2, link!.y + link!.height / 2],
    );
    expect(hit).toBe("/docs");
    await screenshot(page, { path: "test-results/screenshots/header-en-1024.png", fullPage: false });
  });
});
