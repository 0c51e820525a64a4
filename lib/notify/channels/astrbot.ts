import { postJson } from "../http";
import type { NotificationMessage } from "../types";
import { customPayload } from "./custom-webhook";
import type { ChannelTarget } from "./target";

export interface AstrbotSettings {
  url: string;
  /** Bearer token; empty: no Authorization header. */
  token: string;
}

/** The generic webhook's structured JSON (kind, title, Markdown content with the link, link, related, created_at). */
export function astrbotPayload(message: NotificationMessage, now: Date): unknown {
  return customPayload(message, "", now);
}

export function astrbotTarget(settings: AstrbotSettings): ChannelTarget {
  return {
    id: "astrbot",
    channel: "astrbot",
    secrets: [settings.url, settings.token],
    async send(message, context) {
      const headers: Record<string, string> =
        settings.token !== "" ? { authorization: `Bearer ${settings.token}` } : {};
      // Any 2xx is delivered; 408/429/5xx are retried.
      await postJson(settings.url, astrbotPayload(message, context.now), { headers, timeoutMs: context.timeoutMs });
    },
  };
}
