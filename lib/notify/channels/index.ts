import type { TSettings } from "@/lib/config/settings-schema";
import { customWebhookTarget } from "./custom-webhook";
import { dingtalkTarget } from "./dingtalk";
import { discordTarget } from "./discord";
import { emailTarget } from "./email";
import { feishuTarget } from "./feishu";
import { slackTarget } from "./slack";
import type { ChannelTarget } from "./target";
import { telegramTarget } from "./telegram";
import { wechatTarget } from "./wechat";

export type { ChannelTarget, SendContext } from "./target";

/** Every channel whose settings are filled in; an empty setting leaves its channel off. */
export function configuredTargets(settings: Readonly<TSettings>): ChannelTarget[] {
  const targets: ChannelTarget[] = settings.CUSTOM_WEBHOOK_URLS.map((url, index) =>
    customWebhookTarget({ url, bearerToken: settings.CUSTOM_WEBHOOK_BEARER_TOKEN, bodyTemplate: settings.CUSTOM_WEBHOOK_BODY_TEMPLATE }, index),
  );
  if (settings.WECHAT_WEBHOOK_URL !== "") targets.push(wechatTarget(settings.WECHAT_WEBHOOK_URL));
  if (settings.FEISHU_WEBHOOK_URL !== "") {
    targets.push(feishuTarget({ webhookUrl: settings.FEISHU_WEBHOOK_URL, secret: settings.FEISHU_WEBHOOK_SECRET, keyword: settings.FEISHU_WEBHOOK_KEYWORD }));
  }
  if (settings.DINGTALK_WEBHOOK_URL !== "") targets.push(dingtalkTarget({ webhookUrl: settings.DINGTALK_WEBHOOK_URL, secret: settings.DINGTALK_SECRET }));
  if (settings.TELEGRAM_BOT_TOKEN !== "" && settings.TELEGRAM_CHAT_ID !== "") {
    targets.push(
      telegramTarget({
        apiBaseUrl: settings.TELEGRAM_API_BASE_URL,
        botToken: settings.TELEGRAM_BOT_TOKEN,
        chatId: settings.TELEGRAM_CHAT_ID,
        threadId: settings.TELEGRAM_MESSAGE_THREAD_ID,
      }),
    );
  }
  if (settings.DISCORD_WEBHOOK_URL !== "") targets.push(discordTarget(settings.DISCORD_WEBHOOK_URL));
  if (settings.SLACK_WEBHOOK_URL !== "") targets.push(slackTarget(settings.SLACK_WEBHOOK_URL));
  if (settings.EMAIL_SENDER !== "" && (settings.EMAIL_PASSWORD !== "" || settings.EMAIL_SMTP_HOST !== "")) {
    targets.push(
      emailTarget({
        sender: settings.EMAIL_SENDER,
        password: settings.EMAIL_PASSWORD,
        receivers: settings.EMAIL_RECEIVERS,
        host: settings.EMAIL_SMTP_HOST,
        port: settings.EMAIL_SMTP_PORT,
      }),
    );
  }
  return targets;
}
