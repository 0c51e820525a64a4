import { deleteChatSessionOp, getChatSessionOp } from "@/lib/agent/operations";
import { deleteSession, getSessionDetail } from "@/lib/agent/sessions";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// GET /api/v1/agent/chat/sessions/{session_id} – one session's messages
export const GET = route(getChatSessionOp, ({ params, query }) => getSessionDetail(params.session_id, query.limit));

// DELETE /api/v1/agent/chat/sessions/{session_id} – delete a session and its messages
export const DELETE = route(deleteChatSessionOp, ({ params }) => deleteSession(params.session_id));
