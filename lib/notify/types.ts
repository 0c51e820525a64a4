import { NOTIFICATION_CHANNELS } from "@/lib/config/schema";

/**
 * Routing kinds: each has its own channel list (NOTIFICATION_<KIND>_CHANNELS); empty means every channel. A test
 * message (POST /notifications/test) goes to the channels asked for, past routing and noise control.
 */
export type TNotificationKind = "report" | "alert" | "system_error" | "test";

/** The channels lib/notify implements; names as in the reference's routing lists (NOTIFICATION_CHANNELS). */
export const NOTIFY_CHANNELS = [
  "custom",
  "wechat",
  "feishu",
  "dingtalk",
  "telegram",
  "discord",
  "slack",
  "email",
  "pushover",
  "ntfy",
  "gotify",
  "pushplus",
  "serverchan3",
  "astrbot",
  "webpush",
] as const;
export type TNotifyChannel = (typeof NOTIFY_CHANNELS)[number] & (typeof NOTIFICATION_CHANNELS)[number];

export interface NotificationMessage {
  kind: TNotificationKind;
  /** One line; channels with a subject or header show it there. */
  title: string;
  /** Markdown (bold, lists, links); each channel converts it to what it renders and cuts it to its limit. */
  body: string;
  /** The report (or page) the message is about; kept when the body is cut. */
  link?: { url: string; label: string } | null;
  /** What the message reports on, stored with each delivery: analysis + query_id, alert + trigger id, ... */
  related?: { kind: string; id: string | number } | null;
  /** For NOTIFICATION_MIN_SEVERITY and quiet hours (critical passes them); default by kind (lib/notify/notify.ts). */
  severity?: "info" | "warning" | "error" | "critical";
  /** What NOTIFICATION_COOLDOWN_SECONDS spaces out ("stock:cn:600519", "alert-rule:3"); none: no cooldown. */
  subject?: string | null;
}

export interface NotifyOptions {
  /** Only these channels (still subject to the kind's routing list). */
  channels?: readonly TNotifyChannel[];
  /** Identity for duplicate suppression; default: a hash of kind, title, body and link. */
  dedupKey?: string;
}

export type TDeliveryStatus = "sent" | "failed" | "suppressed";

export interface DeliveryOutcome {
  /** The delivery row's channel: the channel name, or custom#2… for further generic webhooks. */
  channel: string;
  status: TDeliveryStatus;
  attempts: number;
  /** Sanitised reason of the last failed attempt (no token, no webhook URL), or why it was suppressed. */
  error: string | null;
}

export interface NotifyResult {
  /**
   * sent: every attempted channel delivered (some may be suppressed duplicates); partial: some failed;
   * failed: none delivered; suppressed: all were duplicates; no_channels: none enabled for this message.
   */
  status: "sent" | "partial" | "failed" | "suppressed" | "no_channels";
  deliveries: DeliveryOutcome[];
}
