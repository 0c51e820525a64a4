import type { TSettings } from "@/lib/settings/settings-schema";
import { astrbotTarget } from "./astrbot";
import { customWebhookTarget } from "./custom-webhook";
import { dingtalkTarget } from "./dingtalk";
import { discordBotTarget, discordTarget } from "./discord";
import { emailTarget } from "./email";
import { feishuAppTarget, feishuTarget } from "./feishu";
import { gotifyTarget } from "./gotify";
import { ntfyTarget } from "./ntfy";
import { pushoverTarget } from "./pushover";
import { pushplusTarget } from "./pushplus";
import { serverchanTarget } from "./serverchan";
import { slackBotTarget, slackTarget } from "./slack";
import type { ChannelTarget } from "./target";
import { telegramTarget } from "./telegram";
import { webPushTarget } from "./webpush";
import { wechatTarget } from "./wechat";

export type { ChannelTarget, SendContext } from "./target";

/** Every channel whose settings are filled in; an empty setting leaves its channel off. */
export function configuredTargets(settings: Readonly<TSettings>): ChannelTarget[] {
  const targets: ChannelTarget[] = settings.CUSTOM_WEBHOOK_URLS.map((url, index) =>
    customWebhookTarget(
      { url, bearerToken: settings.CUSTOM_WEBHOOK_BEARER_TOKEN, bodyTemplate: settings.CUSTOM_WEBHOOK_BODY_TEMPLATE },
      index,
    ),
  );
  if (settings.WECHAT_WEBHOOK_URL !== "") targets.push(wechatTarget(settings.WECHAT_WEBHOOK_URL));
  if (settings.FEISHU_WEBHOOK_URL !== "") {
    targets.push(
      feishuTarget({
        webhookUrl: settings.FEISHU_WEBHOOK_URL,
        secret: settings.FEISHU_WEBHOOK_SECRET,
        keyword: settings.FEISHU_WEBHOOK_KEYWORD,
      }),
    );
  }
  // App mode is a delivery of its own ("feishu-app"), next to the webhook when both are set.
  if (settings.FEISHU_APP_ID !== "" && settings.FEISHU_APP_SECRET !== "" && settings.FEISHU_CHAT_ID !== "") {
    targets.push(
      feishuAppTarget({
        appId: settings.FEISHU_APP_ID,
        appSecret: settings.FEISHU_APP_SECRET,
        chatId: settings.FEISHU_CHAT_ID,
      }),
    );
  }
  if (settings.DINGTALK_WEBHOOK_URL !== "")
    targets.push(dingtalkTarget({ webhookUrl: settings.DINGTALK_WEBHOOK_URL, secret: settings.DINGTALK_SECRET }));
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
  // Discord: the webhook when set (as the reference does), else the bot.
  if (settings.DISCORD_WEBHOOK_URL !== "") targets.push(discordTarget(settings.DISCORD_WEBHOOK_URL));
  else if (settings.DISCORD_BOT_TOKEN !== "" && settings.DISCORD_MAIN_CHANNEL_ID !== "") {
    targets.push(
      discordBotTarget({ botToken: settings.DISCORD_BOT_TOKEN, channelId: settings.DISCORD_MAIN_CHANNEL_ID }),
    );
  }
  // Slack: the bot is preferred over the webhook when both are set.
  if (settings.SLACK_BOT_TOKEN !== "" && settings.SLACK_CHANNEL_ID !== "") {
    targets.push(slackBotTarget({ botToken: settings.SLACK_BOT_TOKEN, channelId: settings.SLACK_CHANNEL_ID }));
  } else if (settings.SLACK_WEBHOOK_URL !== "") targets.push(slackTarget(settings.SLACK_WEBHOOK_URL));
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
  if (settings.PUSHOVER_USER_KEY !== "" && settings.PUSHOVER_API_TOKEN !== "") {
    targets.push(pushoverTarget({ userKey: settings.PUSHOVER_USER_KEY, apiToken: settings.PUSHOVER_API_TOKEN }));
  }
  if (settings.NTFY_URL !== "") targets.push(ntfyTarget({ url: settings.NTFY_URL, token: settings.NTFY_TOKEN }));
  if (settings.GOTIFY_URL !== "" && settings.GOTIFY_TOKEN !== "")
    targets.push(gotifyTarget({ url: settings.GOTIFY_URL, token: settings.GOTIFY_TOKEN }));
  if (settings.PUSHPLUS_TOKEN !== "")
    targets.push(pushplusTarget({ token: settings.PUSHPLUS_TOKEN, topic: settings.PUSHPLUS_TOPIC }));
  if (settings.SERVERCHAN3_SENDKEY !== "") targets.push(serverchanTarget({ sendkey: settings.SERVERCHAN3_SENDKEY }));
  if (settings.ASTRBOT_URL !== "")
    targets.push(astrbotTarget({ url: settings.ASTRBOT_URL, token: settings.ASTRBOT_TOKEN }));
  // On once a browser asked for the key pair (the first subscription generates it).
  if (settings.WEB_PUSH_VAPID_PUBLIC_KEY !== "" && settings.WEB_PUSH_VAPID_PRIVATE_KEY !== "")
    targets.push(webPushTarget());
  return targets;
}
