import { createHash } from "node:crypto";
import type { BotMessage } from "@/generated/prisma/client";
import { chatOnce } from "@/lib/agent/service";
import { now } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { getShareImagePng } from "@/lib/history/share/share-image";
import { logger } from "@/lib/log/logger";
import { getSettings } from "@/lib/settings/settings";
import { toChatMessage } from "./command-text";
import { platformClient } from "./platforms";
import type { ReplyTarget, TBotPlatform } from "./types";

// The "bot" task: answer one stored message in its chat. A command or a free question goes through the agent chat
// (the same commands, tools and answer check as the Chat page, one session per chat); an analysis also sends the
// report's share image where the platform takes images. The message row records the answer once it is out.

const log = logger.child({ component: "bots" });

const REFUSAL =
  "抱歉，这个机器人只回复白名单中的会话。请管理员把 {id} 加入 BOT_ALLOWLIST。\n" +
  "Sorry, this bot answers allowlisted chats only. Ask the admin to add {id} to BOT_ALLOWLIST.";
const LIMITED =
  "消息太多：每个会话每分钟最多 {n} 条，请稍后再发。\nToo many messages: at most {n} per minute in a chat, please wait a moment.";

export interface BotAnswer {
  text: string;
  /** The record whose share image goes with the answer (an analysis). */
  recordId: number | null;
}

/** The agent chat session of a chat: one per platform chat, so a conversation keeps its context. */
export function sessionIdOf(platform: TBotPlatform, chatId: string): string {
  const id = `bot.${platform}.${chatId}`;
  return /^[A-Za-z0-9_.:-]{1,128}$/.test(id)
    ? id
    : `bot.${platform}.${createHash("sha256").update(chatId).digest("hex").slice(0, 32)}`;
}

/** Links in answers are the web UI's paths: absolute when PUBLIC_BASE_URL says where the UI is. */
function absoluteLinks(markdown: string): string {
  const base = getSettings().PUBLIC_BASE_URL;
  return base ? markdown.replace(/\]\((\/[^)\s]*)\)/g, (_, path: string) => `](${base}${path})`) : markdown;
}

export async function composeAnswer(row: BotMessage, signal: AbortSignal): Promise<BotAnswer> {
  if (row.status === "refused")
    return { text: REFUSAL.replaceAll("{id}", `${row.platform}:${row.chatId}`), recordId: null };
  if (row.status === "limited")
    return { text: LIMITED.replaceAll("{n}", String(getSettings().BOT_RATE_LIMIT_PER_MINUTE)), recordId: null };
  const target = JSON.parse(row.replyTo) as ReplyTarget;
  const hint = target.language === "zh" || target.language === "en" ? target.language : null;
  const chat = toChatMessage(row.text, hint);
  const result = await chatOnce(
    {
      message: chat.message || "/help",
      session_id: sessionIdOf(row.platform as TBotPlatform, row.chatId),
      language: chat.language,
      stream_deltas: false,
    },
    signal,
  );
  const analysis = result.tool_calls.find((call) => call.tool === "analyze_stock" && call.success);
  const recordId = (analysis?.output as { record_id?: unknown } | undefined)?.record_id;
  const text = result.content || result.error || "";
  return { text: absoluteLinks(text), recordId: typeof recordId === "number" ? recordId : null };
}

/**
 * Composes the answer once and stores it before sending: a restart between the two (the task re-queued) sends the
 * stored answer instead of running the command, an analysis above all, a second time.
 */
async function storedAnswer(row: BotMessage, signal: AbortSignal): Promise<BotAnswer> {
  if (row.answer !== null) return { text: row.answer, recordId: row.recordId };
  const answer = await composeAnswer(row, signal);
  await db().botMessage.update({
    where: { id: row.id },
    data: { answer: answer.text.slice(0, 8000), recordId: answer.recordId },
  });
  return answer;
}

export async function answerBotMessage(id: number, signal: AbortSignal): Promise<string> {
  const row = await db().botMessage.findUnique({ where: { id } });
  if (!row) throw new Error(`bot message ${id} no longer exists`);
  if (row.answeredAt !== null) return "already answered";
  const platform = row.platform as TBotPlatform;
  const client = platformClient(platform);
  const target = JSON.parse(row.replyTo) as ReplyTarget;
  try {
    const answer = await storedAnswer(row, signal);
    await client.sendText(target, answer.text, signal);
    if (answer.recordId !== null && client.sendImage) {
      // The text is the answer; an image that cannot be drawn or sent is logged, not a failed answer.
      try {
        const image = await getShareImagePng(String(answer.recordId));
        await client.sendImage(target, Buffer.from(image.png), image.filename, signal);
      } catch (error) {
        log.warn({ platform, err: error }, "share image not sent");
      }
    }
    await db().botMessage.update({
      where: { id },
      data: { status: row.status === "queued" ? "answered" : row.status, answeredAt: now(), error: null },
    });
    return `${platform} message answered`;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    // The status stays (a refusal that failed to go out is still a refusal); the task records the failure too.
    await db().botMessage.update({ where: { id }, data: { error: reason.slice(0, 300) } });
    throw error;
  }
}
