import { createHmac } from "node:crypto";
import { postJson, parseAnswer } from "../http";
import { fitMessage, utf8Bytes } from "../text";
import type { NotificationMessage } from "../types";
import { markdownParts, type ChannelTarget } from "./target";
import { checkErrcode } from "./wechat";

/** DingTalk robots reject Markdown messages over about 20000 bytes. */
export const DINGTALK_MAX_BYTES = 18_000;
// 130101: sending too fast (20 messages a minute); -1: system busy.
const RETRYABLE_CODES = new Set([130101, -1]);

export interface DingtalkSettings {
  webhookUrl: string;
  secret: string;
}

/** DingTalk's signature: HMAC-SHA256 keyed with the secret over "<timestamp ms>\n<secret>", Base64. */
export function dingtalkSign(timestampMs: number, secret: string): string {
  return createHmac("sha256", secret).update(`${timestampMs}\n${secret}`).digest("base64");
}

/** The webhook URL with timestamp and sign added (URL-encoded) when signing is on. */
export function dingtalkUrl(settings: DingtalkSettings, now: Date): string {
  if (settings.secret === "") return settings.webhookUrl;
  const url = new URL(settings.webhookUrl);
  const timestamp = now.getTime();
  url.searchParams.set("timestamp", String(timestamp));
  url.searchParams.set("sign", dingtalkSign(timestamp, settings.secret));
  return url.toString();
}

export function dingtalkPayload(message: NotificationMessage) {
  return {
    msgtype: "markdown",
    markdown: {
      title: message.title.slice(0, 100),
      text: fitMessage(markdownParts(message), DINGTALK_MAX_BYTES, utf8Bytes),
    },
  };
}

export function dingtalkTarget(settings: DingtalkSettings): ChannelTarget {
  return {
    id: "dingtalk",
    limit: { max: DINGTALK_MAX_BYTES, measure: utf8Bytes },
    channel: "dingtalk",
    secrets: [settings.webhookUrl, settings.secret],
    async send(message, context) {
      const url = dingtalkUrl(settings, context.now);
      const answer = parseAnswer(
        (await postJson(url, dingtalkPayload(message), { timeoutMs: context.timeoutMs })).text,
      );
      checkErrcode(answer, RETRYABLE_CODES);
    },
  };
}
