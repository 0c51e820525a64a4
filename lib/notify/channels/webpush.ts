import { pushToAll } from "@/lib/push/deliver";
import { DeliveryError } from "../http";
import { markdownToPlain } from "../text";
import type { NotificationMessage } from "../types";
import type { ChannelTarget } from "./target";

// Web Push: one notification per message to every subscribed browser (lib/push). The body is plain text (a
// notification renders no Markdown); a click opens the message's link, a report's page.

export function webPushPayload(message: NotificationMessage) {
  let url = "/";
  if (message.link) {
    try {
      const link = new URL(message.link.url, "http://service.invalid");
      url = `${link.pathname}${link.search}`;
    } catch {
      url = "/";
    }
  }
  return {
    title: message.title.slice(0, 120),
    body: markdownToPlain(message.body)
      .replace(/\n{2,}/g, "\n")
      .trim(),
    url,
    tag: message.subject ?? undefined,
  };
}

export function webPushTarget(): ChannelTarget {
  return {
    id: "webpush",
    channel: "webpush",
    secrets: [],
    async send(message, context) {
      const outcome = await pushToAll(webPushPayload(message), context.timeoutMs);
      if (outcome.failed.length === 0 && outcome.sent > 0) return;
      if (outcome.sent === 0 && outcome.failed.length === 0)
        throw new DeliveryError(
          outcome.gone > 0
            ? "every subscribed browser has unsubscribed (the push service answered 404/410)"
            : "no browser is subscribed to push",
          false,
        );
      // Retried only when no browser got it: a retry sends to every browser again.
      throw new DeliveryError(
        `${outcome.failed.length} of ${outcome.failed.length + outcome.sent} browsers not reached: ${outcome.failed[0]!.reason}`,
        outcome.sent === 0 && outcome.failed.every((f) => f.retryable),
      );
    },
  };
}
