import { z } from "zod";

// Base64url of a P-256 public key (65 bytes: 87 characters) and of a 16-byte auth secret (22), padded or not.
const P256DH = /^[A-Za-z0-9_-]{87}=?$/;
const AUTH_SECRET = /^[A-Za-z0-9_-]{22}(?:==)?$/;

export const ZPushSubscriptionCreate = z
  .object({
    endpoint: z
      .string()
      .url()
      .max(2000)
      .refine((v) => /^https?:\/\//.test(v), "endpoint must be an http(s) URL")
      .describe("PushSubscription.endpoint, as the browser gave it"),
    keys: z.object({
      p256dh: z.string().regex(P256DH, "a P-256 public key in Base64url").describe("The browser's P-256 public key"),
      auth: z.string().regex(AUTH_SECRET, "16 bytes in Base64url").describe("The 16-byte auth secret (Base64url)"),
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
