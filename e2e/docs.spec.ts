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
