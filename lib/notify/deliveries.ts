import { db } from "@/lib/db/client";
import { logger } from "@/lib/log/logger";
import type { DeliveryOutcome, NotificationMessage } from "./types";

export interface DeliveryRecord extends DeliveryOutcome {
  kind: NotificationMessage["kind"];
  title: string;
  related: NotificationMessage["related"];
  dedupKey: string;
  subject: string | null;
  latencyMs: number | null;
  createdAt: Date;
}

/** Stores one channel's outcome; a failure to store is logged, never thrown (sending must not fail on it). */
export async function recordDelivery(record: DeliveryRecord): Promise<void> {
  try {
    await db().notificationDelivery.create({
      data: {
        channel: record.channel,
        kind: record.kind,
        status: record.status,
        attempts: record.attempts,
        error: record.error,
        title: record.title.slice(0, 300),
        relatedKind: record.related?.kind ?? null,
        relatedId: record.related ? String(record.related.id) : null,
        dedupKey: record.dedupKey,
        subject: record.subject,
        latencyMs: record.latencyMs,
        createdAt: record.createdAt,
      },
    });
  } catch (error) {
    logger.warn({ err: (error as Error).message, channel: record.channel }, "notification delivery not recorded");
  }
}

/**
 * True when a message matching `match` was sent to this channel since `since`: the same message (dedupKey, the
 * duplicate window) or one about the same subject (the cooldown). A failed lookup sends rather than drops.
 */
export async function sentSince(
  channel: string,
  match: { dedupKey: string } | { subject: string },
  since: Date,
): Promise<boolean> {
  try {
    const row = await db().notificationDelivery.findFirst({
      where: { channel, ...match, status: "sent", createdAt: { gte: since } },
      select: { id: true },
    });
    return row !== null;
  } catch (error) {
    logger.warn({ err: (error as Error).message, channel }, "notification history lookup failed; sending");
    return false;
  }
}
