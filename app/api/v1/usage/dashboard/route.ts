import { route } from "@/lib/http/route";
import { getUsageDashboardOp } from "@/lib/usage/operations";
import { usageDashboard } from "@/lib/usage/summary";

export const dynamic = "force-dynamic";

// GET /api/v1/usage/dashboard – the summary plus the period's most recent calls
export const GET = route(getUsageDashboardOp, ({ query }) => usageDashboard(query.period, query.limit));
