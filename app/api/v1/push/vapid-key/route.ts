import { route } from "@/lib/http/route";
import { createVapidKeyOp } from "@/lib/push/operations";
import { vapidPublicKey } from "@/lib/push/service";

export const dynamic = "force-dynamic";

// POST /api/v1/push/vapid-key – the key browsers subscribe with (generated on first use)
export const POST = route(createVapidKeyOp, () => vapidPublicKey());
