import { z } from "zod";
import { now } from "@/lib/clock";
import { DeliveryError } from "@/lib/notify/http";
import { fitMessage, utf8Bytes } from "@/lib/notify/text";
import { getSettings } from "@/lib/settings/settings";
import { callPlatform } from "../http";
import { analysisAck } from "../ack";
import { acceptMessage } from "../inbox";
import { dingtalkSign, sameText } from "../signatures";
import type { InboundMessage, PlatformAnswer, PlatformClient, WebhookRequest } from "../types";
import { badSignature, botOff, missingOf, notConfigured, parseJsonBody } from "./common";

// DingTalk's outgoing (@) robot: each request carries timestamp and sign headers (HMAC-SHA256 with the robot's
// AppSecret, refused more than an hour off); the reply goes to the conversation's session webhook while it lives.
// That path takes Markdown but no uploaded image, so an analysis answers with its text and the report's link.

const MAX_BYTES = 18_000;
const MAX_SKEW_MS = 60 * 60_000;

const ZOutgoing = z.object({
  msgId: z.string(),
  msgtype: z.string(),
  text: z.object({ content: z.string() }).optional(),
  conversationId: z.string(),
  conversationType: z.string().optional(),
  senderId: z.string().optional(),
  senderStaffId: z.string().optional(),
  sessionWebhook: z.string().url(),
  sessionWebhookExpiredTime: z.number().optional(),
});

export function inboundFromOutgoing(raw: unknown): InboundMessage | null {
  const parsed = ZOutgoing.safeParse(raw);
  if (!parsed.success || parsed.data.msgtype !== "text" || !parsed.data.text) return null;
  const message = parsed.data;
  const userId = message.senderStaffId ?? message.senderId ?? "";
  return {
    platform: "dingtalk",
    messageId: message.msgId,
    chatId: message.conversationId,
    userId,
    text: message.text!.content,
    replyTo: {
      webhook: message.sessionWebhook,
      expires: message.sessionWebhookExpiredTime ?? null,
      // In a group the reply @-mentions the sender.
      at: message.conversationType === "2" && message.senderStaffId ? message.senderStaffId : null,
    },
  };
}

// POST /webhooks/dingtalk
export async function receiveDingtalkMessage(request: WebhookRequest): Promise<PlatformAnswer> {
  const settings = getSettings();
  if (!settings.DINGTALK_BOT_ENABLED) throw botOff("DingTalk", "DINGTALK_BOT_ENABLED=false");
  const missing = missingOf({ DINGTALK_APP_SECRET: settings.DINGTALK_APP_SECRET });
  if (missing.length > 0) throw notConfigured("DingTalk", missing);
  const timestamp = request.headers.get("timestamp") ?? "";
  const sign = request.headers.get("sign") ?? "";
  const skew = Math.abs(now().getTime() - Number(timestamp));
  if (!/^\d{13}$/.test(timestamp) || !(skew <= MAX_SKEW_MS)) throw badSignature("DingTalk");
  if (!sameText(sign, dingtalkSign(timestamp, settings.DINGTALK_APP_SECRET))) throw badSignature("DingTalk");
  const inbound = inboundFromOutgoing(parseJsonBody("DingTalk", request.body));
  if (!inbound) return { kind: "json", body: {} };
  // The answer may carry a message: an analysis is acknowledged at once.
  const ack = analysisAck(inbound, await acceptMessage(inbound));
  return { kind: "json", body: ack ? { msgtype: "text", text: { content: ack } } : {} };
}

export function dingtalkClient(): PlatformClient {
  return {
    maxChars: MAX_BYTES,
    async sendText(target, markdown, signal) {
      if (typeof target.expires === "number" && target.expires < now().getTime())
        throw new DeliveryError("the DingTalk session webhook has expired", false);
      const at = typeof target.at === "string" ? target.at : null;
      const text = fitMessage({ head: "", body: markdown, tail: at ? `\n\n@${at}` : "" }, MAX_BYTES, utf8Bytes);
      const title =
        markdown
          .replace(/[#*`>[\]]/g, "")
          .trim()
          .split("\n")[0]
          ?.slice(0, 40) || "DSA";
      const answer = await callPlatform(
        String(target.webhook),
        { json: { msgtype: "markdown", markdown: { title, text }, ...(at ? { at: { atUserIds: [at] } } : {}) } },
        signal,
      );
      if (answer.errcode !== undefined && answer.errcode !== 0)
        throw new DeliveryError(
          `dingtalk answered errcode ${String(answer.errcode)}: ${String(answer.errmsg ?? "")}`,
          false,
        );
    },
  };
}
