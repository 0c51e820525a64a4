import { listAlertNotifications } from "@/lib/alerts/notifications";
import { listAlertNotificationsOp } from "@/lib/alerts/operations";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// GET /api/v1/alerts/notifications – notification records of alert triggers
export const GET = route(listAlertNotificationsOp, ({ query }) => listAlertNotifications(query));
