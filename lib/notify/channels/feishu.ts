import { createHmac } from "node:crypto";
import { DeliveryError, parseAnswer, postJson } from "../http";
import { fitMessage, utf8Bytes } from "../text";
import type { NotificationMessage } from "../types";
import { markdownParts, type ChannelTarget } from "./target";

/** Feishu bots take request bodies up to 20 KB; the card's Markdown is kept well inside that. */
export const FEISHU_MAX_BYTES = 15_000;
// 9499: the bot's rate limit; 11232: the bot's frequency limit.
const RETRYABLE_CODES = new Set([9499, 11232]);

export interface FeishuSettings {
  webhookUrl: string;
  secret: string;
  keyword: string;
}

/** Feishu's signature: HMAC-SHA256 keyed with "<timestamp>\n<secret>" over an empty message, Base64. */
export function feishuSign(timestampSeconds: number, secret: string): string {
  return createHmac("sha256", `${timestampSeconds}\n${secret}`).update("").digest("base64");
}

export function feishuPayload(message: NotificationMessage, settings: Omit<FeishuSettings, "webhookUrl">, now: Date) {
  const parts = markdownParts(message, "none");
  // The keyword security setting needs the keyword in the message text itself.
  if (settings.keyword !== "") parts.head = `${settings.keyword}\n`;
  const card = {
    msg_type: "interactive",
    card: {
      config: { wide_screen_mode: true },
      header: { title: { tag: "plain_text", content: message.title.slice(0, 100) }, template: message.kind === "alert" ? "red" : "blue" },
      elements: [{ tag: "markdown", content: fitMessage(parts, FEISHU_MAX_BYTES, utf8Bytes) }],
    },
  };
  if (settings.secret === "") return card;
  const timestamp = Math.floor(now.getTime() / 1000);
  return { timestamp: String(timestamp), sign: feishuSign(timestamp, settings.secret), ...card };
}

export function feishuTarget(settings: FeishuSettings): ChannelTarget {
  return {
    id: "feishu",
    channel: "feishu",
    secrets: [settings.webhookUrl, settings.secret],
    async send(message, context) {
      const answer = parseAnswer((await postJson(settings.webhookUrl, feishuPayload(message, settings, context.now), { timeoutMs: context.timeoutMs })).text);
      // Newer answers carry {code, msg}; older ones {StatusCode, StatusMessage}.
      const code = Number(answer.code ?? answer.StatusCode ?? 0);
      if (code !== 0) throw new DeliveryError(`code ${code}: ${String(answer.msg ?? answer.StatusMessage ?? "")}`.slice(0, 300), RETRYABLE_CODES.has(code));
    },
  };
}
