import type { TPushSubscriptionCreate } from "./schemas";
import { listSubscriptions, subscribe, unsubscribe } from "./store";
import { ensureVapidKeys } from "./vapid";

// The push routes' operations.

// POST /api/v1/push/vapid-key
export async function vapidPublicKey(): Promise<{ public_key: string }> {
  return { public_key: (await ensureVapidKeys()).publicKey };
}

// POST /api/v1/push/subscriptions – the key pair exists before any browser can have subscribed with it
export async function addSubscription(input: TPushSubscriptionCreate) {
  await ensureVapidKeys();
  return subscribe(input);
}

export { listSubscriptions, unsubscribe };
