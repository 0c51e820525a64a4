import { DeliveryError, parseAnswer, postJson } from "../http";
import { cutTo, fitMessage, utf16Units, utf8Bytes } from "../text";
import type { NotificationMessage } from "../types";
import { markdownParts, type ChannelTarget } from "./target";

/** ServerChan's title limit (32 characters) and body limit (32 KB of Markdown), with room to spare. */
export const SERVERCHAN_MAX_TITLE = 32;
export const SERVERCHAN_MAX_BYTES = 30_000;
/** A ServerChan³ SendKey holds the uid: sctp<uid>t… */
const SC3_KEY = /^sctp(\d+)t/;

export interface ServerchanSettings {
  sendkey: string;
  /** Default: https://<uid>.push.ft07.com (ServerChan³); tests point it at a local receiver. */
  apiBaseUrl?: string;
}

/** The send URL: ServerChan³ for sctp… keys, ServerChan Turbo (sctapi.ftqq.com) for older keys, as the official SDK does. */
export function serverchanUrl(settings: ServerchanSettings): string {
  const key = encodeURIComponent(settings.sendkey);
  const sc3 = SC3_KEY.exec(settings.sendkey);
  if (sc3) return `${(settings.apiBaseUrl ?? `https://${sc3[1]}.push.ft07.com`).replace(/\/+$/, "")}/send/${key}.send`;
  return `${(settings.apiBaseUrl ?? "https://sctapi.ftqq.com").replace(/\/+$/, "")}/${key}.send`;
}

/** {title, desp}: desp is Markdown, shown in the app, the link kept. */
export function serverchanPayload(message: NotificationMessage) {
  return {
    title: cutTo(message.title, SERVERCHAN_MAX_TITLE, utf16Units),
    desp: fitMessage(markdownParts(message, "none"), SERVERCHAN_MAX_BYTES, utf8Bytes),
  };
}

export function serverchanTarget(settings: ServerchanSettings): ChannelTarget {
  const url = serverchanUrl(settings);
  return {
    id: "serverchan3",
    limit: { max: SERVERCHAN_MAX_BYTES, measure: utf8Bytes },
    channel: "serverchan3",
    secrets: [settings.sendkey, url],
    async send(message, context) {
      const answer = parseAnswer(
        (await postJson(url, serverchanPayload(message), { timeoutMs: context.timeoutMs })).text,
      );
      // {code, message, data}: 0 is success.
      const code = Number(answer.code);
      if (code !== 0)
        throw new DeliveryError(
          `code ${String(answer.code ?? "missing")}: ${String(answer.message ?? answer.info ?? "")}`.slice(0, 300),
          false,
        );
    },
  };
}
