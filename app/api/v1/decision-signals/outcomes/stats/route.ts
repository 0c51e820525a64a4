import { route } from "@/lib/http/route";
import { outcomeStatsOp } from "@/lib/signals/operations";
import { outcomeStats } from "@/lib/signals/stats";

export const dynamic = "force-dynamic";

// GET /api/v1/decision-signals/outcomes/stats – hit rate and average return by horizon, action and more
export const GET = route(outcomeStatsOp, ({ query }) => outcomeStats(query));
