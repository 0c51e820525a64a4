import { telegramWebhookOp } from "@/lib/bots/operations";
import { receiveTelegramWebhook } from "@/lib/bots/platforms/telegram";
import { route } from "@/lib/http/route";
import { webhookHandler } from "@/lib/http/webhook";

export const dynamic = "force-dynamic";

// POST /webhooks/telegram – Telegram's updates (secret token header)
export const POST = route(telegramWebhookOp, webhookHandler(receiveTelegramWebhook));
