import { route } from "@/lib/http/route";
import { schedulerStatus } from "@/lib/schedule";
import { getSchedulerStatusOp } from "@/lib/schedule/operations";

export const dynamic = "force-dynamic";

// GET /api/v1/system/scheduler/status – the daily schedule and its recent runs
export const GET = route(getSchedulerStatusOp, ({ query }) => schedulerStatus(query.limit));
