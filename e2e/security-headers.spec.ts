import { expect, test, type Page } from "@playwright/test";
import { screenshot } from "./fixtures/ui";

// The Content-Security-Policy on every page must not break any page: each renders with no CSP
// violation (console or securitypolicyviolation event), and the headers are on the document response.

const PAGES = [
  "/",
  "/history",
  "/market",
  "/chat",
  "/signals",
  "/alerts",
  "/portfolio",
  "/usage",
  "/backtest",
  "/settings",
  "/login",
  "/docs",
];

async function watchViolations(page: Page): Promise<string[]> {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy|Content-Security-Policy/i.test(message.text())) violations.push(message.text());
  });
  await page.exposeFunction("reportCspViolation", (text: string) => violations.push(text));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      (window as unknown as { reportCspViolation: (t: string) => void }).reportCspViolation(
        `${event.violatedDirective} ${event.blockedURI}`,
      );
    });
  });
  return violations;
}

test("every page renders under the CSP with no violation and carries the security headers", async ({ page }) => {
  const violations = await watchViolations(page);
  for (const path of PAGES) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBeLessThan(400);
    const headers = response!.headers();
    expect(headers["content-security-policy"], path).toContain("frame-ancestors 'none'");
    expect(headers["x-content-type-options"], path).toBe("nosniff");
    expect(headers["referrer-policy"], path).toBeTruthy();
    await page.waitForLoadState("networkidle");
    if (path === "/docs")
      await expect(page.getByRole("heading", { name: /DSA stock analysis service/ })).toBeVisible({ timeout: 20_000 });
    else await expect(page.locator("main, form").first()).toBeVisible();
    expect(violations, `CSP violations on ${path}`).toEqual([]);
  }
  await page.goto("/history");
  await screenshot(page, { path: "test-results/screenshots/security-headers-history.png", fullPage: false });
});

test("a page cannot be framed by another site (frame-ancestors 'none')", async ({ page, baseURL }) => {
  await page.setContent(`<iframe id="f" src="${baseURL}/history" style="width:400px;height:300px"></iframe>`);
  const frame = page.frameLocator("#f");
  await expect(frame.locator("main")).toHaveCount(0, { timeout: 5_000 });
});
