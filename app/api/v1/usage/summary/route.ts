import { route } from "@/lib/http/route";
import { getUsageSummaryOp } from "@/lib/usage/operations";
import { usageSummary } from "@/lib/usage/summary";

export const dynamic = "force-dynamic";

// GET /api/v1/usage/summary – token use of today, this month or all time
export const GET = route(getUsageSummaryOp, ({ query }) => usageSummary(query.period));
