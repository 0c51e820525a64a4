import { sensitiveSettingValues } from "@/lib/config/secret-values";
import { isMaskValue } from "@/lib/config/mask";
import { isSensitiveKey } from "@/lib/config/schema";
import { getRawSetting, getSettings } from "@/lib/settings/settings";
import { ZSettings, type TSettings } from "@/lib/settings/settings-schema";
import { configuredTargets, type ChannelTarget } from "./channels";
import type { TNotificationDraftTestRequest, TNotificationDraftTestResponse } from "./draft-test-schemas";
import { DeliveryError } from "./http";
import { redactReason } from "./redact";
import { splitMessage } from "./split";
import type { TNotifyChannel } from "./types";

// "Send test" of one channel as the settings form holds it, before it is saved: the form's values of that channel's
// settings over the saved ones, one attempt to each of its destinations, nothing stored. A saved secret left masked
// goes only where it was saved for: a draft that points the channel elsewhere must type the secret again.

/** The settings of each channel, by prefix (the reference's key names). */
const CHANNEL_PREFIX: Record<TNotifyChannel, string> = {
  custom: "CUSTOM_WEBHOOK_",
  wechat: "WECHAT_",
  feishu: "FEISHU_",
  dingtalk: "DINGTALK_",
  telegram: "TELEGRAM_",
  discord: "DISCORD_",
  slack: "SLACK_",
  email: "EMAIL_",
  pushover: "PUSHOVER_",
  ntfy: "NTFY_",
  gotify: "GOTIFY_",
  pushplus: "PUSHPLUS_",
  serverchan3: "SERVERCHAN3_",
  astrbot: "ASTRBOT_",
  webpush: "WEB_PUSH_",
};

type Response = TNotificationDraftTestResponse;

/** Settings that say where a channel connects (a chat id or a recipient list does not move a secret elsewhere). */
const DESTINATION_KEY = /_(?:URL|URLS|HOST|PORT)$/;

function refused(errorCode: string, message: string): Response {
  return { success: false, message, error_code: errorCode, stage: "validate", retryable: false, attempts: [] };
}

const channelKeys = (channel: TNotifyChannel) =>
  Object.keys(ZSettings.shape).filter((key) => key.startsWith(CHANNEL_PREFIX[channel]));

/** The channel's settings as the draft makes them, or why the draft cannot be tested. */
function draftSettings(body: TNotificationDraftTestRequest): Readonly<TSettings> | Response {
  const keys = new Set(channelKeys(body.channel));
  const raw: Record<string, string> = {};
  for (const key of keys) raw[key] = getRawSetting(key) ?? "";
  const keptSecrets: string[] = [];
  const changed: string[] = [];
  for (const { key, value } of body.items) {
    if (!keys.has(key))
      return refused("foreign_key", `${key} is not a setting of the ${body.channel} channel; send only its own keys`);
    if (isSensitiveKey(key) && isMaskValue(value, body.mask_token)) {
      if (raw[key] !== "") keptSecrets.push(key);
      continue;
    }
    if (value.trim() !== raw[key]!.trim()) changed.push(key);
    raw[key] = value;
  }
  // A saved secret is sent only with the saved destination: otherwise a form could send it to a host of its choosing.
  const destinations = changed.filter((key) => DESTINATION_KEY.test(key));
  if (keptSecrets.length > 0 && destinations.length > 0)
    return refused(
      "secret_required",
      `Type ${keptSecrets.join(", ")} again: the draft changes ${destinations.join(", ")}, and a saved secret is sent only where it was saved for`,
    );
  const parsed = ZSettings.pick(Object.fromEntries([...keys].map((k) => [k, true])) as never).safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return refused("validation_failed", `${issue?.path.join(".") ?? body.channel}: ${issue?.message ?? "invalid"}`);
  }
  return { ...getSettings(), ...(parsed.data as Partial<TSettings>) };
}

/** Where an attempt went, without a path, query or token: the origin of a URL-shaped secret, else nothing. */
function targetOf(target: ChannelTarget): string | undefined {
  for (const secret of target.secrets) {
    try {
      return new URL(secret).origin;
    } catch {
      // not a URL
    }
  }
  return undefined;
}

async function attempt(
  target: ChannelTarget,
  body: TNotificationDraftTestRequest,
  settings: Readonly<TSettings>,
): Promise<Response["attempts"][number]> {
  const timeoutMs = body.timeout_seconds * 1000;
  const started = Date.now();
  const message = { kind: "test" as const, title: body.title, body: body.content, related: null };
  const where = targetOf(target);
  try {
    for (const part of splitMessage(message, target.limit)) {
      await Promise.race([
        target.send(part, { now: new Date(), timeoutMs }),
        new Promise<never>((_, reject) =>
          setTimeout(() => reject(new DeliveryError(`timeout after ${timeoutMs} ms`, true)), timeoutMs + 1000).unref(),
        ),
      ]);
    }
    return {
      channel: target.id,
      success: true,
      message: "sent",
      ...(where ? { target: where } : {}),
      stage: "send",
      retryable: false,
      latency_ms: Date.now() - started,
    };
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    const reason = redactReason(text, [...target.secrets, ...channelSecrets(settings, body.channel)]);
    const status = /\bHTTP (\d{3})\b/.exec(text)?.[1];
    const refusedByPolicy = /^destination refused/.test(text);
    return {
      channel: target.id,
      success: false,
      message: reason,
      ...(where ? { target: where } : {}),
      error_code: refusedByPolicy ? "destination_refused" : status ? "http_error" : "send_failed",
      stage: refusedByPolicy ? "validate" : "send",
      retryable: error instanceof DeliveryError ? error.retryable : false,
      latency_ms: Date.now() - started,
      ...(status ? { http_status: Number(status) } : {}),
    };
  }
}

/** Every secret of the draft's channel and every saved one: none may come back in a reason. */
function channelSecrets(settings: Readonly<TSettings>, channel: TNotifyChannel): string[] {
  const own = channelKeys(channel)
    .filter(isSensitiveKey)
    .flatMap((key) => {
      const value = settings[key as keyof TSettings];
      return Array.isArray(value) ? value.map(String) : [String(value ?? "")];
    });
  return [...own, ...sensitiveSettingValues()];
}

export async function testNotificationDraft(body: TNotificationDraftTestRequest): Promise<Response> {
  const settings = draftSettings(body);
  if ("success" in settings) return settings;
  const targets = configuredTargets(settings).filter((t) => t.channel === body.channel);
  if (targets.length === 0)
    return refused(
      "channel_not_configured",
      `The draft leaves the ${body.channel} channel off: fill in its required settings (${CHANNEL_PREFIX[body.channel]}…)`,
    );
  const started = Date.now();
  const attempts = await Promise.all(targets.map((target) => attempt(target, body, settings)));
  const failed = attempts.find((a) => !a.success);
  return {
    success: !failed,
    message: failed ? failed.message : `sent to ${attempts.length} destination${attempts.length === 1 ? "" : "s"}`,
    ...(failed?.error_code ? { error_code: failed.error_code } : {}),
    ...(failed ? { stage: failed.stage } : {}),
    retryable: failed?.retryable ?? false,
    latency_ms: Date.now() - started,
    attempts,
  };
}
