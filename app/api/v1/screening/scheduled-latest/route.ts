import { route } from "@/lib/http/route";
import { scheduledLatestOp } from "@/lib/screening/operations";
import { scheduledLatest } from "@/lib/screening/tasks";

export const dynamic = "force-dynamic";

// GET /api/v1/screening/scheduled-latest – the newest completed run of the daily schedule
export const GET = route(scheduledLatestOp, ({ query }) => scheduledLatest(query.target_time));
