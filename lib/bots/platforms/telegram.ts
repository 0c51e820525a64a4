import { FormData } from "undici";
import { z } from "zod";
import { DeliveryError } from "@/lib/notify/http";
import { fitMessage, markdownToPlain, utf16Units } from "@/lib/notify/text";
import { getSettings } from "@/lib/settings/settings";
import type { TSettings } from "@/lib/settings/settings-schema";
import { callPlatform } from "../http";
import { acceptMessage } from "../inbox";
import { sameText } from "../signatures";
import type { InboundMessage, PlatformAnswer, PlatformClient, WebhookRequest } from "../types";
import { badSignature, botOff, missingOf, notConfigured, parseJsonBody } from "./common";

// Telegram: updates by webhook (Telegram sends setWebhook's secret_token in a header) or by long polling
// (telegram-polling.ts); replies with sendMessage and, for an analysis, sendPhoto.

const MAX_CHARS = 4096;

const ZUpdate = z.object({
  update_id: z.number().int(),
  message: z
    .object({
      message_id: z.number().int(),
      message_thread_id: z.number().int().optional(),
      from: z
        .object({ id: z.number(), is_bot: z.boolean().optional(), language_code: z.string().optional() })
        .optional(),
      chat: z.object({ id: z.number(), type: z.string() }),
      text: z.string().optional(),
    })
    .optional(),
});

/** A text message from a person, reduced to what a command needs; null for anything else (stickers, bots, edits). */
export function inboundFromUpdate(raw: unknown): InboundMessage | null {
  const parsed = ZUpdate.safeParse(raw);
  if (!parsed.success) return null;
  const message = parsed.data.message;
  if (!message?.text || message.from?.is_bot) return null;
  const language = message.from?.language_code?.toLowerCase() ?? "";
  return {
    platform: "telegram",
    messageId: `${message.chat.id}:${message.message_id}`,
    chatId: String(message.chat.id),
    userId: String(message.from?.id ?? message.chat.id),
    text: message.text,
    replyTo: {
      chat_id: message.chat.id,
      message_id: message.message_id,
      thread_id: message.message_thread_id ?? null,
    },
    languageHint: language.startsWith("zh") ? "zh" : language.startsWith("en") ? "en" : null,
  };
}

// POST /webhooks/telegram
export async function receiveTelegramWebhook(request: WebhookRequest): Promise<PlatformAnswer> {
  const settings = getSettings();
  if (settings.TELEGRAM_BOT_MODE !== "webhook") throw botOff("Telegram", "TELEGRAM_BOT_MODE is not webhook");
  const missing = missingOf({
    TELEGRAM_BOT_TOKEN: settings.TELEGRAM_BOT_TOKEN,
    TELEGRAM_WEBHOOK_SECRET: settings.TELEGRAM_WEBHOOK_SECRET,
  });
  if (missing.length > 0) throw notConfigured("Telegram", missing);
  const secret = request.headers.get("x-telegram-bot-api-secret-token") ?? "";
  if (!sameText(secret, settings.TELEGRAM_WEBHOOK_SECRET)) throw badSignature("Telegram");
  const inbound = inboundFromUpdate(parseJsonBody("Telegram", request.body));
  if (inbound) await acceptMessage(inbound);
  return { kind: "json", body: {} };
}

function telegramBase(settings: Readonly<TSettings>): string {
  return `${settings.TELEGRAM_API_BASE_URL}/bot${settings.TELEGRAM_BOT_TOKEN}`;
}

/** Telegram answers {ok:false, description} for refusals it sends with 200 too. */
function okOrThrow(answer: Record<string, unknown>): Record<string, unknown> {
  if (answer.ok !== true)
    throw new DeliveryError(`telegram answered ok=false: ${String(answer.description ?? "")}`.slice(0, 300), false);
  return answer;
}

export async function telegramCall(method: string, body: unknown, signal: AbortSignal) {
  return okOrThrow(await callPlatform(`${telegramBase(getSettings())}/${method}`, { json: body }, signal));
}

export function telegramClient(): PlatformClient {
  const replyOf = (target: Record<string, string | number | null>) => ({
    chat_id: target.chat_id,
    ...(typeof target.thread_id === "number" ? { message_thread_id: target.thread_id } : {}),
    reply_parameters: { message_id: target.message_id, allow_sending_without_reply: true },
  });
  return {
    maxChars: MAX_CHARS,
    async sendText(target, markdown, signal) {
      // Plain text: Telegram's Markdown modes refuse a message over one unbalanced character.
      const text = fitMessage({ head: "", body: markdownToPlain(markdown), tail: "" }, MAX_CHARS, utf16Units);
      await telegramCall(
        "sendMessage",
        { ...replyOf(target), text, link_preview_options: { is_disabled: true } },
        signal,
      );
    },
    async sendImage(target, png, filename, signal) {
      const form = new FormData();
      for (const [key, value] of Object.entries(replyOf(target)))
        form.set(key, typeof value === "object" ? JSON.stringify(value) : String(value));
      form.set("photo", new Blob([new Uint8Array(png)], { type: "image/png" }), filename);
      okOrThrow(await callPlatform(`${telegramBase(getSettings())}/sendPhoto`, { form }, signal));
    },
  };
}
