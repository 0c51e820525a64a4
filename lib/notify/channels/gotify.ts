import { postJson } from "../http";
import { fitMessage, utf16Units } from "../text";
import type { NotificationMessage } from "../types";
import { markdownParts, type ChannelTarget } from "./target";

/** Gotify documents no message limit; the Markdown is capped like the generic webhook's. */
export const GOTIFY_MAX_CHARS = 20_000;
// Gotify priorities 0-10 (the Android app: 4-7 notify with sound, 8-10 high priority).
const PRIORITY = { report: 5, alert: 8, system_error: 8, test: 5 } as const;

export interface GotifySettings {
  /** The server's base URL, without /message (trailing slashes removed by the settings). */
  url: string;
  /** An application token. */
  token: string;
}

/** POST /message: Markdown rendered by the clients (client::display), the report opened on click. */
export function gotifyPayload(message: NotificationMessage) {
  const extras: Record<string, unknown> = { "client::display": { contentType: "text/markdown" } };
  if (message.link) extras["client::notification"] = { click: { url: message.link.url } };
  return {
    title: message.title,
    message: fitMessage(markdownParts(message, "none"), GOTIFY_MAX_CHARS, utf16Units),
    priority: PRIORITY[message.kind],
    extras,
  };
}

export function gotifyTarget(settings: GotifySettings): ChannelTarget {
  const base = settings.url.replace(/\/+$/, "");
  return {
    id: "gotify",
    limit: { max: GOTIFY_MAX_CHARS, measure: utf16Units },
    channel: "gotify",
    // The server URL is a sensitive setting too (its path may hold a key), as with every webhook-style channel.
    secrets: [settings.url, settings.token],
    async send(message, context) {
      // Errors are 4xx with {error, errorCode, errorDescription}; the token travels in a header, not the URL.
      await postJson(`${base}/message`, gotifyPayload(message), {
        headers: { "x-gotify-key": settings.token },
        timeoutMs: context.timeoutMs,
      });
    },
  };
}
