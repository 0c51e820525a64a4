import type { BotMessage } from "@/generated/prisma/client";
import { now } from "@/lib/clock";
import { inTransaction, db } from "@/lib/db/client";
import { isUniqueViolation } from "@/lib/db/errors";
import { newId } from "@/lib/ids";
import { logger } from "@/lib/log/logger";
import { getSettings } from "@/lib/settings/settings";
import { taskEventBus } from "@/lib/tasks/event-bus";
import { wakeTaskWorkers } from "@/lib/tasks/runtime";
import { toTaskInfo } from "@/lib/tasks/serialize";
import { insertTask } from "@/lib/tasks/store";
import type { InboundMessage } from "./types";

// What arrives from a platform, after its signature check: refused (not on the allowlist: told once per chat),
// limited (over the chat's rate: told once per minute), or stored with a "bot" task in one transaction. The route
// answers the platform at once; the durable task queue answers the message, after a restart too.

export type AcceptOutcome = "queued" | "refused" | "limited" | "ignored" | "duplicate";

const WINDOW_MS = 60_000;
const log = logger.child({ component: "bots" });

/** An allowlist entry is platform:id, id being the chat's or the sender's (or * for every chat of the platform). */
export function isAllowed(
  message: Pick<InboundMessage, "platform" | "chatId" | "userId">,
  allowlist: readonly string[],
) {
  return allowlist.some((entry) => {
    const at = entry.indexOf(":");
    if (at <= 0) return false;
    const platform = entry.slice(0, at).trim().toLowerCase();
    const id = entry.slice(at + 1).trim();
    return platform === message.platform && (id === "*" || id === message.chatId || id === message.userId);
  });
}

async function decide(message: InboundMessage): Promise<"queued" | "refused" | "limited" | "ignored"> {
  const settings = getSettings();
  const chat = { platform: message.platform, chatId: message.chatId };
  if (!isAllowed(message, settings.BOT_ALLOWLIST)) {
    const told = await db().botMessage.findFirst({ where: { ...chat, status: "refused" }, select: { id: true } });
    return told ? "ignored" : "refused";
  }
  const since = new Date(now().getTime() - WINDOW_MS);
  const recent = await db().botMessage.count({
    where: { ...chat, createdAt: { gte: since }, status: { in: ["queued", "answered"] } },
  });
  if (recent < settings.BOT_RATE_LIMIT_PER_MINUTE) return "queued";
  const told = await db().botMessage.findFirst({
    where: { ...chat, status: "limited", createdAt: { gte: since } },
    select: { id: true },
  });
  return told ? "ignored" : "limited";
}

export async function acceptMessage(message: InboundMessage): Promise<AcceptOutcome> {
  const duplicate = await db().botMessage.findUnique({
    where: { platform_messageId: { platform: message.platform, messageId: message.messageId } },
    select: { id: true },
  });
  if (duplicate) return "duplicate";
  const status = await decide(message);
  if (status === "ignored") return status;
  try {
    const task = await inTransaction(async (tx) => {
      const row = await tx.botMessage.create({
        data: {
          platform: message.platform,
          messageId: message.messageId,
          chatId: message.chatId,
          userId: message.userId,
          text: message.text.slice(0, 4000),
          replyTo: JSON.stringify({ ...message.replyTo, language: message.languageHint ?? null }),
          status,
          createdAt: now(),
        },
      });
      const id = newId();
      const created = await insertTask(tx, {
        id,
        traceId: null,
        kind: "bot",
        stockCode: message.platform,
        stockName: summary(row),
        market: null,
        assetType: null,
        activeKey: `bot:${row.id}`,
        request: { botMessageId: row.id },
        originalQuery: null,
        selectionSource: "bot",
        reportType: null,
        analysisPhase: null,
        skills: null,
        region: null,
        message: "bot message queued",
      });
      await tx.botMessage.update({ where: { id: row.id }, data: { taskId: id } });
      return created;
    });
    taskEventBus().publish({ type: "task_created", task: toTaskInfo(task) });
    wakeTaskWorkers();
  } catch (error) {
    // Two deliveries of one message at once: the other one stored it.
    if (isUniqueViolation(error)) return "duplicate";
    throw error;
  }
  log.info({ platform: message.platform, status }, "bot message accepted");
  return status;
}

/** The task list's line for a bot message: platform and the command's first words (never the whole text). */
function summary(row: Pick<BotMessage, "platform" | "text">): string {
  const words = row.text.replace(/\s+/g, " ").trim();
  return `${row.platform}: ${words.length > 40 ? `${words.slice(0, 40)}…` : words}`;
}
