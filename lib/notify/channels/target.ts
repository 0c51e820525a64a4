import type { Measure } from "../text";
import type { NotificationMessage, TNotifyChannel } from "../types";

export interface SendContext {
  now: Date;
  /** Budget of one attempt. */
  timeoutMs: number;
}

/** One configured destination: a channel with its settings bound. */
export interface ChannelTarget {
  /** Stored as the delivery's channel: the channel name, or custom#2… for further generic webhooks. */
  id: string;
  channel: TNotifyChannel;
  /** Values that must never appear in a stored or logged reason (tokens, webhook URLs). */
  secrets: string[];
  /**
   * One message's size limit as the service counts it: a longer message is sent in parts (lib/notify/split.ts),
   * each still cut by the channel itself as the last guard. None: one message, cut by the channel.
   */
  limit?: { max: number; measure: Measure };
  /** One attempt; throws DeliveryError (or any error) when the service did not accept the message. */
  send(message: NotificationMessage, context: SendContext): Promise<void>;
}

/** The Markdown message in three parts, so a cut shortens only the body. */
export function markdownParts(message: NotificationMessage, headingStyle: "heading" | "bold" | "none" = "heading") {
  const head =
    headingStyle === "none" ? "" : headingStyle === "heading" ? `### ${message.title}\n\n` : `**${message.title}**\n\n`;
  const tail = message.link ? `\n\n[${message.link.label}](${message.link.url})` : "";
  return { head, body: message.body.trim(), tail };
}
