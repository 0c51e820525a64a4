import { expect, test } from "@playwright/test";

// The installable app: the manifest and its icons, the service worker, and the app shell and a page read once
// opening again offline, marked as the offline copy; a sign-in or sign-out clears what was read.

function pngSize(bytes: Buffer): { width: number; height: number } {
  expect(bytes.subarray(1, 4).toString("latin1")).toBe("PNG");
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

test("the web app manifest names the app, opens standalone and its icons are real PNGs of their sizes", async ({
  request,
  page,
}) => {
  const res = await request.get("/manifest.webmanifest");
  expect(res.status()).toBe(200);
  const manifest = (await res.json()) as {
    name: string;
    short_name: string;
    start_url: string;
    display: string;
    icons: { src: string; sizes: string; purpose: string }[];
  };
  expect(manifest).toMatchObject({ short_name: "DSA", start_url: "/", display: "standalone" });
  expect(manifest.icons.map((i) => i.purpose)).toEqual(["any", "any", "maskable"]);
  for (const icon of manifest.icons) {
    const png = await request.get(icon.src);
    expect(png.headers()["content-type"]).toBe("image/png");
    const [w, h] = icon.sizes.split("x").map(Number);
    expect(pngSize(await png.body())).toEqual({ width: w, height: h });
  }
  const worker = await request.get("/sw.js");
  expect(worker.status()).toBe(200);
  expect(worker.headers()["content-type"]).toMatch(/javascript/);

  await page.goto("/");
  await expect(page.locator('link[rel="manifest"]')).toHaveAttribute("href", /manifest\.webmanifest/);
  await expect(page.locator('meta[name="theme-color"]')).toHaveAttribute("content", "#1b5fd6");
});

test("after one visit the shell and a page read open offline; a sign-out clears the pages read", async ({
  page,
  context,
}) => {
  await page.goto("/");
  // The worker takes control of this first page and keeps it (the page tells it what it loaded).
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  await page.waitForFunction(async () => Boolean(await caches.match("/", { ignoreVary: true })));
  await page.goto("/signals");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await page.waitForFunction(async () => Boolean(await caches.match("/signals", { ignoreVary: true })));

  await context.setOffline(true);
  try {
    const home = await page.goto("/");
    expect(home!.headers()["x-dsa-offline-copy"]).toBe("1");
    await expect(page.getByRole("navigation", { name: "主导航" }).first()).toBeAttached();
    await expect(page.getByRole("link", { name: "DSA" }).first()).toBeVisible();

    const signals = await page.goto("/signals");
    expect(signals!.headers()["x-dsa-offline-copy"]).toBe("1");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();

    const unread = await page.goto("/usage");
    expect(unread!.status()).toBe(503);
    await expect(page.getByText("这个页面还没有离线副本")).toBeVisible();
  } finally {
    await context.setOffline(false);
  }

  await page.goto("/");
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  await page.evaluate(() => fetch("/api/v1/auth/logout", { method: "POST" }));
  await page.waitForFunction(async () => !(await caches.match("/signals", { ignoreVary: true })));
});
