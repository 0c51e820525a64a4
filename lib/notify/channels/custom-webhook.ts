import { DeliveryError, postJson } from "../http";
import { fitMessage, utf16Units } from "../text";
import type { NotificationMessage } from "../types";
import { markdownParts, type ChannelTarget } from "./target";

/** Generic webhooks get at most this many characters of Markdown content. */
export const CUSTOM_MAX_CHARS = 20_000;

export interface CustomWebhookSettings {
  url: string;
  bearerToken: string;
  /** JSON with $title_json and $content_json placeholders; empty: the default body. */
  bodyTemplate: string;
}

/** The default body: the message as structured JSON, Markdown content with the link kept. */
export function customPayload(message: NotificationMessage, template: string, now: Date): unknown {
  const content = fitMessage(markdownParts(message, "none"), CUSTOM_MAX_CHARS, utf16Units);
  if (template !== "") {
    const filled = template
      .split("$content_json")
      .join(JSON.stringify(content))
      .split("$title_json")
      .join(JSON.stringify(message.title));
    try {
      return JSON.parse(filled) as unknown;
    } catch {
      throw new DeliveryError("CUSTOM_WEBHOOK_BODY_TEMPLATE does not give valid JSON", false);
    }
  }
  return {
    kind: message.kind,
    title: message.title,
    content,
    link: message.link?.url ?? null,
    related_kind: message.related?.kind ?? null,
    related_id: message.related ? String(message.related.id) : null,
    created_at: now.toISOString(),
  };
}

export function customWebhookTarget(settings: CustomWebhookSettings, index: number): ChannelTarget {
  return {
    id: index === 0 ? "custom" : `custom#${index + 1}`,
    limit: { max: CUSTOM_MAX_CHARS, measure: utf16Units },
    channel: "custom",
    secrets: [settings.url, settings.bearerToken],
    async send(message, context) {
      const headers: Record<string, string> =
        settings.bearerToken !== "" ? { authorization: `Bearer ${settings.bearerToken}` } : {};
      await postJson(settings.url, customPayload(message, settings.bodyTemplate, context.now), {
        headers,
        timeoutMs: context.timeoutMs,
      });
    },
  };
}
