import { ZErrorResponse } from "@/lib/errors/schemas";
import { defineOperation, type Operation } from "@/lib/operation/operation";
import {
  ZPushSubscription,
  ZPushSubscriptionCreate,
  ZPushSubscriptionList,
  ZPushSubscriptionParams,
  ZVapidKey,
} from "./schemas";

const TAGS = ["Web Push"];
const CHANNEL =
  "Web Push is the notification channel `webpush`: alerts, reports (the daily run's included) and paper fills reach " +
  "every subscribed browser, routed like the other channels (NOTIFICATION_<KIND>_CHANNELS). " +
  'POST /api/v1/notifications/test with channels ["webpush"] sends a test push.';

export const createVapidKeyOp = defineOperation({
  method: "POST",
  path: "/api/v1/push/vapid-key",
  operationId: "getPushVapidKey",
  summary: "The VAPID public key a browser subscribes with (generated once, kept with the settings)",
  description: CHANNEL,
  tags: TAGS,
  responses: { 200: { description: "The key", schema: ZVapidKey } },
});

export const listPushSubscriptionsOp = defineOperation({
  method: "GET",
  path: "/api/v1/push/subscriptions",
  operationId: "listPushSubscriptions",
  summary: "The browsers subscribed to push (the endpoints are not shown)",
  tags: TAGS,
  responses: { 200: { description: "Every subscription", schema: ZPushSubscriptionList } },
});

export const createPushSubscriptionOp = defineOperation({
  method: "POST",
  path: "/api/v1/push/subscriptions",
  operationId: "createPushSubscription",
  summary: "Subscribe a browser: PushSubscription.toJSON() and a label; the same endpoint again replaces its keys",
  description: `${CHANNEL} At most 50 browsers: the oldest makes room.`,
  tags: TAGS,
  body: ZPushSubscriptionCreate,
  responses: {
    201: { description: "Subscribed", schema: ZPushSubscription },
    422: { description: "validation_error: not a push subscription", schema: ZErrorResponse },
  },
});

export const deletePushSubscriptionOp = defineOperation({
  method: "DELETE",
  path: "/api/v1/push/subscriptions/{id}",
  operationId: "deletePushSubscription",
  summary: "Unsubscribe a browser",
  tags: TAGS,
  params: ZPushSubscriptionParams,
  responses: {
    204: { description: "Removed" },
    404: { description: "not_found: no subscription has this id", schema: ZErrorResponse },
  },
});

export const PUSH_OPERATIONS: readonly Operation[] = [
  createVapidKeyOp,
  listPushSubscriptionsOp,
  createPushSubscriptionOp,
  deletePushSubscriptionOp,
];
