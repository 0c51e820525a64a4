import { route } from "@/lib/http/route";
import { deletePushSubscriptionOp } from "@/lib/push/operations";
import { unsubscribe } from "@/lib/push/service";

export const dynamic = "force-dynamic";

// DELETE /api/v1/push/subscriptions/{id} – unsubscribe a browser
export const DELETE = route(deletePushSubscriptionOp, ({ params }) => unsubscribe(params.id));
