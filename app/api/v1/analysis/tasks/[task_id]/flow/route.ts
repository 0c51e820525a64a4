import { route } from "@/lib/http/route";
import { getTaskFlowOp } from "@/lib/tasks/operations";
import { getTaskFlow } from "@/lib/tasks/read";

export const dynamic = "force-dynamic";

// GET /api/v1/analysis/tasks/{task_id}/flow – run flow of a task (live skeleton, stored, or from history)
export const GET = route(getTaskFlowOp, ({ params }) => getTaskFlow(params.task_id));
