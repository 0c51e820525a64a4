import { postJson } from "../http";
import { fitMessage, utf16Units } from "../text";
import type { NotificationMessage } from "../types";
import { markdownParts, type ChannelTarget } from "./target";

/** Discord message content: at most 2000 characters. */
export const DISCORD_MAX_CHARS = 2000;

export function discordPayload(message: NotificationMessage) {
  // No @everyone or role pings from report text.
  return { content: fitMessage(markdownParts(message, "bold"), DISCORD_MAX_CHARS, utf16Units), allowed_mentions: { parse: [] as string[] } };
}

export function discordTarget(webhookUrl: string): ChannelTarget {
  return {
    id: "discord",
    channel: "discord",
    secrets: [webhookUrl],
    async send(message, context) {
      await postJson(webhookUrl, discordPayload(message), { timeoutMs: context.timeoutMs });
    },
  };
}
