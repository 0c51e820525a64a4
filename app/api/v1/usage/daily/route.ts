import { route } from "@/lib/http/route";
import { getUsageDailyOp } from "@/lib/usage/operations";
import { usageDaily } from "@/lib/usage/summary";

export const dynamic = "force-dynamic";

// GET /api/v1/usage/daily – tokens per local day for the usage chart (beyond the spec)
export const GET = route(getUsageDailyOp, ({ query }) => usageDaily(query.days));
