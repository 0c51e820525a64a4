import { DeliveryError, parseAnswer, postJson } from "../http";
import { cutTo, fitMessage, markdownToPlain, type Measure } from "../text";
import type { NotificationMessage } from "../types";
import { markdownParts, type ChannelTarget } from "./target";

/** Pushover's limits, in characters (Unicode code points): message 1024, title 250, url 512, url_title 100. */
export const PUSHOVER_MAX_MESSAGE = 1024;
export const PUSHOVER_MAX_TITLE = 250;
export const PUSHOVER_MAX_URL = 512;
export const PUSHOVER_MAX_URL_TITLE = 100;
export const PUSHOVER_API_BASE_URL = "https://api.pushover.net";

const codePoints: Measure = (text) => Array.from(text).length;

export interface PushoverSettings {
  userKey: string;
  apiToken: string;
  /** Default https://api.pushover.net; tests point it at a local receiver. */
  apiBaseUrl?: string;
}

/**
 * The message as plain text (no html=1: Pushover renders no Markdown); the link travels as url + url_title,
 * or at the end of the text when it is longer than a supplementary URL may be.
 */
export function pushoverPayload(
  message: NotificationMessage,
  settings: Pick<PushoverSettings, "userKey" | "apiToken">,
) {
  const link = message.link ?? null;
  const asUrl = link !== null && codePoints(link.url) <= PUSHOVER_MAX_URL;
  const tail = link !== null && !asUrl ? `\n\n${link.label}: ${link.url}` : "";
  const text = fitMessage(
    { head: "", body: markdownToPlain(markdownParts(message, "none").body), tail },
    PUSHOVER_MAX_MESSAGE,
    codePoints,
  );
  return {
    token: settings.apiToken,
    user: settings.userKey,
    title: cutTo(message.title, PUSHOVER_MAX_TITLE, codePoints),
    // message is required: a message without a body carries its title.
    message: text !== "" ? text : cutTo(message.title, PUSHOVER_MAX_MESSAGE, codePoints),
    ...(asUrl ? { url: link.url, url_title: cutTo(link.label, PUSHOVER_MAX_URL_TITLE, codePoints) } : {}),
  };
}

export function pushoverTarget(settings: PushoverSettings): ChannelTarget {
  const base = (settings.apiBaseUrl ?? PUSHOVER_API_BASE_URL).replace(/\/+$/, "");
  return {
    id: "pushover",
    limit: { max: PUSHOVER_MAX_MESSAGE, measure: codePoints },
    channel: "pushover",
    secrets: [settings.apiToken, settings.userKey],
    async send(message, context) {
      let text: string;
      try {
        // Pushover takes form parameters or JSON with Content-Type application/json.
        text = (
          await postJson(`${base}/1/messages.json`, pushoverPayload(message, settings), {
            timeoutMs: context.timeoutMs,
          })
        ).text;
      } catch (error) {
        throw withErrors(error);
      }
      const answer = parseAnswer(text);
      if (Number(answer.status) !== 1)
        throw new DeliveryError(
          `pushover status ${String(answer.status ?? "missing")}: ${errorsOf(answer)}`.slice(0, 300),
          false,
        );
    },
  };
}

// An invalid request is a 4xx with {status: 0, errors: [...]}: the reason names those errors instead of raw JSON.
function withErrors(error: unknown): unknown {
  if (!(error instanceof DeliveryError)) return error;
  const answer = parseAnswer(error.answerText ?? "");
  if (!Array.isArray(answer.errors)) return error;
  return new DeliveryError(`${error.message}: ${errorsOf(answer)}`.slice(0, 300), error.retryable);
}

function errorsOf(answer: Record<string, unknown>): string {
  return Array.isArray(answer.errors) ? answer.errors.map(String).join("; ") : "";
}
