import { chatOp } from "@/lib/agent/operations";
import { chatOnce } from "@/lib/agent/service";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// POST /api/v1/agent/chat – one chat turn, answered when done
export const POST = route(chatOp, ({ body, req }) => chatOnce(body, req.signal));
