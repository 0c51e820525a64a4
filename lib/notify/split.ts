import { cutTo, type Measure } from "./text";
import type { NotificationMessage } from "./types";

// A message longer than a channel's limit goes out as numbered parts ("title (1/3)") split at line ends, so a long
// watchlist report is not cut off at the first 2000 characters. Every part keeps the title and the link. The budget
// leaves room for the channel's own formatting (heading marks, Slack escapes, the link line), and the channel still
// cuts each part to its limit as the last guard. At most MAX_PARTS parts: past that the last part is cut, so one
// message can never turn into a flood.

export const MAX_PARTS = 8;
// Share of the limit the body of a part may use after title and link: channel formatting can grow the text a little.
const HEADROOM = 0.9;

function partTitle(title: string, index: number, count: number): string {
  return count === 1 ? title : `${title} (${index + 1}/${count})`;
}

/** Splits text into chunks of at most `budget`, at line ends where possible; a single long line is cut. */
export function splitLines(text: string, budget: number, measure: Measure): string[] {
  const chunks: string[] = [];
  let current = "";
  const flush = () => {
    if (current.trim() !== "") chunks.push(current.replace(/\n+$/, ""));
    current = "";
  };
  for (const line of text.split("\n")) {
    const candidate = current === "" ? line : `${current}\n${line}`;
    if (measure(candidate) <= budget) {
      current = candidate;
      continue;
    }
    flush();
    let rest = line;
    while (measure(rest) > budget) {
      const piece = cutTo(rest, budget, measure);
      if (piece === "") break;
      chunks.push(piece);
      rest = rest.slice(piece.length);
    }
    current = rest;
  }
  flush();
  return chunks;
}

/** The message as it goes to a channel with this limit: itself when it fits, else up to MAX_PARTS numbered parts. */
export function splitMessage(
  message: NotificationMessage,
  limit: { max: number; measure: Measure } | undefined,
): NotificationMessage[] {
  if (!limit) return [message];
  const { measure } = limit;
  const frame =
    `### ${partTitle(message.title, MAX_PARTS - 1, MAX_PARTS)}\n\n` +
    (message.link ? `\n\n[${message.link.label}](${message.link.url})` : "");
  const budget = Math.floor(limit.max * HEADROOM) - measure(frame);
  const body = message.body.trim();
  if (budget <= 0 || measure(body) <= budget) return [message];
  const chunks = splitLines(body, budget, measure);
  if (chunks.length <= 1) return [message];
  // Too many parts: the last one carries the rest, which the channel then cuts with its "…" mark.
  const kept =
    chunks.length > MAX_PARTS ? [...chunks.slice(0, MAX_PARTS - 1), chunks.slice(MAX_PARTS - 1).join("\n")] : chunks;
  return kept.map((chunk, index) => ({ ...message, title: partTitle(message.title, index, kept.length), body: chunk }));
}
