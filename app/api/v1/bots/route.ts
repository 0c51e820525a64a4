import { getBotStatusOp } from "@/lib/bots/operations";
import { botStatus } from "@/lib/bots/status";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// GET /api/v1/bots – each chat bot's state and the last day's messages
export const GET = route(getBotStatusOp, () => botStatus());
