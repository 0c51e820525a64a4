import { z } from "zod";
import { NOTIFY_CHANNELS } from "./types";

// The settings page's "send test" of one channel as the form holds it (CONTRACT §14.2): the draft's values over the
// saved ones, nothing saved. A remote failure is 200 with success=false, a stage and a short reason.

export const DRAFT_TEST_STAGES = ["validate", "send"] as const;

export const ZNotificationDraftTestRequest = z
  .object({
    channel: z.enum(NOTIFY_CHANNELS),
    items: z
      .array(z.object({ key: z.string().trim().min(1).max(128), value: z.string().max(8192) }))
      .max(50)
      .default([])
      .describe(
        "The form's values of this channel's settings; a sensitive one sent as mask_token keeps the saved value",
      ),
    mask_token: z.string().max(32).default("******"),
    title: z.string().trim().min(1).max(80).default("DSA test notification"),
    content: z.string().trim().min(1).max(1000).default("This is a test message from DSA."),
    timeout_seconds: z.number().int().min(1).max(120).default(20),
  })
  .meta({ id: "NotificationDraftTestRequest" });
export type TNotificationDraftTestRequest = z.infer<typeof ZNotificationDraftTestRequest>;

const ZAttempt = z.object({
  channel: z.string().describe("The delivery id (wechat, custom#2, feishu-app…)"),
  success: z.boolean(),
  message: z.string(),
  target: z.string().optional().describe("Where it went, without a path or token (an origin, or a masked address)"),
  error_code: z.string().optional(),
  stage: z.enum(DRAFT_TEST_STAGES),
  retryable: z.boolean(),
  latency_ms: z.number().int().optional(),
  http_status: z.number().int().optional(),
});

export const ZNotificationDraftTestResponse = z
  .object({
    success: z.boolean(),
    message: z.string(),
    error_code: z.string().optional(),
    stage: z.enum(DRAFT_TEST_STAGES).optional(),
    retryable: z.boolean(),
    latency_ms: z.number().int().optional(),
    attempts: z.array(ZAttempt),
  })
  .meta({ id: "NotificationDraftTestResponse" });
export type TNotificationDraftTestResponse = z.infer<typeof ZNotificationDraftTestResponse>;
