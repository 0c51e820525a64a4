import { notifyAlertTrigger } from "@/lib/notify";
import type { AlertDeliver } from "./evaluator";

/**
 * Sends a firing through the notification channels routed for alerts. A trigger is "sent" when at least
 * one channel delivered, "failed" when every attempted channel failed, "suppressed" when there was nothing
 * to send to (no channel enabled) or lib/notify held it back (duplicate, cooldown, quiet hours, minimum severity).
 */
export const defaultAlertDeliver: AlertDeliver = async (message) => {
  const result = await notifyAlertTrigger({
    triggerId: message.triggerId,
    ruleId: message.ruleId,
    ruleName: message.ruleName,
    target: message.target,
    message: message.text,
    observedValue: message.observed,
    threshold: message.threshold,
    severity: message.severity,
    link: null,
  });
  const deliveries = result.deliveries.map((d) => ({ channel: d.channel, status: d.status, attempts: d.attempts, error: d.error }));
  switch (result.status) {
    case "sent":
    case "partial":
      return { status: "sent", detail: { result: result.status, deliveries } };
    case "failed":
      return { status: "failed", detail: { result: result.status, deliveries } };
    case "no_channels":
      return { status: "suppressed", detail: { result: result.status, reason: "no notification channel is enabled for alerts" } };
    case "suppressed":
      // Duplicate, cooldown, quiet hours or minimum severity: each delivery carries its reason.
      return { status: "suppressed", detail: { result: result.status, reason: result.deliveries[0]?.error ?? "suppressed", deliveries } };
  }
};
