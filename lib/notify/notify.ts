import { createHash } from "node:crypto";
import { now } from "@/lib/clock";
import { sensitiveSettingValues } from "@/lib/config/secret-values";
import { getSettings } from "@/lib/settings/settings";
import type { TSettings } from "@/lib/settings/settings-schema";
import { logger } from "@/lib/log/logger";
import { configuredTargets, type ChannelTarget } from "./channels";
import { recordDelivery, sentSince } from "./deliveries";
import { DeliveryError } from "./http";
import { holdReason, type TSeverity } from "./noise";
import { redactReason } from "./redact";
import { sendBudgetMs, takeSendLock } from "./send-lock";
import { splitMessage } from "./split";
import type { DeliveryOutcome, NotificationMessage, NotifyOptions, NotifyResult, TNotificationKind } from "./types";

const ROUTES: Record<TNotificationKind, keyof TSettings | null> = {
  report: "NOTIFICATION_REPORT_CHANNELS",
  alert: "NOTIFICATION_ALERT_CHANNELS",
  system_error: "NOTIFICATION_SYSTEM_ERROR_CHANNELS",
  test: null,
};

// A message without its own severity: reports are information, alerts warnings, system errors errors.
const KIND_SEVERITY: Record<TNotificationKind, TSeverity> = {
  report: "info",
  alert: "warning",
  system_error: "error",
  test: "info",
};

const DUPLICATE = "duplicate within NOTIFICATION_DEDUP_TTL_SECONDS";

// Sends of one message to one channel still running in this process: an identical second message waits for the
// first instead of racing it past the duplicate window.
const inFlight = new Map<string, Promise<DeliveryOutcome>>();
// Background sends (notifyInBackground) still running, so tests and shutdown can wait for them.
const pending = new Set<Promise<unknown>>();

/**
 * Sends the message to every enabled channel in parallel (routing: NOTIFICATION_<KIND>_CHANNELS, then
 * options.channels), each with retries and exponential backoff, and records each channel's outcome in
 * NotificationDelivery. Never throws: a failure is in the result and the table, not an exception.
 */
export async function notify(message: NotificationMessage, options: NotifyOptions = {}): Promise<NotifyResult> {
  try {
    const settings = getSettings();
    const targets = selectTargets(configuredTargets(settings), settings, message.kind, options);
    if (targets.length === 0) return { status: "no_channels", deliveries: [] };
    const dedupKey = options.dedupKey ?? contentKey(message);
    // A test is sent now, whatever the quiet hours, severity floor, duplicates or cooldown say.
    const held =
      message.kind === "test" ? null : holdReason(message.severity ?? KIND_SEVERITY[message.kind], settings, now());
    if (held) {
      const deliveries = await Promise.all(targets.map((target) => suppress(target, message, dedupKey, held)));
      return { status: "suppressed", deliveries };
    }
    const deliveries = await Promise.all(targets.map((target) => deliverOnce(target, message, dedupKey, settings)));
    return { status: overall(deliveries), deliveries };
  } catch (error) {
    logger.error({ err: (error as Error).message }, "notification not sent");
    return { status: "failed", deliveries: [] };
  }
}

/** Fire-and-forget for callers whose own result must not wait on (or fail with) notifications. */
export function notifyInBackground(message: NotificationMessage, options?: NotifyOptions): Promise<NotifyResult> {
  const sending = notify(message, options);
  pending.add(sending);
  void sending.finally(() => pending.delete(sending));
  return sending;
}

/** Resolves when every background notification started so far has finished (tests, graceful shutdown). */
export async function settleNotifications(): Promise<void> {
  while (pending.size > 0) await Promise.allSettled([...pending]);
}

function selectTargets(
  all: ChannelTarget[],
  settings: Readonly<TSettings>,
  kind: TNotificationKind,
  options: NotifyOptions,
): ChannelTarget[] {
  const route = ROUTES[kind];
  const routed = route ? (settings[route] as string[]) : [];
  return all.filter(
    (target) =>
      (routed.length === 0 || routed.includes(target.channel)) &&
      (!options.channels || options.channels.includes(target.channel)),
  );
}

export function contentKey(message: NotificationMessage): string {
  return createHash("sha256")
    .update(JSON.stringify([message.kind, message.title, message.body, message.link?.url ?? null]))
    .digest("hex");
}

async function deliverOnce(
  target: ChannelTarget,
  message: NotificationMessage,
  dedupKey: string,
  settings: Readonly<TSettings>,
): Promise<DeliveryOutcome> {
  const key = `${target.id}\u0000${dedupKey}`;
  const earlier = inFlight.get(key);
  if (earlier && settings.NOTIFICATION_DEDUP_TTL_SECONDS > 0) {
    const first = await earlier.catch(() => null);
    if (first?.status === "sent") return suppress(target, message, dedupKey, DUPLICATE);
  }
  const running = deliver(target, message, dedupKey, settings);
  inFlight.set(key, running);
  try {
    return await running;
  } finally {
    if (inFlight.get(key) === running) inFlight.delete(key);
  }
}

