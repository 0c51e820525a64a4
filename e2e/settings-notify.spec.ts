import { expect, test } from "@playwright/test";
import { startReceiver, type Receiver } from "@/tests/kits/notify-receiver";
import { applySettings, readEnvText, restoreEnvText } from "./fixtures/env-file";

// The Settings page's notification panel: the channels that are on, a test message to them (a local webhook
// receiver stands in for the service), and the delivery log with each outcome.

let originalEnv: string | null = null;
let receiver: Receiver;

test.beforeAll(async ({ request }) => {
  originalEnv = readEnvText();
  receiver = await startReceiver();
  // The receiver listens on 127.0.0.1, which the outbound policy refuses by default.
  await applySettings(request, {
    OUTBOUND_ALLOW_PRIVATE: "true",
    CUSTOM_WEBHOOK_URLS: `${receiver.baseUrl}/hook`,
    NOTIFICATION_RETRY_ATTEMPTS: "1",
  });
});
test.afterAll(async () => {
  restoreEnvText(originalEnv);
  await receiver.close();
});

test("settings: the notification panel lists the channels, sends a test message and shows the delivery", async ({
  page,
}) => {
  await page.goto("/settings");
  const panel = page.locator("section", { has: page.getByRole("heading", { name: "通知渠道" }) });
  await expect(panel.getByRole("list", { name: "通知渠道" }).getByRole("listitem")).toHaveText(["custom"]);

  await panel.getByRole("button", { name: "发送测试消息" }).click();
  await expect(panel.getByRole("status")).toHaveText("测试消息已由 1 个渠道中的 1 个送达。");
  expect(receiver.requests).toHaveLength(1);
  expect(receiver.requests[0]!.json).toMatchObject({ kind: "test", title: "DSA 测试通知" });
  const first = panel.getByTestId("delivery").first();
  await expect(first).toContainText("custom");
  await expect(first).toContainText("已发送");
  await expect(first).toContainText("DSA 测试通知");

  // A failing channel shows its reason, without the webhook's path.
  receiver.answer = () => ({ status: 500, body: { error: "down" } });
  await panel.getByRole("button", { name: "发送测试消息" }).click();
  await expect(panel.getByRole("alert")).toHaveText("测试消息已由 1 个渠道中的 0 个送达。");
  await expect(panel.getByTestId("delivery").first()).toContainText("失败");
  await expect(panel.getByTestId("delivery").first()).toContainText("HTTP 500");
});
