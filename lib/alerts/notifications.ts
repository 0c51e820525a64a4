import type { Prisma } from "@/generated/prisma/client";
import { db } from "@/lib/db/client";
import type { TAlertNotificationList, TAlertNotificationListQuery } from "./schemas";
import { toAlertNotification } from "./serialize";

// GET /api/v1/alerts/notifications – the notification records of alert triggers (docs/api.md §12.2.5), read from
// lib/notify's delivery log (notification_delivery rows related to an alert trigger), newest first.
export async function listAlertNotifications(query: TAlertNotificationListQuery): Promise<TAlertNotificationList> {
  const where: Prisma.NotificationDeliveryWhereInput = {
    relatedKind: "alert",
    ...(query.trigger_id !== undefined ? { relatedId: String(query.trigger_id) } : {}),
    ...(query.channel ? { channel: query.channel } : {}),
    ...(query.success === true ? { status: "sent" } : query.success === false ? { status: { not: "sent" } } : {}),
  };
  const [total, rows] = await Promise.all([
    db().notificationDelivery.count({ where }),
    db().notificationDelivery.findMany({
      where,
      orderBy: { id: "desc" },
      skip: (query.page - 1) * query.page_size,
      take: query.page_size,
    }),
  ]);
  return { items: rows.map(toAlertNotification), total, page: query.page, page_size: query.page_size };
}
