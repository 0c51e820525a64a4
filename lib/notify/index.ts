import type { AnalysisHistory } from "@/generated/prisma/client";
import { now } from "@/lib/clock";
import type { TAnalysisReport } from "@/lib/history/schemas";
import { logger } from "@/lib/log/logger";
import type { TMarketReviewPayload } from "@/lib/market-review/schemas";
import { alertMessage, analysisMessage, marketReviewMessage, type AlertTriggerNotice } from "./messages";
import { recordDelivery } from "./deliveries";
import { notify, notifyInBackground } from "./notify";
import type { NotificationMessage, NotifyResult } from "./types";

// Notifications. notify() sends to every enabled channel; the helpers below build the
// messages of the three callers: finished analyses, market reviews and alert triggers.
export { notify, notifyInBackground, settleNotifications } from "./notify";
export { analysisMessage, marketReviewMessage, alertMessage, historyLink, type AlertTriggerNotice } from "./messages";
export type {
  DeliveryOutcome,
  NotificationMessage,
  NotifyOptions,
  NotifyResult,
  TNotificationKind,
  TNotifyChannel,
} from "./types";

/** After an analysis with notify=true: fire-and-forget; the analysis result never waits on it. */
export function notifyAnalysisCompleted(record: AnalysisHistory, report: TAnalysisReport): void {
  inBackground(() => analysisMessage(record, report));
}

/** After a market review with send_notification=true: fire-and-forget. */
export function notifyMarketReviewCompleted(record: AnalysisHistory, payload: TMarketReviewPayload): void {
  inBackground(() => marketReviewMessage(record, payload));
}

/**
 * For the alerts evaluator: sends a trigger (kind "alert", NOTIFICATION_ALERT_CHANNELS) and resolves with the
 * outcome, so the trigger can be stored as sent / failed / suppressed. Never rejects. The dedup key is the
 * trigger id, so with NOTIFICATION_DEDUP_TTL_SECONDS on a repeated call for one trigger is suppressed.
 */
export async function notifyAlertTrigger(notice: AlertTriggerNotice): Promise<NotifyResult> {
  try {
    return await notify(alertMessage(notice), { dedupKey: `alert:${notice.triggerId}` });
  } catch (error) {
    logger.error({ err: (error as Error).message }, "alert notification not built");
    return { status: "failed", deliveries: [] };
  }
}

/**
 * For the alerts evaluator: a trigger it did not send for a reason of its own (cooldown_active: the rule's
 * cooldown for that target; no_channel: nothing enabled for alerts) is logged as one delivery row with channel
 * "none", so the trigger's notification record says why nothing went out. Never rejects.
 */
export async function recordHeldAlertNotification(
  notice: AlertTriggerNotice,
  code: "cooldown_active" | "no_channel",
  detail: string,
): Promise<void> {
  try {
    const message = alertMessage(notice);
    await recordDelivery({
      channel: "none",
      status: "suppressed",
      attempts: 0,
      error: `${code}: ${detail}`,
      kind: "alert",
      title: message.title,
      related: message.related ?? null,
      dedupKey: `alert:${notice.triggerId}`,
      subject: message.subject ?? null,
      latencyMs: null,
      createdAt: now(),
    });
  } catch (error) {
    logger.error({ err: (error as Error).message }, "alert notification record not built");
  }
}

// Building the message runs in the caller's turn: a bug there is logged, never thrown into the analysis.
function inBackground(build: () => NotificationMessage): void {
  try {
    void notifyInBackground(build());
  } catch (error) {
    logger.error({ err: (error as Error).message }, "notification not built");
  }
}
