import { now } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { getSettings } from "@/lib/settings/settings";
import type { TSettings } from "@/lib/settings/settings-schema";
import { missingOf } from "./platforms/common";
import { feishuToken } from "./platforms/feishu";
import { telegramCall } from "./platforms/telegram";
import { wecomToken } from "./platforms/wecom";
import type { TBotSelfTest, TBotStatus } from "./schemas";
import { BOT_PLATFORMS, type TBotPlatform } from "./types";

// GET /api/v1/bots and POST /api/v1/bots/{platform}/self-test: what the Settings page shows of each bot.

const DAY_MS = 24 * 3600_000;

function shapeOf(platform: TBotPlatform, s: Readonly<TSettings>) {
  switch (platform) {
    case "telegram":
      return {
        enabled: s.TELEGRAM_BOT_MODE !== "off",
        mode: s.TELEGRAM_BOT_MODE,
        endpoint: s.TELEGRAM_BOT_MODE === "polling" ? null : "/webhooks/telegram",
        missing: missingOf({
          TELEGRAM_BOT_TOKEN: s.TELEGRAM_BOT_TOKEN,
          ...(s.TELEGRAM_BOT_MODE === "webhook" ? { TELEGRAM_WEBHOOK_SECRET: s.TELEGRAM_WEBHOOK_SECRET } : {}),
        }),
      };
    case "feishu":
      return {
        enabled: s.FEISHU_BOT_ENABLED,
        mode: null,
        endpoint: "/webhooks/feishu",
        missing: missingOf({
          FEISHU_APP_ID: s.FEISHU_APP_ID,
          FEISHU_APP_SECRET: s.FEISHU_APP_SECRET,
          FEISHU_VERIFICATION_TOKEN: s.FEISHU_VERIFICATION_TOKEN,
        }),
      };
    case "dingtalk":
      return {
        enabled: s.DINGTALK_BOT_ENABLED,
        mode: null,
        endpoint: "/webhooks/dingtalk",
        missing: missingOf({ DINGTALK_APP_SECRET: s.DINGTALK_APP_SECRET }),
      };
    case "wecom":
      return {
        enabled: s.WECOM_BOT_ENABLED,
        mode: null,
        endpoint: "/webhooks/wecom",
        missing: missingOf({
          WECOM_CORP_ID: s.WECOM_CORP_ID,
          WECOM_CORP_SECRET: s.WECOM_CORP_SECRET,
          WECOM_AGENT_ID: s.WECOM_AGENT_ID,
          WECOM_TOKEN: s.WECOM_TOKEN,
          WECOM_ENCODING_AES_KEY: s.WECOM_ENCODING_AES_KEY,
        }),
      };
  }
}

function allowlistedCount(platform: TBotPlatform, s: Readonly<TSettings>): number {
  return s.BOT_ALLOWLIST.filter((entry) => entry.toLowerCase().startsWith(`${platform}:`)).length;
}

export async function botStatus(): Promise<TBotStatus> {
  const settings = getSettings();
  const since = new Date(now().getTime() - DAY_MS);
  const rows = await db().botMessage.groupBy({
    by: ["platform", "status"],
    where: { createdAt: { gte: since } },
    _count: { _all: true },
  });
  const failed = await db().botMessage.groupBy({
    by: ["platform"],
    where: { createdAt: { gte: since }, error: { not: null }, answeredAt: null },
    _count: { _all: true },
  });
  const last = await db().botMessage.groupBy({ by: ["platform"], _max: { createdAt: true } });
  const count = (platform: string, status?: string) =>
    rows
      .filter((r) => r.platform === platform && (status === undefined || r.status === status))
      .reduce((sum, r) => sum + r._count._all, 0);
  return {
    platforms: BOT_PLATFORMS.map((platform) => ({
      platform,
      ...shapeOf(platform, settings),
      allowlisted: allowlistedCount(platform, settings),
      received_24h: count(platform),
      answered_24h: count(platform, "answered"),
      refused_24h: count(platform, "refused"),
      failed_24h: failed.find((f) => f.platform === platform)?._count._all ?? 0,
      last_message_at: last.find((l) => l.platform === platform)?._max.createdAt?.toISOString() ?? null,
    })),
    rate_limit_per_minute: settings.BOT_RATE_LIMIT_PER_MINUTE,
  };
}

type Check = TBotSelfTest["checks"][number];

/** Asks the platform what it can be asked without a message: who the bot is, or a token for its app. */
async function platformCheck(platform: TBotPlatform, signal: AbortSignal): Promise<Check[]> {
  const settings = getSettings();
  switch (platform) {
    case "telegram": {
      const me = (await telegramCall("getMe", {}, signal)).result as { username?: string } | undefined;
      const checks: Check[] = [{ name: "platform_api", ok: true, detail: `getMe: @${me?.username ?? "?"}` }];
      if (settings.TELEGRAM_BOT_MODE === "webhook") {
        const info = ((await telegramCall("getWebhookInfo", {}, signal)).result ?? {}) as {
          url?: string;
          pending_update_count?: number;
          last_error_message?: string;
        };
        const expected = settings.PUBLIC_BASE_URL ? `${settings.PUBLIC_BASE_URL}/webhooks/telegram` : null;
        const ok = Boolean(info.url) && (expected === null || info.url === expected);
        checks.push({
          name: "webhook",
          ok,
          detail: info.url
            ? `Telegram posts to ${info.url}${expected && info.url !== expected ? ` (expected ${expected})` : ""}; ${info.pending_update_count ?? 0} pending${info.last_error_message ? `; last error: ${info.last_error_message}` : ""}`
            : "No webhook is set: call setWebhook with this service's URL and TELEGRAM_WEBHOOK_SECRET as secret_token",
        });
      }
      return checks;
    }
    case "feishu":
      await feishuToken(signal);
      return [{ name: "platform_api", ok: true, detail: "tenant_access_token issued for FEISHU_APP_ID" }];
    case "wecom":
      await wecomToken(signal);
      return [{ name: "platform_api", ok: true, detail: "access_token issued for WECOM_CORP_ID" }];
    case "dingtalk":
      return [
        {
          name: "platform_api",
          ok: true,
          detail: "DingTalk's outgoing robot has no API to ask: replies use each message's session webhook",
        },
      ];
  }
}

// POST /api/v1/bots/{platform}/self-test
export async function botSelfTest(platform: TBotPlatform): Promise<TBotSelfTest> {
  const settings = getSettings();
  const shape = shapeOf(platform, settings);
  const checks: Check[] = [
    {
      name: "settings",
      ok: shape.enabled && shape.missing.length === 0,
      detail: !shape.enabled
        ? "switched off"
        : shape.missing.length > 0
          ? `missing: ${shape.missing.join(", ")}`
          : "complete",
    },
    {
      name: "allowlist",
      ok: allowlistedCount(platform, settings) > 0,
      detail:
        allowlistedCount(platform, settings) > 0
          ? `${allowlistedCount(platform, settings)} entries`
          : `no ${platform}: entry in BOT_ALLOWLIST: every sender is refused`,
    },
  ];
  if (shape.missing.length === 0) {
    try {
      checks.push(...(await platformCheck(platform, AbortSignal.timeout(20_000))));
    } catch (error) {
      checks.push({ name: "platform_api", ok: false, detail: error instanceof Error ? error.message : String(error) });
    }
  }
  return { platform, ok: checks.every((c) => c.ok), checks };
}
