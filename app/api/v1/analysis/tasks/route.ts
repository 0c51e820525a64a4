import { route } from "@/lib/http/route";
import { listTasksOp } from "@/lib/tasks/operations";
import { listTasks } from "@/lib/tasks/read";

export const dynamic = "force-dynamic";

// GET /api/v1/analysis/tasks – the queue view with queue-wide counters
export const GET = route(listTasksOp, ({ query }) => listTasks(query));
