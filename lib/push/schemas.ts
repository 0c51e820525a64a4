import { z } from "zod";

const BASE64URL = /^[A-Za-z0-9_-]+=*$/;

export const ZPushSubscriptionCreate = z
  .object({
    endpoint: z
      .string()
      .url()
      .max(2000)
      .refine((v) => /^https?:\/\//.test(v), "endpoint must be an http(s) URL")
      .describe("PushSubscription.endpoint, as the browser gave it"),
    keys: z.object({
      p256dh: z.string().regex(BASE64URL).min(80).max(100).describe("The browser's P-256 public key (Base64url)"),
      auth: z.string().regex(BASE64URL).min(16).max(32).describe("The 16-byte auth secret (Base64url)"),
    }),
    label: z.string().trim().max(80).optional().describe("What the device is, for the list (browser and system)"),
  })
  .meta({ id: "PushSubscriptionCreate" });
export type TPushSubscriptionCreate = z.infer<typeof ZPushSubscriptionCreate>;

export const ZPushSubscription = z
  .object({
    id: z.number().int(),
    label: z.string(),
    service: z.string().describe("The push service's host (the endpoint itself is a capability and never shown)"),
    created_at: z.string(),
    last_sent_at: z.string().nullable(),
    failures: z.number().int().describe("Pushes refused in a row (429/5xx); a 404 or 410 removes the subscription"),
  })
  .meta({ id: "PushSubscription" });
export type TPushSubscription = z.infer<typeof ZPushSubscription>;

export const ZPushSubscriptionList = z
  .object({ items: z.array(ZPushSubscription) })
  .meta({ id: "PushSubscriptionList" });

export const ZVapidKey = z
  .object({
    public_key: z.string().describe("The VAPID public key (Base64url): PushManager.subscribe's applicationServerKey"),
  })
  .meta({ id: "VapidKey" });

export const ZPushSubscriptionParams = z.object({ id: z.coerce.number().int().positive() });
