import { route } from "@/lib/http/route";
import { sendTestNotificationOp } from "@/lib/notify/operations";
import { sendTestNotification } from "@/lib/notify/service";

export const dynamic = "force-dynamic";

// POST /api/v1/notifications/test – a test message to the configured channels
export const POST = route(sendTestNotificationOp, ({ body }) => sendTestNotification(body ?? {}));
