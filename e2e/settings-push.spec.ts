import { expect, test } from "@playwright/test";
import { startReceiver, type Receiver } from "@/tests/kits/notify-receiver";
import { browserKeys, decryptPush } from "@/tests/kits/push-endpoint";
import { applySettings, readEnvText, restoreEnvText } from "./fixtures/env-file";

// The Settings page's push panel. Headless Chromium has no push service (its subscribe is refused), so the
// browser's own flow is followed up to that refusal, and a device subscribed through the API (as a phone would,
// its push endpoint a local receiver) is listed, gets a test push it can decrypt, and is removed from the page.

let originalEnv: string | null = null;
let pushService: Receiver;

test.beforeAll(async ({ request }) => {
  originalEnv = readEnvText();
  pushService = await startReceiver();
  pushService.answer = () => ({ status: 201, body: "" });
  await applySettings(request, { OUTBOUND_ALLOW_PRIVATE: "true" });
});
test.afterAll(async () => {
  restoreEnvText(originalEnv);
  await pushService.close();
});

test("settings: subscribe this browser to push, list a phone subscribed by the API, push to it, remove it", async ({
  page,
  context,
  request,
}) => {
  await context.grantPermissions(["notifications"]);
  await page.goto("/settings");
  const panel = page.locator("section", { has: page.getByRole("heading", { name: "手机推送" }) });
  await expect(panel.getByText("还没有设备订阅推送。")).toBeVisible();

  // The browser's flow: the key is fetched (made once), then the browser's push service is asked.
  const key = page.waitForResponse((r) => r.url().endsWith("/api/v1/push/vapid-key"));
  await panel.getByRole("button", { name: "在此设备接收推送" }).click();
  expect((await key).status()).toBe(200);
  const { public_key } = (await (await key).json()) as { public_key: string };
  await expect(panel.getByRole("alert").or(panel.getByRole("status"))).toBeVisible();

  // A phone subscribed through the API with that key.
  const phone = browserKeys();
  const made = await request.post("/api/v1/push/subscriptions", {
    data: { endpoint: `${pushService.baseUrl}/push/phone-1`, keys: phone.keys, label: "Chrome · Android" },
  });
  expect(made.status()).toBe(201);
  await page.reload();
  const device = panel.getByTestId("push-device").filter({ hasText: "Chrome · Android" });
  await expect(device).toContainText("尚未推送");
  expect((await (await request.post("/api/v1/push/vapid-key")).json()).public_key).toBe(public_key);

  const sent = await request.post("/api/v1/notifications/test", { data: { channels: ["webpush"] } });
  expect(sent.status()).toBe(200);
  const push = pushService.requests.find((r) => r.url === "/push/phone-1")!;
  expect(JSON.parse(decryptPush(push.raw, phone))).toMatchObject({ title: expect.any(String), url: "/settings" });
  await page.reload();
  await expect(device).toContainText("最近推送");

  await device.getByRole("button", { name: "移除" }).click();
  await expect(panel.getByText("还没有设备订阅推送。")).toBeVisible();
  expect(((await (await request.get("/api/v1/push/subscriptions")).json()) as { items: unknown[] }).items).toEqual([]);
});
