import { toChatMessage } from "./command-text";
import type { AcceptOutcome } from "./inbox";
import type { InboundMessage } from "./types";

// An analysis takes a while: where the platform's webhook answer can carry a message (DingTalk's JSON, WeCom's
// encrypted passive reply), the bot says at once that it is on it; the report follows by the usual reply.

export function analysisAck(message: InboundMessage, outcome: AcceptOutcome): string | null {
  if (outcome !== "queued") return null;
  const chat = toChatMessage(message.text, message.languageHint ?? null);
  if (chat.command !== "/analyze") return null;
  const target = chat.message.slice("/analyze".length).trim();
  if (target === "") return null;
  return chat.language === "en"
    ? `On it: analysing ${target}. The report follows when it is done.`
    : `收到：正在分析 ${target}，完成后发送报告。`;
}
