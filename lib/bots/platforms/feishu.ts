import { FormData } from "undici";
import { z } from "zod";
import { ApiError } from "@/lib/errors/api-error";
import { DeliveryError } from "@/lib/notify/http";
import { fitMessage, utf8Bytes } from "@/lib/notify/text";
import { getSettings } from "@/lib/settings/settings";
import { CachedToken, callPlatform } from "../http";
import { acceptMessage } from "../inbox";
import { feishuDecrypt, feishuSignature, sameText } from "../signatures";
import type { InboundMessage, PlatformAnswer, PlatformClient, WebhookRequest } from "../types";
import { badSignature, botOff, missingOf, notConfigured, parseJsonBody } from "./common";

// Feishu (Lark) event subscription, schema 2.0: the URL verification challenge, the verification token in every
// event, and with an encrypt key the AES-256-CBC body and the X-Lark-Signature header. Replies go through the open
// platform's message reply API with the app's tenant token; an analysis's image is uploaded and replied as an image.

const MAX_BYTES = 15_000;

const ZMessageEvent = z.object({
  schema: z.literal("2.0"),
  header: z.object({ event_id: z.string(), event_type: z.string(), token: z.string() }),
  event: z
    .object({
      sender: z.object({
        sender_id: z.object({ open_id: z.string().optional(), user_id: z.string().optional() }).optional(),
        sender_type: z.string().optional(),
      }),
      message: z.object({
        message_id: z.string(),
        chat_id: z.string(),
        chat_type: z.string().optional(),
        message_type: z.string(),
        content: z.string(),
      }),
    })
    .optional(),
});

export function inboundFromEvent(event: z.infer<typeof ZMessageEvent>): InboundMessage | null {
  const body = event.event;
  if (event.header.event_type !== "im.message.receive_v1" || !body || body.message.message_type !== "text") return null;
  if (body.sender.sender_type && body.sender.sender_type !== "user") return null;
  let text = "";
  try {
    text = String((JSON.parse(body.message.content) as { text?: unknown }).text ?? "");
  } catch {
    return null;
  }
  if (text.trim() === "") return null;
  return {
    platform: "feishu",
    messageId: body.message.message_id,
    chatId: body.message.chat_id,
    userId: body.sender.sender_id?.open_id ?? body.sender.sender_id?.user_id ?? "",
    text,
    replyTo: { message_id: body.message.message_id },
  };
}

// POST /webhooks/feishu
export async function receiveFeishuEvent(request: WebhookRequest): Promise<PlatformAnswer> {
  const settings = getSettings();
  if (!settings.FEISHU_BOT_ENABLED) throw botOff("Feishu", "FEISHU_BOT_ENABLED=false");
  const missing = missingOf({
    FEISHU_APP_ID: settings.FEISHU_APP_ID,
    FEISHU_APP_SECRET: settings.FEISHU_APP_SECRET,
    FEISHU_VERIFICATION_TOKEN: settings.FEISHU_VERIFICATION_TOKEN,
  });
  if (missing.length > 0) throw notConfigured("Feishu", missing);
  let payload = parseJsonBody("Feishu", request.body);
  const key = settings.FEISHU_ENCRYPT_KEY;
  if (key !== "") {
    // Events carry X-Lark-Signature over the exact body; only the URL verification challenge may come unsigned (it
    // proves the verification token instead).
    const signature = request.headers.get("x-lark-signature");
    if (signature !== null) {
      const expected = feishuSignature(
        request.headers.get("x-lark-request-timestamp") ?? "",
        request.headers.get("x-lark-request-nonce") ?? "",
        key,
        request.body,
      );
      if (!sameText(signature, expected)) throw badSignature("Feishu");
    }
    if (typeof payload.encrypt !== "string") throw badSignature("Feishu");
    try {
      payload = parseJsonBody("Feishu", feishuDecrypt(key, payload.encrypt));
    } catch {
      throw ApiError.of("unauthorized", "The Feishu event could not be decrypted with FEISHU_ENCRYPT_KEY");
    }
    if (signature === null && payload.type !== "url_verification") throw badSignature("Feishu");
  }
  if (payload.type === "url_verification") {
    if (!sameText(String(payload.token ?? ""), settings.FEISHU_VERIFICATION_TOKEN)) throw badSignature("Feishu");
    return { kind: "json", body: { challenge: String(payload.challenge ?? "") } };
  }
  const event = ZMessageEvent.safeParse(payload);
  if (!event.success) return { kind: "json", body: {} };
  if (!sameText(event.data.header.token, settings.FEISHU_VERIFICATION_TOKEN)) throw badSignature("Feishu");
  const inbound = inboundFromEvent(event.data);
  if (inbound) await acceptMessage(inbound);
  return { kind: "json", body: {} };
}

