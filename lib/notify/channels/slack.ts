import { DeliveryError, errorCode, parseAnswer, postJson } from "../http";
import { fitMessage, markdownToSlack, utf16Units } from "../text";
import type { NotificationMessage } from "../types";
import { markdownParts, type ChannelTarget } from "./target";

/** Slack truncates a message's text at 40000 characters; cut before that, converted to mrkdwn first. */
export const SLACK_MAX_CHARS = 39_000;
/** Slack's Web API host; the bot calls /api/chat.postMessage there. */
export const SLACK_API_BASE_URL = "https://slack.com";
// chat.postMessage errors worth another attempt (the others are configuration: channel_not_found, not_in_channel…).
const RETRYABLE_ERRORS = new Set([
  "ratelimited",
  "rate_limited",
  "service_unavailable",
  "fatal_error",
  "internal_error",
  "request_timeout",
]);

export interface SlackBotSettings {
  botToken: string;
  channelId: string;
  /** Default https://slack.com; tests point it at a local receiver. */
  apiBaseUrl?: string;
}

export function slackPayload(message: NotificationMessage) {
  const parts = markdownParts(message, "bold");
  return {
    text: fitMessage(
      { head: markdownToSlack(parts.head), body: markdownToSlack(parts.body), tail: markdownToSlack(parts.tail) },
      SLACK_MAX_CHARS,
      utf16Units,
    ),
  };
}

/** chat.postMessage's body: the webhook's mrkdwn text, addressed to the channel. */
export function slackBotPayload(message: NotificationMessage, channelId: string) {
  return { channel: channelId, ...slackPayload(message), mrkdwn: true };
}

export function slackTarget(webhookUrl: string): ChannelTarget {
  return {
    id: "slack",
    limit: { max: SLACK_MAX_CHARS, measure: utf16Units },
    channel: "slack",
    secrets: [webhookUrl],
    async send(message, context) {
      const answer = await postJson(webhookUrl, slackPayload(message), { timeoutMs: context.timeoutMs });
      // Incoming webhooks answer the plain text "ok".
      if (answer.text.trim() !== "" && answer.text.trim() !== "ok")
        throw new DeliveryError(`slack answered: ${errorCode(answer.text.trim())}`, false);
    },
  };
}

/** Bot mode: chat.postMessage with the bot token; preferred over the webhook when both are set. */
export function slackBotTarget(settings: SlackBotSettings): ChannelTarget {
  const base = (settings.apiBaseUrl ?? SLACK_API_BASE_URL).replace(/\/+$/, "");
  return {
    id: "slack",
    limit: { max: SLACK_MAX_CHARS, measure: utf16Units },
    channel: "slack",
    secrets: [settings.botToken],
    async send(message, context) {
      const answer = parseAnswer(
        (
          await postJson(`${base}/api/chat.postMessage`, slackBotPayload(message, settings.channelId), {
            headers: { authorization: `Bearer ${settings.botToken}` },
            timeoutMs: context.timeoutMs,
          })
        ).text,
      );
      // The Web API answers 200 with {ok: false, error} for failures.
      if (answer.ok !== true) {
        const error = String(answer.error ?? "no ok in the answer");
        throw new DeliveryError(`slack answered ok=false: ${error}`.slice(0, 300), RETRYABLE_ERRORS.has(error));
      }
    },
  };
}
