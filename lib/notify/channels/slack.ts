import { DeliveryError, postJson } from "../http";
import { fitMessage, markdownToSlack, utf16Units } from "../text";
import type { NotificationMessage } from "../types";
import { markdownParts, type ChannelTarget } from "./target";

/** Slack truncates a message's text at 40000 characters; cut before that, converted to mrkdwn first. */
export const SLACK_MAX_CHARS = 39_000;

export function slackPayload(message: NotificationMessage) {
  const parts = markdownParts(message, "bold");
  return {
    text: fitMessage({ head: markdownToSlack(parts.head), body: markdownToSlack(parts.body), tail: markdownToSlack(parts.tail) }, SLACK_MAX_CHARS, utf16Units),
  };
}

export function slackTarget(webhookUrl: string): ChannelTarget {
  return {
    id: "slack",
    channel: "slack",
    secrets: [webhookUrl],
    async send(message, context) {
      const answer = await postJson(webhookUrl, slackPayload(message), { timeoutMs: context.timeoutMs });
      // Incoming webhooks answer the plain text "ok".
      if (answer.text.trim() !== "" && answer.text.trim() !== "ok") throw new DeliveryError(`slack answered: ${answer.text.slice(0, 200)}`, false);
    },
  };
}
