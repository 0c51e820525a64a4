import { DeliveryError, parseAnswer, postJson } from "../http";
import { cutTo, fitMessage, utf16Units } from "../text";
import type { NotificationMessage } from "../types";
import { markdownParts, type ChannelTarget } from "./target";

/** PushPlus documents no content limit; the Markdown is capped like the generic webhook's. */
export const PUSHPLUS_MAX_CHARS = 20_000;
/** Titles are kept to one short line. */
export const PUSHPLUS_MAX_TITLE = 100;
export const PUSHPLUS_API_BASE_URL = "https://www.pushplus.plus";
// 500: system error, try again later. 900 (account limited for too many requests) is documented as "stop sending".
const RETRYABLE_CODES = new Set([500]);

export interface PushplusSettings {
  token: string;
  /** Group code for one-to-many push; empty: the token's owner only. */
  topic: string;
  /** Default https://www.pushplus.plus; tests point it at a local receiver. */
  apiBaseUrl?: string;
}

/** POST /send (JSON): the markdown template, the link kept at the end of the content. */
export function pushplusPayload(message: NotificationMessage, settings: Pick<PushplusSettings, "token" | "topic">) {
  return {
    token: settings.token,
    title: cutTo(message.title, PUSHPLUS_MAX_TITLE, utf16Units),
    content: fitMessage(markdownParts(message, "none"), PUSHPLUS_MAX_CHARS, utf16Units),
    template: "markdown",
    ...(settings.topic !== "" ? { topic: settings.topic } : {}),
  };
}

export function pushplusTarget(settings: PushplusSettings): ChannelTarget {
  const base = (settings.apiBaseUrl ?? PUSHPLUS_API_BASE_URL).replace(/\/+$/, "");
  return {
    id: "pushplus",
    limit: { max: PUSHPLUS_MAX_CHARS, measure: utf16Units },
    channel: "pushplus",
    secrets: [settings.token],
    async send(message, context) {
      const answer = parseAnswer(
        (await postJson(`${base}/send`, pushplusPayload(message, settings), { timeoutMs: context.timeoutMs })).text,
      );
      // Every answer is {code, msg, data}; 200 is success.
      const code = Number(answer.code);
      if (code !== 200)
        throw new DeliveryError(
          `code ${String(answer.code ?? "missing")}: ${String(answer.msg ?? "")}`.slice(0, 300),
          RETRYABLE_CODES.has(code),
        );
    },
  };
}
