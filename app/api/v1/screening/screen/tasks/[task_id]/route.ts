import { route } from "@/lib/http/route";
import { screenTaskStatusOp } from "@/lib/screening/operations";
import { screenTaskStatus } from "@/lib/screening/tasks";

export const dynamic = "force-dynamic";

// GET /api/v1/screening/screen/tasks/{task_id} – a queued run's status and, once completed, its result
export const GET = route(screenTaskStatusOp, ({ params }) => screenTaskStatus(params.task_id));
