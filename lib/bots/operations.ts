import { ZErrorResponse } from "@/lib/errors/schemas";
import { defineOperation, type Operation } from "@/lib/operation/operation";
import { ZBotAck, ZBotPlatformParams, ZBotSelfTest, ZBotStatus } from "./schemas";

const TAGS = ["Chat bots"];
const COMMANDS =
  "Commands in zh or en, as in the agent chat: analyse a code or name (分析 600519, /analyze AAPL, or the code alone; " +
  "the reply follows when the analysis is done, with the share image where the platform takes images), the latest " +
  "report (报告, /history), quote (行情, /quote), watchlist (自选 / 加自选 / 删自选, /watch [add|remove]), signals " +
  "(信号, /signals), market (大盘, /market), backtest summary (回测, /backtest), help (帮助, /help); other text goes to " +
  "the agent chat when an AI model is configured. Only BOT_ALLOWLIST chats or users may command (others are told " +
  "once); BOT_RATE_LIMIT_PER_MINUTE per chat. The message is stored and answered by a queued task: the platform " +
  "gets its answer at once, the reply follows, after a restart too.";
const PLATFORM_ERRORS = {
  401: { description: "unauthorized: the signature, token or decryption check failed", schema: ZErrorResponse },
  404: { description: "not_found: this bot is switched off", schema: ZErrorResponse },
  503: { description: "service_unavailable: the bot is switched on but misses settings", schema: ZErrorResponse },
};

export const telegramWebhookOp = defineOperation({
  method: "POST",
  path: "/webhooks/telegram",
  operationId: "telegramBotWebhook",
  summary: "Telegram's updates (TELEGRAM_BOT_MODE=webhook; X-Telegram-Bot-Api-Secret-Token must match)",
  description: COMMANDS,
  tags: TAGS,
  public: true,
  responses: { 200: { description: "Accepted (the reply follows)", schema: ZBotAck }, ...PLATFORM_ERRORS },
});

export const feishuEventsOp = defineOperation({
  method: "POST",
  path: "/webhooks/feishu",
  operationId: "feishuBotEvents",
  summary: "Feishu's event subscription: URL verification and im.message.receive_v1 (token, signature, encryption)",
  description: COMMANDS,
  tags: TAGS,
  public: true,
  responses: {
    200: { description: "The challenge, or {} for an accepted event", schema: ZBotAck },
    ...PLATFORM_ERRORS,
  },
});

export const dingtalkWebhookOp = defineOperation({
  method: "POST",
  path: "/webhooks/dingtalk",
  operationId: "dingtalkBotWebhook",
  summary: "DingTalk's outgoing robot (timestamp and sign headers checked with DINGTALK_APP_SECRET)",
  description: COMMANDS,
  tags: TAGS,
  public: true,
  responses: { 200: { description: "Accepted (the reply follows)", schema: ZBotAck }, ...PLATFORM_ERRORS },
});

export const wecomVerifyOp = defineOperation({
  method: "GET",
  path: "/webhooks/wecom",
  operationId: "wecomBotVerify",
  summary: "WeCom's callback URL check: the decrypted echostr (msg_signature checked)",
  tags: TAGS,
  public: true,
  responses: { 200: { description: "The echostr, decrypted", contentType: "text/plain" }, ...PLATFORM_ERRORS },
});

export const wecomCallbackOp = defineOperation({
  method: "POST",
  path: "/webhooks/wecom",
  operationId: "wecomBotCallback",
  summary: "WeCom's encrypted message callback (msg_signature and AES checked)",
  description: COMMANDS,
  tags: TAGS,
  public: true,
  responses: {
    200: { description: "Empty: the reply follows by the message API", contentType: "text/plain" },
    ...PLATFORM_ERRORS,
  },
});

export const getBotStatusOp = defineOperation({
  method: "GET",
  path: "/api/v1/bots",
  operationId: "getBotStatus",
  summary: "Each chat bot: switched on, missing settings, its endpoint and the last day's messages",
  tags: TAGS,
  responses: { 200: { description: "Every platform", schema: ZBotStatus } },
});

export const botSelfTestOp = defineOperation({
  method: "POST",
  path: "/api/v1/bots/{platform}/self-test",
  operationId: "botSelfTest",
  summary: "Check a bot: its settings, the allowlist, and a call to the platform (getMe, the app's token)",
  tags: TAGS,
  params: ZBotPlatformParams,
  responses: { 200: { description: "Each check with what it found", schema: ZBotSelfTest } },
});

export const BOT_OPERATIONS: readonly Operation[] = [
  getBotStatusOp,
  botSelfTestOp,
  telegramWebhookOp,
  feishuEventsOp,
  dingtalkWebhookOp,
  wecomVerifyOp,
  wecomCallbackOp,
];
