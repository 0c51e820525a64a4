import { listAlertTriggersOp } from "@/lib/alerts/operations";
import { listAlertTriggers } from "@/lib/alerts/triggers";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// GET /api/v1/alerts/triggers – trigger history with filters and paging
export const GET = route(listAlertTriggersOp, ({ query }) => listAlertTriggers(query));
