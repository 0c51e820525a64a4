import { expect, test } from "@playwright/test";
import { PLATFORM, startFakePlatforms, type FakePlatforms } from "@/tests/kits/fake-platforms";
import { applySettings, readEnvText, restoreEnvText } from "./fixtures/env-file";

// The Settings page's chat-bot panel: which bots are on, what they miss, the URL each platform calls, and the
// self-test asking the platform (a local fake of Telegram's and WeCom's APIs stands in for them).

let originalEnv: string | null = null;
let platforms: FakePlatforms;

test.beforeAll(async ({ request }) => {
  originalEnv = readEnvText();
  platforms = await startFakePlatforms();
  platforms.telegramWebhookUrl = "https://dsa.example.com/webhooks/telegram";
  const env = platforms.env;
  await applySettings(request, {
    OUTBOUND_ALLOW_PRIVATE: "true",
    PUBLIC_BASE_URL: "https://dsa.example.com",
    TELEGRAM_API_BASE_URL: env.TELEGRAM_API_BASE_URL!,
    TELEGRAM_BOT_TOKEN: env.TELEGRAM_BOT_TOKEN!,
    TELEGRAM_BOT_MODE: "webhook",
    TELEGRAM_WEBHOOK_SECRET: env.TELEGRAM_WEBHOOK_SECRET!,
    BOT_ALLOWLIST: "telegram:111",
    WECOM_BOT_ENABLED: "true",
    WECOM_CORP_ID: PLATFORM.wecomCorpId,
    WECOM_CORP_SECRET: "a-wrong-corp-secret",
    WECOM_AGENT_ID: PLATFORM.wecomAgentId,
    WECOM_TOKEN: PLATFORM.wecomToken,
    WECOM_ENCODING_AES_KEY: PLATFORM.wecomAesKey,
    WECOM_API_BASE_URL: env.WECOM_API_BASE_URL!,
  });
});
test.afterAll(async () => {
  restoreEnvText(originalEnv);
  await platforms.close();
});

test("settings: the chat-bot panel shows each bot and self-tests it against the platform", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/settings");
  const panel = page.locator("section", { has: page.getByRole("heading", { name: "聊天机器人" }) });
  await expect(panel.getByRole("list", { name: "聊天机器人" }).getByRole("listitem").first()).toBeVisible();

  const telegram = panel.getByTestId("bot-telegram");
  await expect(telegram).toContainText("已开启");
  await expect(telegram).toContainText("https://dsa.example.com/webhooks/telegram");
  await expect(telegram).toContainText("白名单 1 项");
  await expect(panel.getByTestId("bot-feishu")).toContainText("未开启");

  await telegram.getByRole("button", { name: "自检" }).click();
  const result = telegram.getByTestId("bot-self-test");
  await expect(result).toContainText("自检通过");
  await expect(result).toContainText("@dsa_test_bot");

  // A wrong secret: the platform's refusal is shown, the secret is not.
  const wecom = panel.getByTestId("bot-wecom");
  await wecom.getByRole("button", { name: "自检" }).click();
  await expect(wecom.getByTestId("bot-self-test")).toContainText("自检未通过");
  await expect(wecom.getByTestId("bot-self-test")).toContainText("40001");
  await expect(wecom).not.toContainText("a-wrong-corp-secret");
  await expect(wecom).toContainText("白名单 0 项");

  // One-handed on a phone: the panel fits the screen.
  const overflow = await panel.evaluate((el) => el.scrollWidth - el.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});
