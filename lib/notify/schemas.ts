import { z } from "zod";
import { NOTIFY_CHANNELS } from "./types";

export const DELIVERY_STATUSES = ["sent", "failed", "suppressed"] as const;
export const DELIVERY_KINDS = ["report", "alert", "system_error", "test"] as const;
export const DELIVERY_PAGE_SIZE = { min: 1, max: 100, default: 20 } as const;
/** Deliveries the Settings page lists. */
export const RECENT_DELIVERIES = 8;

export const ZNotifyChannelInfo = z
  .object({
    id: z
      .string()
      .describe("Delivery id: the channel name, custom#2… for further webhooks, feishu-app for the Feishu app bot"),
    channel: z.enum(NOTIFY_CHANNELS),
  })
  .meta({ id: "NotifyChannelInfo" });

export const ZNotifyChannelList = z
  .object({
    channels: z.array(ZNotifyChannelInfo).describe("Every channel whose settings are complete; no secret is shown"),
  })
  .meta({ id: "NotifyChannelList" });
export type TNotifyChannelList = z.infer<typeof ZNotifyChannelList>;

export const ZNotifyTestRequest = z
  .object({
    channels: z
      .array(z.enum(NOTIFY_CHANNELS))
      .min(1)
      .max(NOTIFY_CHANNELS.length)
      .optional()
      .describe("Only these channels; default every configured one"),
  })
  .meta({ id: "NotifyTestRequest" });
export type TNotifyTestRequest = z.infer<typeof ZNotifyTestRequest>;

export const ZDeliveryOutcome = z
  .object({
    channel: z.string(),
    status: z.enum(DELIVERY_STATUSES),
    attempts: z.number().int(),
    error: z.string().nullable().describe("Why it failed or was suppressed (no token or webhook URL in it)"),
  })
  .meta({ id: "DeliveryOutcome" });

export const ZNotifyTestResult = z
  .object({
    status: z.enum(["sent", "partial", "failed", "suppressed", "no_channels"]),
    deliveries: z.array(ZDeliveryOutcome),
  })
  .meta({ id: "NotifyTestResult" });
export type TNotifyTestResult = z.infer<typeof ZNotifyTestResult>;

export const ZDeliveryListQuery = z.object({
  status: z.enum(DELIVERY_STATUSES).optional(),
  channel: z.string().trim().min(1).max(40).optional().describe("A delivery id (wechat, custom#2, feishu-app…)"),
  kind: z.enum(DELIVERY_KINDS).optional(),
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce
    .number()
    .int()
    .min(DELIVERY_PAGE_SIZE.min)
    .max(DELIVERY_PAGE_SIZE.max)
    .default(DELIVERY_PAGE_SIZE.default),
});
export type TDeliveryListQuery = z.infer<typeof ZDeliveryListQuery>;

export const ZDeliveryItem = z
  .object({
    id: z.number().int(),
    channel: z.string(),
    kind: z.string(),
    status: z.enum(DELIVERY_STATUSES),
    attempts: z.number().int(),
    error: z.string().nullable(),
    title: z.string(),
    related_kind: z.string().nullable().describe("analysis, market_review, alert…"),
    related_id: z.string().nullable().describe("The analysis query_id, the alert trigger id…"),
    latency_ms: z.number().int().nullable(),
    created_at: z.string(),
  })
  .meta({ id: "NotificationDelivery" });
export type TDeliveryItem = z.infer<typeof ZDeliveryItem>;

export const ZDeliveryListResponse = z
  .object({
    items: z.array(ZDeliveryItem),
    total: z.number().int(),
    page: z.number().int(),
    page_size: z.number().int(),
  })
  .meta({ id: "NotificationDeliveryList" });
export type TDeliveryListResponse = z.infer<typeof ZDeliveryListResponse>;
