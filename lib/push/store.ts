import type { PushSubscription } from "@/generated/prisma/client";
import { now } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { notFound } from "@/lib/errors/api-error";
import type { TPushSubscription, TPushSubscriptionCreate } from "./schemas";

// The browsers subscribed to Web Push. A browser subscribing again (a new key after its push service rotated it)
// replaces its row, keyed by the endpoint.

export const MAX_SUBSCRIPTIONS = 50;

function toWire(row: PushSubscription): TPushSubscription {
  let service = "";
  try {
    service = new URL(row.endpoint).host;
  } catch {
    service = "";
  }
  return {
    id: row.id,
    label: row.label,
    service,
    created_at: row.createdAt.toISOString(),
    last_sent_at: row.lastSentAt?.toISOString() ?? null,
    failures: row.failures,
  };
}

export async function listSubscriptions(): Promise<{ items: TPushSubscription[] }> {
  const rows = await db().pushSubscription.findMany({ orderBy: { id: "asc" } });
  return { items: rows.map(toWire) };
}

export async function subscribe(input: TPushSubscriptionCreate): Promise<TPushSubscription> {
  const data = { p256dh: input.keys.p256dh, auth: input.keys.auth, label: input.label || "browser", failures: 0 };
  const existing = await db().pushSubscription.findUnique({ where: { endpoint: input.endpoint } });
  if (existing) return toWire(await db().pushSubscription.update({ where: { id: existing.id }, data }));
  // The oldest device makes room: a forgotten browser must not block a new one.
  const count = await db().pushSubscription.count();
  if (count >= MAX_SUBSCRIPTIONS) {
    const oldest = await db().pushSubscription.findFirst({ orderBy: { id: "asc" } });
    if (oldest)
      await db()
        .pushSubscription.delete({ where: { id: oldest.id } })
        .catch(() => undefined);
  }
  const row = await db().pushSubscription.upsert({
    where: { endpoint: input.endpoint },
    create: { endpoint: input.endpoint, ...data, createdAt: now() },
    update: data,
  });
  return toWire(row);
}

export async function unsubscribe(id: number): Promise<void> {
  const removed = await db().pushSubscription.deleteMany({ where: { id } });
  if (removed.count === 0) throw notFound(`No push subscription has id ${id}`);
}

export function allSubscriptions(): Promise<PushSubscription[]> {
  return db().pushSubscription.findMany({ orderBy: { id: "asc" } });
}

export async function recordPush(id: number, outcome: "sent" | "gone" | "failed"): Promise<void> {
  if (outcome === "gone") await db().pushSubscription.deleteMany({ where: { id } });
  else if (outcome === "sent")
    await db().pushSubscription.updateMany({ where: { id }, data: { lastSentAt: now(), failures: 0 } });
  else await db().pushSubscription.updateMany({ where: { id }, data: { failures: { increment: 1 } } });
}
