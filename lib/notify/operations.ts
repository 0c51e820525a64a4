import { defineOperation, type Operation } from "@/lib/operation/operation";
import { ZNotificationDraftTestRequest, ZNotificationDraftTestResponse } from "./draft-test-schemas";
import {
  ZDeliveryListQuery,
  ZDeliveryListResponse,
  ZNotifyChannelList,
  ZNotifyTestRequest,
  ZNotifyTestResult,
} from "./schemas";

const TAGS = ["Notifications"];

export const listNotifyChannelsOp = defineOperation({
  method: "GET",
  path: "/api/v1/notifications/channels",
  operationId: "listNotificationChannels",
  summary: "The notification channels that are on (beyond the spec)",
  description:
    "A channel is on when its settings are complete (README, Configuration). Only names are listed, never a URL or token.",
  tags: TAGS,
  responses: { 200: { description: "Configured channels", schema: ZNotifyChannelList } },
});

export const sendTestNotificationOp = defineOperation({
  method: "POST",
  path: "/api/v1/notifications/test",
  operationId: "sendTestNotification",
  summary: "Send a test message to the configured channels (beyond the spec)",
  description:
    "Every configured channel, or only those named, gets a short test message at once: routing lists, quiet hours, the " +
    "minimum severity, duplicate suppression and cooldown do not apply. The answer is each channel's outcome " +
    "(status no_channels when none is configured); each is also stored in the delivery log with kind test.",
  tags: TAGS,
  body: ZNotifyTestRequest,
  bodyRequired: false,
  responses: { 200: { description: "Outcome per channel", schema: ZNotifyTestResult } },
});

export const listDeliveriesOp = defineOperation({
  method: "GET",
  path: "/api/v1/notifications/deliveries",
  operationId: "listNotificationDeliveries",
  summary: "The notification delivery log, newest first (beyond the spec)",
  description:
    "One row per message and channel: sent, failed (with the sanitised reason) or suppressed (with why). page_size 1-100, default 20.",
  tags: TAGS,
  query: ZDeliveryListQuery,
  responses: { 200: { description: "One page of deliveries", schema: ZDeliveryListResponse } },
});

export const testNotificationDraftOp = defineOperation({
  method: "POST",
  path: "/api/v1/system/config/notification/test-channel",
  operationId: "testNotificationDraft",
  summary: "Send a test message through one channel as the settings form holds it, unsaved",
  description:
    "The form's values of the channel's settings (items) over the saved ones; a sensitive value sent as mask_token keeps " +
    "the saved secret, which is sent only to the saved destination (a draft that changes the channel's URL, host or port " +
    "must type it again: secret_required). One attempt per destination of the channel, no retries, nothing stored in the " +
    "delivery log. A remote failure is 200 with success=false, a stage (validate, send), an error_code and a reason " +
    "holding no secret; 422 for a malformed body.",
  tags: ["System config"],
  body: ZNotificationDraftTestRequest,
  responses: {
    200: { description: "The outcome, with one attempt per destination", schema: ZNotificationDraftTestResponse },
  },
});

export const NOTIFY_OPERATIONS: readonly Operation[] = [
  listNotifyChannelsOp,
  sendTestNotificationOp,
  listDeliveriesOp,
  testNotificationDraftOp,
];
