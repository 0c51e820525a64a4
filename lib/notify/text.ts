// Message text for channels with different syntaxes and limits. Limits are measured the way each service
// counts (UTF-8 bytes, UTF-16 units, characters); cuts fall on code-point boundaries, preferably at a line end,
// and the link line is kept.

export type Measure = (text: string) => number;

export const utf8Bytes: Measure = (text) => Buffer.byteLength(text, "utf8");
export const utf16Units: Measure = (text) => text.length;

const CUT_MARK = "\n…";

/** The longest prefix of `text` (whole code points) whose measure is at most `budget`. */
export function cutTo(text: string, budget: number, measure: Measure): string {
  if (measure(text) <= budget) return text;
  const points = Array.from(text);
  let low = 0;
  let high = points.length;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (measure(points.slice(0, mid).join("")) <= budget) low = mid;
    else high = mid - 1;
  }
  const prefix = points.slice(0, low).join("");
  // Prefer a line end when it loses little: a half line (or half a Markdown link) reads worse.
  const lineEnd = prefix.lastIndexOf("\n");
  return lineEnd >= prefix.length * 0.8 ? prefix.slice(0, lineEnd) : prefix;
}

/**
 * head + body + tail within `limit`: the body is cut (marked with "…") so head and tail survive; when even
 * head and tail are too long, everything is cut as one text.
 */
export function fitMessage(
  parts: { head: string; body: string; tail: string },
  limit: number,
  measure: Measure,
): string {
  const whole = parts.head + parts.body + parts.tail;
  if (measure(whole) <= limit) return whole;
  const room = limit - measure(parts.head) - measure(parts.tail) - measure(CUT_MARK);
  if (room <= 0) return cutTo(whole, limit, measure);
  return parts.head + cutTo(parts.body, room, measure).trimEnd() + CUT_MARK + parts.tail;
}

/** Markdown → plain text for channels that render none (Telegram without parse mode, email text part). */
export function markdownToPlain(markdown: string): string {
  return markdown
    .replace(/^#{1,6}\s+/gm, "")
    .replace(/\*\*(.+?)\*\*/g, "$1")
    .replace(/__(.+?)__/g, "$1")
    .replace(/`([^`]+)`/g, "$1")
    .replace(/\[([^\]]+)\]\((\S+?)\)/g, "$1: $2");
}

/** Markdown → Slack mrkdwn: *bold*, <url|label>, and &, <, > escaped as Slack requires. */
export function markdownToSlack(markdown: string): string {
  const links: string[] = [];
  const withoutLinks = markdown.replace(/\[([^\]]+)\]\((\S+?)\)/g, (_, label: string, url: string) => {
    links.push(`<${url}|${escapeSlack(label)}>`);
    return `\u0000${links.length - 1}\u0000`;
  });
  return escapeSlack(withoutLinks)
    .replace(/^#{1,6}\s+(.+)$/gm, "*$1*")
    .replace(/\*\*(.+?)\*\*/g, "*$1*")
    .replace(/\u0000(\d+)\u0000/g, (_, i: string) => links[Number(i)]!);
}

function escapeSlack(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

export function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/** A small, safe HTML rendering of the message Markdown for the email HTML part. */
export function markdownToHtml(markdown: string): string {
  const inline = (line: string) =>
    escapeHtml(line)
      .replace(/\*\*(.+?)\*\*/g, "<strong>$1</strong>")
      .replace(
        /\[([^\]]+)\]\((https?:\/\/[^\s)]+)\)/g,
        (_, label: string, url: string) => `<a href="${url}">${label}</a>`,
      );
  const html: string[] = [];
  let list = false;
  for (const raw of markdown.split("\n")) {
    const item = /^\s*[-*]\s+(.*)$/.exec(raw);
    if (item) {
      if (!list) html.push("<ul>");
      list = true;
      html.push(`<li>${inline(item[1]!)}</li>`);
      continue;
    }
    if (list) html.push("</ul>");
    list = false;
    const heading = /^(#{1,6})\s+(.*)$/.exec(raw);
    if (heading)
      html.push(
        `<h${Math.min(heading[1]!.length + 1, 6)}>${inline(heading[2]!)}</h${Math.min(heading[1]!.length + 1, 6)}>`,
      );
    else if (raw.trim() !== "") html.push(`<p>${inline(raw)}</p>`);
  }
  if (list) html.push("</ul>");
  return html.join("\n");
}
