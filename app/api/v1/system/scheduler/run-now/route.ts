import { route } from "@/lib/http/route";
import { runNow } from "@/lib/schedule";
import { runSchedulerNowOp } from "@/lib/schedule/operations";

export const dynamic = "force-dynamic";

// POST /api/v1/system/scheduler/run-now – queue the watchlist and the market review now
export const POST = route(runSchedulerNowOp, () => runNow());
