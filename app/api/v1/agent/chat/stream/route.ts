import { chatStreamOp } from "@/lib/agent/operations";
import { AGENT_SSE_HEADERS, openChatStream } from "@/lib/agent/stream";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// POST /api/v1/agent/chat/stream – one chat turn as Server-Sent Events
export const POST = route(
  chatStreamOp,
  ({ body, req }) => new Response(openChatStream(body, { signal: req.signal }), { headers: AGENT_SSE_HEADERS }),
);
