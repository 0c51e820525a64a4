import { z } from "zod";
import { BOT_PLATFORMS } from "./types";

export const ZBotPlatform = z.enum(BOT_PLATFORMS);
export const ZBotPlatformParams = z.object({ platform: ZBotPlatform });

export const ZBotPlatformStatus = z.object({
  platform: ZBotPlatform,
  enabled: z.boolean().describe("Switched on by its setting (TELEGRAM_BOT_MODE, FEISHU_BOT_ENABLED, …)"),
  mode: z.string().nullable().describe("Telegram: webhook or polling; null for the others"),
  endpoint: z.string().nullable().describe("The path the platform calls (null in Telegram's polling mode)"),
  missing: z.array(z.string()).describe("Settings this platform still needs"),
  allowlisted: z.number().int().describe("BOT_ALLOWLIST entries for this platform"),
  received_24h: z.number().int(),
  answered_24h: z.number().int(),
  refused_24h: z.number().int().describe("Senders not on the allowlist (each chat is told once)"),
  failed_24h: z.number().int().describe("Replies that could not be sent"),
  last_message_at: z.string().nullable(),
});

export const ZBotStatus = z
  .object({
    platforms: z.array(ZBotPlatformStatus),
    rate_limit_per_minute: z.number().int(),
  })
  .meta({ id: "BotStatus" });
export type TBotStatus = z.infer<typeof ZBotStatus>;

export const ZBotSelfTest = z
  .object({
    platform: ZBotPlatform,
    ok: z.boolean().describe("Every check passed"),
    checks: z.array(
      z.object({
        name: z.enum(["settings", "allowlist", "platform_api", "webhook"]),
        ok: z.boolean(),
        detail: z.string(),
      }),
    ),
  })
  .meta({ id: "BotSelfTest" });
export type TBotSelfTest = z.infer<typeof ZBotSelfTest>;

export const ZBotAck = z.record(z.string(), z.unknown()).describe("The platform's expected answer");
