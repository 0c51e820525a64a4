// The share card is built from the Markdown report (spec 4.3 rule 5). The report is our own, regular
// Markdown (lib/history/markdown.ts), so a small reader of that subset is enough: headings, quotes, lists,
// tables, rules and paragraphs, with inline marks reduced to plain text. Pure and deterministic.

export type MarkdownBlock =
  | { kind: "heading"; level: number; text: string }
  | { kind: "quote"; text: string }
  | { kind: "list"; items: ListItem[] }
  | { kind: "table"; header: string[]; rows: string[][] }
  | { kind: "paragraph"; text: string }
  | { kind: "rule" };

export interface ListItem {
  /** `**label**: value` items keep the label apart, so the card can align it. */
  label: string | null;
  text: string;
  /** A leading checklist mark (✅ ⚠️ ❌ ❔) read as a status. */
  status: "pass" | "warn" | "fail" | "unknown" | null;
}

export interface MarkdownSection {
  title: string;
  blocks: MarkdownBlock[];
}

export interface MarkdownDocument {
  title: string | null;
  /** Quotes and paragraphs before the first section (meta line, sample notice). */
  preamble: MarkdownBlock[];
  sections: MarkdownSection[];
  /** Text after the closing rule (the disclaimer). */
  footer: string[];
}

const STATUS_MARKS: [string, ListItem["status"]][] = [
  ["✅", "pass"],
  ["⚠️", "warn"],
  ["⚠", "warn"],
  ["❌", "fail"],
  ["❔", "unknown"],
];

/** Inline Markdown to plain text: emphasis marks, links (text kept), code spans and escapes. */
export function plainInline(text: string): string {
  return text
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/\[((?:\\.|[^\]\\])*)\]\((?:[^()\s]|\([^()]*\))*\)/g, "$1")
    .replace(/\*\*(.+?)\*\*/g, "$1")
    .replace(/(^|[^*\w])\*(?!\s)([^*]+?)\*(?!\w)/g, "$1$2")
    .replace(/`([^`]*)`/g, "$1")
    .replace(/\\([\\`*_[\]()#|>!-])/g, "$1")
    .trim();
}

function splitRow(line: string): string[] {
  const inner = line.trim().replace(/^\|/, "").replace(/\|$/, "");
  const cells: string[] = [];
  let current = "";
  for (let i = 0; i < inner.length; i++) {
    const ch = inner[i]!;
    if (ch === "\\" && inner[i + 1] === "|") {
      current += "|";
      i++;
    } else if (ch === "|") {
      cells.push(current);
      current = "";
    } else {
      current += ch;
    }
  }
  cells.push(current);
  return cells.map(plainInline);
}

function listItem(raw: string): ListItem {
  let text = raw.trim();
  let status: ListItem["status"] = null;
  for (const [mark, value] of STATUS_MARKS) {
    if (text.startsWith(mark)) {
      status = value;
      text = text.slice(mark.length).trim();
      break;
    }
  }
  const labelled = /^\*\*(.+?)\*\*\s*(?:：|:)\s*(.*)$/.exec(text);
  if (labelled) return { label: plainInline(labelled[1]!), text: plainInline(labelled[2]!), status };
  return { label: null, text: plainInline(text), status };
}

const SEPARATOR_ROW = /^\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?$/;

/** Block structure of one Markdown text. */
export function parseMarkdownBlocks(markdown: string): MarkdownBlock[] {
  const lines = markdown.replace(/\r\n?/g, "\n").split("\n");
  const blocks: MarkdownBlock[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    const trimmed = line.trim();
    if (trimmed === "") {
      i++;
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(trimmed);
    if (heading) {
      blocks.push({ kind: "heading", level: heading[1]!.length, text: plainInline(heading[2]!) });
      i++;
      continue;
    }
    if (/^(-{3,}|\*{3,}|_{3,})$/.test(trimmed)) {
      blocks.push({ kind: "rule" });
      i++;
      continue;
    }
    if (trimmed.startsWith(">")) {
      const parts: string[] = [];
      while (i < lines.length && lines[i]!.trim().startsWith(">")) parts.push(lines[i++]!.trim().replace(/^>\s?/, ""));
      blocks.push({ kind: "quote", text: plainInline(parts.join(" ")) });
      continue;
    }
    if (trimmed.startsWith("|") && i + 1 < lines.length && SEPARATOR_ROW.test(lines[i + 1]!.trim())) {
      const header = splitRow(trimmed);
      const rows: string[][] = [];
      i += 2;
      while (i < lines.length && lines[i]!.trim().startsWith("|")) rows.push(splitRow(lines[i++]!));
      blocks.push({ kind: "table", header, rows });
      continue;
    }
    if (/^([-*+]|\d+[.)])\s+/.test(trimmed)) {
      const items: ListItem[] = [];
      while (i < lines.length && /^([-*+]|\d+[.)])\s+/.test(lines[i]!.trim())) {
        items.push(listItem(lines[i++]!.trim().replace(/^([-*+]|\d+[.)])\s+/, "")));
      }
      blocks.push({ kind: "list", items });
      continue;
    }
    const parts: string[] = [];
    while (
      i < lines.length &&
      lines[i]!.trim() !== "" &&
      !/^(#{1,6}\s|>|\||([-*+]|\d+[.)])\s|-{3,}$)/.test(lines[i]!.trim())
    ) {
      parts.push(lines[i++]!.trim());
    }
    if (parts.length === 0) parts.push(lines[i++]!.trim());
    blocks.push({ kind: "paragraph", text: plainInline(joinLines(parts)) });
  }
  return blocks;
}

/** Soft line breaks: a space between Latin words, nothing between CJK characters. */
function joinLines(parts: string[]): string {
  return parts.reduce((text, part) => {
    if (text === "") return part;
    const cjkJoin = /[\u3000-\u9fff\uff00-\uffef]$/.test(text) && /^[\u3000-\u9fff\uff00-\uffef]/.test(part);
    return cjkJoin ? text + part : `${text} ${part}`;
  }, "");
}

/**
 * The report's outline: its title, what precedes the first level-2 section, the level-2 sections, and the
 * text after the last rule (the disclaimer).
 */
export function parseMarkdownDocument(markdown: string): MarkdownDocument {
  const blocks = parseMarkdownBlocks(markdown);
  const doc: MarkdownDocument = { title: null, preamble: [], sections: [], footer: [] };
  const lastRule = blocks.map((b) => b.kind).lastIndexOf("rule");
  const tail = lastRule >= 0 ? blocks.slice(lastRule + 1) : [];
  const hasFooter = tail.length > 0 && tail.every((b) => b.kind === "paragraph" || b.kind === "quote");
  const body = hasFooter ? blocks.slice(0, lastRule) : blocks;
  if (hasFooter) doc.footer = tail.map((b) => (b.kind === "paragraph" || b.kind === "quote" ? b.text : ""));
  let current: MarkdownSection | null = null;
  for (const block of body) {
    if (block.kind === "rule") continue;
    if (block.kind === "heading" && block.level === 1 && doc.title === null && !current) {
      doc.title = block.text;
    } else if (block.kind === "heading" && block.level <= 2) {
      current = { title: block.text, blocks: [] };
      doc.sections.push(current);
    } else if (current) {
      current.blocks.push(block);
    } else {
      doc.preamble.push(block);
    }
  }
  return doc;
}
