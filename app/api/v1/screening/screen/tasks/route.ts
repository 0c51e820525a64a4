import { route } from "@/lib/http/route";
import { screenTaskOp } from "@/lib/screening/operations";
import { submitScreenTask } from "@/lib/screening/tasks";

export const dynamic = "force-dynamic";

// POST /api/v1/screening/screen/tasks – queue a screening run (durable; progress on the task stream)
export const POST = route(screenTaskOp, ({ body, traceId }) => submitScreenTask(body, traceId));
