import { createHmac } from "node:crypto";
import { DeliveryError, isRetryableStatus, parseAnswer, post, postJson } from "../http";
import { fitMessage, utf8Bytes } from "../text";
import type { NotificationMessage } from "../types";
import { markdownParts, type ChannelTarget } from "./target";

/** Feishu bots take request bodies up to 20 KB; the card's Markdown is kept well inside that. */
export const FEISHU_MAX_BYTES = 15_000;
// 9499: the bot's rate limit; 11232: the bot's frequency limit.
const RETRYABLE_CODES = new Set([9499, 11232]);
/** The open platform's host; app mode calls it for the tenant token and the message. */
export const FEISHU_API_BASE_URL = "https://open.feishu.cn";
// App mode (open platform): 99991400 request frequency limit; 230020 the chat's or user's message rate limit.
const APP_RETRYABLE_CODES = new Set([99991400, 230020]);
// The tenant token is missing, invalid or expired: fetch a new one and try again.
const TOKEN_CODES = new Set([99991661, 99991663, 99991668]);
/** A tenant token is refreshed this long before the expiry the platform announced. */
const TOKEN_MARGIN_MS = 5 * 60_000;

export interface FeishuSettings {
  webhookUrl: string;
  secret: string;
  keyword: string;
}

export interface FeishuAppSettings {
  appId: string;
  appSecret: string;
  /** A chat_id (oc_…) or, for a direct message, a user's open_id (ou_…). */
  chatId: string;
  /** Default https://open.feishu.cn; tests point it at a local receiver. */
  apiBaseUrl?: string;
}

/** Feishu's signature: HMAC-SHA256 keyed with "<timestamp>\n<secret>" over an empty message, Base64. */
export function feishuSign(timestampSeconds: number, secret: string): string {
  return createHmac("sha256", `${timestampSeconds}\n${secret}`).update("").digest("base64");
}

/** The interactive card both modes send: the title as header, the Markdown (link kept) as one element. */
export function feishuCard(message: NotificationMessage, keyword = "") {
  const parts = markdownParts(message, "none");
  // The keyword security setting needs the keyword in the message text itself.
  if (keyword !== "") parts.head = `${keyword}\n`;
  return {
    config: { wide_screen_mode: true },
    header: {
      title: { tag: "plain_text", content: message.title.slice(0, 100) },
      template: message.kind === "alert" ? "red" : "blue",
    },
    elements: [{ tag: "markdown", content: fitMessage(parts, FEISHU_MAX_BYTES, utf8Bytes) }],
  };
}

export function feishuPayload(message: NotificationMessage, settings: Omit<FeishuSettings, "webhookUrl">, now: Date) {
  const card = { msg_type: "interactive", card: feishuCard(message, settings.keyword) };
  if (settings.secret === "") return card;
  const timestamp = Math.floor(now.getTime() / 1000);
  return { timestamp: String(timestamp), sign: feishuSign(timestamp, settings.secret), ...card };
}

export function feishuTarget(settings: FeishuSettings): ChannelTarget {
  return {
    id: "feishu",
    limit: { max: FEISHU_MAX_BYTES, measure: utf8Bytes },
    channel: "feishu",
    secrets: [settings.webhookUrl, settings.secret],
    async send(message, context) {
      const answer = parseAnswer(
        (
          await postJson(settings.webhookUrl, feishuPayload(message, settings, context.now), {
            timeoutMs: context.timeoutMs,
          })
        ).text,
      );
      // Newer answers carry {code, msg}; older ones {StatusCode, StatusMessage}.
      const code = Number(answer.code ?? answer.StatusCode ?? 0);
      if (code !== 0)
        throw new DeliveryError(
          `code ${code}: ${String(answer.msg ?? answer.StatusMessage ?? "")}`.slice(0, 300),
          RETRYABLE_CODES.has(code),
        );
    },
  };
}

