import { DeliveryError, parseAnswer, postJson } from "../http";
import { fitMessage, markdownToPlain, utf16Units } from "../text";
import type { NotificationMessage } from "../types";
import { markdownParts, type ChannelTarget } from "./target";

/** sendMessage takes at most 4096 characters (UTF-16 units); sent as plain text, so nothing needs escaping. */
export const TELEGRAM_MAX_CHARS = 4096;

export interface TelegramSettings {
  apiBaseUrl: string;
  botToken: string;
  chatId: string;
  threadId: string;
}

export function telegramPayload(message: NotificationMessage, settings: Pick<TelegramSettings, "chatId" | "threadId">) {
  const parts = markdownParts(message, "none");
  const text = fitMessage(
    { head: `${message.title}\n\n`, body: markdownToPlain(parts.body), tail: markdownToPlain(parts.tail) },
    TELEGRAM_MAX_CHARS,
    utf16Units,
  );
  const thread = Number(settings.threadId);
  return {
    chat_id: settings.chatId,
    text,
    disable_web_page_preview: true,
    ...(settings.threadId !== "" && Number.isInteger(thread) ? { message_thread_id: thread } : {}),
  };
}

export function telegramTarget(settings: TelegramSettings): ChannelTarget {
  return {
    id: "telegram",
    limit: { max: TELEGRAM_MAX_CHARS, measure: utf16Units },
    channel: "telegram",
    secrets: [settings.botToken],
    async send(message, context) {
      const url = `${settings.apiBaseUrl}/bot${settings.botToken}/sendMessage`;
      const answer = parseAnswer(
        (await postJson(url, telegramPayload(message, settings), { timeoutMs: context.timeoutMs })).text,
      );
      if (answer.ok !== true)
        throw new DeliveryError(`telegram answered ok=false: ${String(answer.description ?? "")}`.slice(0, 300), false);
    },
  };
}
