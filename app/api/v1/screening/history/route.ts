import { route } from "@/lib/http/route";
import { screeningHistoryOp } from "@/lib/screening/operations";
import { listRuns } from "@/lib/screening/read";

export const dynamic = "force-dynamic";

// GET /api/v1/screening/history – stored runs, newest first
export const GET = route(screeningHistoryOp, ({ query }) => listRuns(query));
