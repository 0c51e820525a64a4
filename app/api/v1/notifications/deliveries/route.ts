import { route } from "@/lib/http/route";
import { listDeliveriesOp } from "@/lib/notify/operations";
import { listDeliveries } from "@/lib/notify/service";

export const dynamic = "force-dynamic";

// GET /api/v1/notifications/deliveries – the delivery log
export const GET = route(listDeliveriesOp, ({ query }) => listDeliveries(query));
