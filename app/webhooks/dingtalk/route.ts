import { dingtalkWebhookOp } from "@/lib/bots/operations";
import { receiveDingtalkMessage } from "@/lib/bots/platforms/dingtalk";
import { route } from "@/lib/http/route";
import { webhookHandler } from "@/lib/http/webhook";

export const dynamic = "force-dynamic";

// POST /webhooks/dingtalk – DingTalk's outgoing robot
export const POST = route(dingtalkWebhookOp, webhookHandler(receiveDingtalkMessage));
