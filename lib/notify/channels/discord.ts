import { postJson } from "../http";
import { fitMessage, utf16Units } from "../text";
import type { NotificationMessage } from "../types";
import { markdownParts, type ChannelTarget } from "./target";

/** Discord message content: at most 2000 characters. */
export const DISCORD_MAX_CHARS = 2000;
/** Discord's REST API host; the bot posts to /api/v10/channels/{id}/messages there. */
export const DISCORD_API_BASE_URL = "https://discord.com";

export interface DiscordBotSettings {
  botToken: string;
  channelId: string;
  /** Default https://discord.com; tests point it at a local receiver. */
  apiBaseUrl?: string;
}

export function discordPayload(message: NotificationMessage) {
  // No @everyone or role pings from report text.
  return {
    content: fitMessage(markdownParts(message, "bold"), DISCORD_MAX_CHARS, utf16Units),
    allowed_mentions: { parse: [] as string[] },
  };
}

export function discordTarget(webhookUrl: string): ChannelTarget {
  return {
    id: "discord",
    limit: { max: DISCORD_MAX_CHARS, measure: utf16Units },
    channel: "discord",
    secrets: [webhookUrl],
    async send(message, context) {
      await postJson(webhookUrl, discordPayload(message), { timeoutMs: context.timeoutMs });
    },
  };
}

/** Bot mode (Create Message): the webhook's body, sent as the bot to one channel; used when no webhook is set. */
export function discordBotTarget(settings: DiscordBotSettings): ChannelTarget {
  const base = (settings.apiBaseUrl ?? DISCORD_API_BASE_URL).replace(/\/+$/, "");
  return {
    id: "discord",
    limit: { max: DISCORD_MAX_CHARS, measure: utf16Units },
    channel: "discord",
    secrets: [settings.botToken],
    async send(message, context) {
      // Errors are 4xx with {message, code}; 429 (rate limit) and 5xx are retried by postJson's classification.
      await postJson(
        `${base}/api/v10/channels/${encodeURIComponent(settings.channelId)}/messages`,
        discordPayload(message),
        {
          headers: { authorization: `Bot ${settings.botToken}` },
          timeoutMs: context.timeoutMs,
        },
      );
    },
  };
}