/** im/v1/messages addresses a user's open_id (ou_…) or a chat_id (oc_…). */
export function feishuReceiveIdType(chatId: string): "open_id" | "chat_id" {
  return chatId.startsWith("ou_") ? "open_id" : "chat_id";
}

/** The body of POST /open-apis/im/v1/messages: the card as a JSON string in content. */
export function feishuAppPayload(message: NotificationMessage, chatId: string) {
  return { receive_id: chatId, msg_type: "interactive", content: JSON.stringify(feishuCard(message)) };
}

/**
 * App mode: a tenant_access_token from app id and secret (kept until shortly before it expires), then the
 * card sent to the chat as the app's bot. Stored as its own delivery ("feishu-app") next to the webhook.
 */
export function feishuAppTarget(settings: FeishuAppSettings): ChannelTarget {
  const base = (settings.apiBaseUrl ?? FEISHU_API_BASE_URL).replace(/\/+$/, "");
  const secrets = [settings.appSecret];
  let token: { value: string; expiresAt: number } | null = null;

  async function tenantToken(now: Date, timeoutMs: number): Promise<string> {
    if (token && token.expiresAt > now.getTime()) return token.value;
    const { status, answer } = await feishuCall(
      `${base}/open-apis/auth/v3/tenant_access_token/internal`,
      { app_id: settings.appId, app_secret: settings.appSecret },
      {},
      timeoutMs,
    );
    const code = Number(answer.code ?? (status >= 200 && status < 300 ? 0 : -1));
    const value = typeof answer.tenant_access_token === "string" ? answer.tenant_access_token : "";
    if (code !== 0 || value === "")
      throw feishuError(
        "tenant_access_token",
        status,
        answer,
        APP_RETRYABLE_CODES.has(code) || isRetryableStatus(status),
      );
    // The token must never show in a reason, like the secret it was made from (the previous one is no longer used).
    secrets.splice(1, secrets.length - 1, value);
    const expireSeconds = Number(answer.expire ?? 7200);
    token = { value, expiresAt: now.getTime() + Math.max(0, expireSeconds * 1000 - TOKEN_MARGIN_MS) };
    return value;
  }

  return {
    id: "feishu-app",
    limit: { max: FEISHU_MAX_BYTES, measure: utf8Bytes },
    channel: "feishu",
    secrets,
    async send(message, context) {
      const access = await tenantToken(context.now, context.timeoutMs);
      const url = `${base}/open-apis/im/v1/messages?receive_id_type=${feishuReceiveIdType(settings.chatId)}`;
      const { status, answer } = await feishuCall(
        url,
        feishuAppPayload(message, settings.chatId),
        { authorization: `Bearer ${access}` },
        context.timeoutMs,
      );
      const code = Number(answer.code ?? (status >= 200 && status < 300 ? 0 : -1));
      if (code === 0 && status >= 200 && status < 300) return;
      if (TOKEN_CODES.has(code)) token = null;
      throw feishuError(
        "message",
        status,
        answer,
        TOKEN_CODES.has(code) || APP_RETRYABLE_CODES.has(code) || isRetryableStatus(status),
      );
    },
  };
}

// The open platform answers errors with a 4xx and a {code, msg} body; both are needed, so no postJson here.
async function feishuCall(url: string, body: unknown, headers: Record<string, string>, timeoutMs: number) {
  const { status, text } = await post(url, JSON.stringify(body), {
    headers,
    timeoutMs,
    contentType: "application/json; charset=utf-8",
  });
  return { status, answer: parseAnswer(text) };
}

function feishuError(step: string, status: number, answer: Record<string, unknown>, retryable: boolean): DeliveryError {
  const httpPart = status >= 200 && status < 300 ? "" : `HTTP ${status}: `;
  // A body without Feishu's {code, msg} is not echoed: it may be another service's data.
  const reason =
    answer.code !== undefined ? `code ${String(answer.code)}: ${String(answer.msg ?? "")}` : "unexpected answer";
  return new DeliveryError(`${step}: ${httpPart}${reason}`.slice(0, 300), retryable);
}
