import { sendChatOp } from "@/lib/agent/operations";
import { sendChatToChannels } from "@/lib/agent/send";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// POST /api/v1/agent/chat/send – a conversation to the report notification channels
export const POST = route(sendChatOp, ({ body }) => sendChatToChannels(body.content, body.title));
