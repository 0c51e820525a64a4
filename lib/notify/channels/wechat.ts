import { DeliveryError, parseAnswer, postJson } from "../http";
import { fitMessage, utf8Bytes } from "../text";
import type { NotificationMessage } from "../types";
import { markdownParts, type ChannelTarget } from "./target";

/** WeCom group robots accept at most 4096 bytes (UTF-8) of Markdown content. */
export const WECHAT_MAX_BYTES = 4096;
// errcode 45009: the robot's rate limit (20 messages a minute); -1: system busy.
const RETRYABLE_CODES = new Set([45009, -1]);

export function wechatPayload(message: NotificationMessage) {
  return {
    msgtype: "markdown",
    markdown: { content: fitMessage(markdownParts(message), WECHAT_MAX_BYTES, utf8Bytes) },
  };
}

export function wechatTarget(webhookUrl: string): ChannelTarget {
  return {
    id: "wechat",
    limit: { max: WECHAT_MAX_BYTES, measure: utf8Bytes },
    channel: "wechat",
    secrets: [webhookUrl],
    async send(message, context) {
      const answer = parseAnswer(
        (await postJson(webhookUrl, wechatPayload(message), { timeoutMs: context.timeoutMs })).text,
      );
      checkErrcode(answer, RETRYABLE_CODES);
    },
  };
}

/** WeCom and DingTalk answer 200 with {errcode, errmsg}; anything but errcode 0 is a failure. */
export function checkErrcode(answer: Record<string, unknown>, retryable: ReadonlySet<number>): void {
  const code = Number(answer.errcode ?? 0);
  if (code === 0) return;
  throw new DeliveryError(`errcode ${code}: ${String(answer.errmsg ?? "")}`.slice(0, 300), retryable.has(code));
}
