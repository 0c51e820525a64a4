import { wecomCallbackOp, wecomVerifyOp } from "@/lib/bots/operations";
import { receiveWecomMessage, verifyWecomUrl } from "@/lib/bots/platforms/wecom";
import { route } from "@/lib/http/route";
import { webhookHandler } from "@/lib/http/webhook";

export const dynamic = "force-dynamic";

// GET /webhooks/wecom – the URL check; POST – encrypted messages
export const GET = route(wecomVerifyOp, webhookHandler(verifyWecomUrl));
export const POST = route(wecomCallbackOp, webhookHandler(receiveWecomMessage));
