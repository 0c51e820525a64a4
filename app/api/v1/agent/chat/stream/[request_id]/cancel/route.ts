import { cancelTurn } from "@/lib/agent/active-turns";
import { cancelChatStreamOp } from "@/lib/agent/operations";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// POST /api/v1/agent/chat/stream/{request_id}/cancel – stop a running turn, keeping its partial answer
export const POST = route(cancelChatStreamOp, ({ params }) => cancelTurn(params.request_id));
