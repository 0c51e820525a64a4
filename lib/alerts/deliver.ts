import { notifyAlertTrigger, recordHeldAlertNotification, type AlertTriggerNotice } from "@/lib/notify";
import type { AlertDeliver, AlertMessage } from "./delivery-types";

export function noticeOf(message: AlertMessage): AlertTriggerNotice {
  return {
    triggerId: message.triggerId,
    ruleId: message.ruleId,
    ruleName: message.ruleName,
    target: message.target,
    message: message.text,
    observedValue: message.observed,
    threshold: message.threshold,
    severity: message.severity,
    link: null,
  };
}

/**
 * Sends a firing through the notification channels routed for alerts. The firing's delivery is "sent" when at least
 * one channel delivered, "failed" when every attempted channel failed, "suppressed" when there was nothing to send
 * to (no channel enabled: logged as a no_channel notification record) or lib/notify held it back (duplicate,
 * cooldown, quiet hours, minimum severity: each delivery row carries its reason).
 */
export const defaultAlertDeliver: AlertDeliver = async (message) => {
  const notice = noticeOf(message);
  const result = await notifyAlertTrigger(notice);
  const deliveries = result.deliveries.map((d) => ({
    channel: d.channel,
    status: d.status,
    attempts: d.attempts,
    error: d.error,
  }));
  switch (result.status) {
    case "sent":
    case "partial":
      return { status: "sent", detail: { result: result.status, deliveries } };
    case "failed":
      return { status: "failed", detail: { result: result.status, deliveries } };
    case "no_channels": {
      const reason = "no notification channel is enabled for alerts";
      await recordHeldAlertNotification(notice, "no_channel", reason);
      return { status: "suppressed", detail: { result: result.status, reason } };
    }
    case "suppressed":
      return {
        status: "suppressed",
        detail: { result: result.status, reason: result.deliveries[0]?.error ?? "suppressed", deliveries },
      };
  }
};
