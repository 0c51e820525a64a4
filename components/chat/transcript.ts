import { fmt } from "@/components/settings/format";
import type { Dictionary } from "@/lib/i18n/dictionaries/types";
import type { ChatEntry } from "./model";

type Texts = Dictionary["chatUi"];

/** The conversation as Markdown: what "export" downloads and "send to channels" posts (POST /agent/chat/send). */
export function transcriptMarkdown(t: Texts, title: string, entries: readonly ChatEntry[], exportedAt: string): string {
  const lines = [
    `# ${fmt(t.transcriptTitle, { title })}`,
    "",
    `> ${fmt(t.transcriptExported, { time: exportedAt })}`,
    "",
  ];
  for (const entry of entries) {
    if (entry.state === "streaming") continue;
    const who = entry.role === "user" ? t.you : t.assistant;
    const mark = entry.state === "cancelled" ? ` ${t.transcriptCancelled}` : "";
    lines.push(`## ${who}${mark}`, "");
    if (entry.state === "error") lines.push(`> ${fmt(t.errorText, { message: entry.error ?? t.unknownError })}`, "");
    else lines.push(entry.content.trim() || "—", "");
  }
  return `${lines.join("\n").trimEnd()}\n`;
}

/** A file name for the export: dsa-chat-<session start of the id>-<yyyymmdd-hhmm>.md, ASCII only. */
export function transcriptFileName(sessionId: string | null, now: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  const stamp = `${now.getFullYear()}${pad(now.getMonth() + 1)}${pad(now.getDate())}-${pad(now.getHours())}${pad(now.getMinutes())}`;
  const id = (sessionId ?? "").replace(/[^A-Za-z0-9]/g, "").slice(0, 8);
  return `dsa-chat-${id ? `${id}-` : ""}${stamp}.md`;
}

export function downloadText(fileName: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: "text/markdown;charset=utf-8" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
