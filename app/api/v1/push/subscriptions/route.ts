import { route } from "@/lib/http/route";
import { createPushSubscriptionOp, listPushSubscriptionsOp } from "@/lib/push/operations";
import { addSubscription, listSubscriptions } from "@/lib/push/service";

export const dynamic = "force-dynamic";

// GET /api/v1/push/subscriptions – the subscribed browsers
export const GET = route(listPushSubscriptionsOp, () => listSubscriptions());

// POST /api/v1/push/subscriptions – subscribe this browser
export const POST = route(createPushSubscriptionOp, ({ body }) => addSubscription(body));
