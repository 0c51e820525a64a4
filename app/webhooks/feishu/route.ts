import { feishuEventsOp } from "@/lib/bots/operations";
import { receiveFeishuEvent } from "@/lib/bots/platforms/feishu";
import { route } from "@/lib/http/route";
import { webhookHandler } from "@/lib/http/webhook";

export const dynamic = "force-dynamic";

// POST /webhooks/feishu – Feishu's event subscription
export const POST = route(feishuEventsOp, webhookHandler(receiveFeishuEvent));
