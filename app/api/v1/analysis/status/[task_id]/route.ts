import { route } from "@/lib/http/route";
import { getTaskStatusOp } from "@/lib/tasks/operations";
import { getTaskStatus } from "@/lib/tasks/read";

export const dynamic = "force-dynamic";

// GET /api/v1/analysis/status/{task_id} – the queue first, then history by query_id
export const GET = route(getTaskStatusOp, ({ params }) => getTaskStatus(params.task_id));