async function deliver(
  target: ChannelTarget,
  message: NotificationMessage,
  dedupKey: string,
  settings: Readonly<TSettings>,
): Promise<DeliveryOutcome> {
  const ttl = message.kind === "test" ? 0 : settings.NOTIFICATION_DEDUP_TTL_SECONDS;
  const parts = splitMessage(message, target.limit);
  // Several replicas: the duplicate check and the send happen under one lock per channel and message (send-lock.ts).
  const release = ttl > 0 ? await takeSendLock(target.id, dedupKey, sendBudgetMs(settings, parts.length)) : null;
  try {
    return await deliverParts(target, message, parts, dedupKey, settings, ttl);
  } finally {
    await release?.();
  }
}

async function deliverParts(
  target: ChannelTarget,
  message: NotificationMessage,
  parts: NotificationMessage[],
  dedupKey: string,
  settings: Readonly<TSettings>,
  ttl: number,
): Promise<DeliveryOutcome> {
  if (ttl > 0 && (await sentSince(target.id, { dedupKey }, new Date(now().getTime() - ttl * 1000))))
    return suppress(target, message, dedupKey, DUPLICATE);
  const cooldown = settings.NOTIFICATION_COOLDOWN_SECONDS;
  if (
    cooldown > 0 &&
    message.kind !== "test" &&
    message.subject &&
    (await sentSince(target.id, { subject: message.subject }, new Date(now().getTime() - cooldown * 1000)))
  ) {
    return suppress(target, message, dedupKey, `cooldown: ${message.subject} was notified less than ${cooldown} s ago`);
  }

  const started = Date.now();
  // Parts go out in order; a part that fails after its retries stops the rest (the reason names the part).
  let attempts = 0;
  let reason: string | null = null;
  for (const [index, part] of parts.entries()) {
    const result = await sendWithRetries(target, part, settings);
    attempts += result.attempts;
    if (result.reason !== null) {
      reason = parts.length > 1 ? `part ${index + 1}/${parts.length}: ${result.reason}` : result.reason;
      break;
    }
  }
  const outcome: DeliveryOutcome = {
    channel: target.id,
    status: reason === null ? "sent" : "failed",
    attempts,
    error: reason,
  };
  await recordDelivery({
    ...outcome,
    ...describe(message),
    dedupKey,
    latencyMs: Date.now() - started,
    createdAt: now(),
  });
  return outcome;
}

async function sendWithRetries(
  target: ChannelTarget,
  message: NotificationMessage,
  settings: Readonly<TSettings>,
): Promise<{ attempts: number; reason: string | null }> {
  const maxAttempts = settings.NOTIFICATION_RETRY_ATTEMPTS;
  let attempts = 0;
  let reason: string | null = null;
  while (attempts < maxAttempts) {
    if (attempts > 0) await sleep(settings.NOTIFICATION_RETRY_BASE_DELAY_MS * 2 ** (attempts - 1));
    attempts += 1;
    try {
      await withTimeout(
        target.send(message, { now: now(), timeoutMs: settings.NOTIFICATION_TIMEOUT_MS }),
        settings.NOTIFICATION_TIMEOUT_MS,
      );
      return { attempts, reason: null };
    } catch (error) {
      reason = redactReason(error instanceof Error ? error.message : String(error), [
        ...target.secrets,
        ...sensitiveSettingValues(),
      ]);
      logger.warn({ channel: target.id, attempt: attempts, error: reason }, "notification attempt failed");
      if (error instanceof DeliveryError && !error.retryable) break;
    }
  }
  return { attempts, reason };
}

async function suppress(
  target: ChannelTarget,
  message: NotificationMessage,
  dedupKey: string,
  reason: string,
): Promise<DeliveryOutcome> {
  const outcome: DeliveryOutcome = { channel: target.id, status: "suppressed", attempts: 0, error: reason };
  await recordDelivery({ ...outcome, ...describe(message), dedupKey, latencyMs: null, createdAt: now() });
  return outcome;
}

function describe(message: NotificationMessage) {
  return {
    kind: message.kind,
    title: message.title,
    related: message.related ?? null,
    subject: message.subject ?? null,
  };
}

function overall(deliveries: DeliveryOutcome[]): NotifyResult["status"] {
  const sent = deliveries.some((d) => d.status === "sent");
  const failed = deliveries.some((d) => d.status === "failed");
  if (failed) return sent ? "partial" : "failed";
  return sent ? "sent" : "suppressed";
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

// The channels time their own requests; this is the backstop for a send that hangs elsewhere (DNS, TLS).
function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeliveryError(`timeout after ${ms} ms`, true)), ms + 1000);
  });
  return Promise.race([work, limit]).finally(() => clearTimeout(timer));
}
