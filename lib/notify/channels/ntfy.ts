import { DeliveryError, isRetryableStatus, parseAnswer, post } from "../http";
import { fitMessage, utf8Bytes } from "../text";
import type { NotificationMessage } from "../types";
import { markdownParts, type ChannelTarget } from "./target";

/** ntfy's message limit is 4,096 bytes; a longer body is turned into an attachment, so it is cut to that. */
export const NTFY_MAX_BYTES = 4096;
// One RFC 2047 encoded-word is at most 75 characters: "=?UTF-8?B?" + 60 Base64 characters (45 bytes) + "?=".
const ENCODED_WORD_BYTES = 45;

export interface NtfySettings {
  /** The full topic URL, e.g. https://ntfy.sh/my-topic. */
  url: string;
  /** Access token for a protected topic; empty: none. */
  token: string;
}

/**
 * A header value as ntfy reads it: printable ASCII as is, anything else as RFC 2047 Base64 encoded-words
 * (HTTP header values are Latin-1 at best; ntfy decodes encoded-words, adjacent words joined without the space).
 */
export function ntfyHeaderValue(value: string): string {
  const line = value.replace(/[\r\n\t]+/g, " ").trim();
  if (/^[\x20-\x7e]*$/.test(line)) return line;
  const words: string[] = [];
  let chunk = "";
  for (const point of line) {
    if (chunk !== "" && utf8Bytes(chunk + point) > ENCODED_WORD_BYTES) {
      words.push(chunk);
      chunk = "";
    }
    chunk += point;
  }
  if (chunk !== "") words.push(chunk);
  return words.map((word) => `=?UTF-8?B?${Buffer.from(word, "utf8").toString("base64")}?=`).join(" ");
}

/** The request: the Markdown body (link kept, within 4,096 bytes) and the headers that carry title, format and click URL. */
export function ntfyPayload(message: NotificationMessage): { body: string; headers: Record<string, string> } {
  const headers: Record<string, string> = { title: ntfyHeaderValue(message.title), markdown: "yes" };
  const click = asciiUrl(message.link?.url);
  if (click) headers.click = click;
  if (message.kind === "alert" || message.kind === "system_error") headers["x-priority"] = "high";
  return { body: fitMessage(markdownParts(message, "none"), NTFY_MAX_BYTES, utf8Bytes), headers };
}

export function ntfyTarget(settings: NtfySettings): ChannelTarget {
  return {
    id: "ntfy",
    limit: { max: NTFY_MAX_BYTES, measure: utf8Bytes },
    channel: "ntfy",
    secrets: [settings.url, settings.token],
    async send(message, context) {
      const { body, headers } = ntfyPayload(message);
      if (settings.token !== "") headers.authorization = `Bearer ${settings.token}`;
      await postText(settings.url, body, headers, context.timeoutMs);
    },
  };
}

// ntfy answers errors as {"code":40301,"http":403,"error":"forbidden","link":…}: the reason is error and code.
async function postText(url: string, body: string, headers: Record<string, string>, timeoutMs: number): Promise<void> {
  const { status, text } = await post(url, body, { headers, timeoutMs, contentType: "text/plain; charset=utf-8" });
  if (status >= 200 && status < 300) return;
  const answer = parseAnswer(text);
  // Only ntfy's own error fields are named; any other body is not echoed (it may be another service's data).
  const reason =
    typeof answer.error === "string"
      ? `${answer.error}${answer.code !== undefined ? ` (${String(answer.code)})` : ""}`
      : "";
  throw new DeliveryError(
    `HTTP ${status}${reason === "" ? "" : `: ${reason}`}`.slice(0, 300),
    isRetryableStatus(status),
  );
}

// A URL usable as a header value: percent-encoded by the URL parser; none when it is not a valid URL.
function asciiUrl(url: string | undefined): string | null {
  if (!url) return null;
  try {
    const href = new URL(url).href;
    return /^[\x21-\x7e]+$/.test(href) ? href : null;
  } catch {
    return null;
  }
}
