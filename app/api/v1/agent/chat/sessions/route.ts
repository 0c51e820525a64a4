import { listChatSessionsOp } from "@/lib/agent/operations";
import { listSessions } from "@/lib/agent/sessions";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// GET /api/v1/agent/chat/sessions – sessions, latest activity first
export const GET = route(listChatSessionsOp, ({ query }) => listSessions(query.limit));
