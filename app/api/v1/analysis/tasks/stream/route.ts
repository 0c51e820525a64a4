import { route } from "@/lib/http/route";
import { taskStreamOp } from "@/lib/tasks/operations";
import { openTaskStream, SSE_HEADERS } from "@/lib/tasks/sse";

export const dynamic = "force-dynamic";

// GET /api/v1/analysis/tasks/stream – Server-Sent Events of the task queue
export const GET = route(
  taskStreamOp,
  ({ req }) => new Response(openTaskStream({ signal: req.signal }), { headers: SSE_HEADERS }),
);