/** Feishu answers {code, msg}: code 0 is success, whatever the HTTP status. */
function okOrThrow(answer: Record<string, unknown>): Record<string, unknown> {
  if (answer.code !== 0)
    throw new DeliveryError(
      `feishu answered code ${String(answer.code)}: ${String(answer.msg ?? "")}`.slice(0, 300),
      false,
    );
  return answer;
}

const tenantToken = new CachedToken(async (signal) => {
  const settings = getSettings();
  const answer = okOrThrow(
    await callPlatform(
      `${settings.FEISHU_API_BASE_URL}/open-apis/auth/v3/tenant_access_token/internal`,
      { json: { app_id: settings.FEISHU_APP_ID, app_secret: settings.FEISHU_APP_SECRET } },
      signal,
    ),
  );
  return { token: String(answer.tenant_access_token ?? ""), expiresInSec: Number(answer.expire ?? 0) };
});

export async function feishuToken(signal: AbortSignal): Promise<string> {
  const settings = getSettings();
  return tenantToken.get(
    `${settings.FEISHU_API_BASE_URL}|${settings.FEISHU_APP_ID}|${settings.FEISHU_APP_SECRET}`,
    signal,
  );
}

export function feishuClient(): PlatformClient {
  async function reply(messageId: unknown, msgType: string, content: unknown, signal: AbortSignal) {
    const base = getSettings().FEISHU_API_BASE_URL;
    const token = await feishuToken(signal);
    okOrThrow(
      await callPlatform(
        `${base}/open-apis/im/v1/messages/${encodeURIComponent(String(messageId))}/reply`,
        {
          json: { msg_type: msgType, content: JSON.stringify(content) },
          headers: { authorization: `Bearer ${token}` },
        },
        signal,
      ),
    );
  }
  return {
    maxChars: MAX_BYTES,
    async sendText(target, markdown, signal) {
      // A card's markdown element renders the answer's bold, lists and links.
      const card = {
        config: { wide_screen_mode: true },
        elements: [
          { tag: "markdown", content: fitMessage({ head: "", body: markdown, tail: "" }, MAX_BYTES, utf8Bytes) },
        ],
      };
      await reply(target.message_id, "interactive", card, signal);
    },
    async sendImage(target, png, filename, signal) {
      const base = getSettings().FEISHU_API_BASE_URL;
      const token = await feishuToken(signal);
      const form = new FormData();
      form.set("image_type", "message");
      form.set("image", new Blob([new Uint8Array(png)], { type: "image/png" }), filename);
      const uploaded = okOrThrow(
        await callPlatform(
          `${base}/open-apis/im/v1/images`,
          { form, headers: { authorization: `Bearer ${token}` } },
          signal,
        ),
      );
      const imageKey = (uploaded.data as { image_key?: unknown } | undefined)?.image_key;
      if (typeof imageKey !== "string") throw new DeliveryError("feishu answered no image_key", false);
      await reply(target.message_id, "image", { image_key: imageKey }, signal);
    },
  };
}
