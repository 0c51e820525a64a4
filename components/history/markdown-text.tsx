import type { ReactNode } from "react";
import { MONO_WITH_CJK } from "./format";

// A small Markdown renderer for the reports lib/history/markdown.ts writes (headings, paragraphs, lists, tables,
// blockquotes, rules, code fences; bold, inline code, http(s) links). It builds React elements, never HTML
// strings, so record text (a news title with <script>) stays text.

type Block =
  | { kind: "heading"; level: number; text: string }
  | { kind: "paragraph"; text: string }
  | { kind: "list"; ordered: boolean; items: string[] }
  | { kind: "quote"; text: string }
  | { kind: "table"; header: string[]; rows: string[][] }
  | { kind: "code"; text: string }
  | { kind: "rule" };

const LIST_ITEM = /^\s*(?:[-*+]|(\d+)[.)])\s+(.*)$/;
const TABLE_SEPARATOR = /^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$/;

/** Cells of one table row: split on pipes that are not escaped. */
function splitRow(line: string): string[] {
  const body = line.trim().replace(/^\|/, "").replace(/(?<!\\)\|$/, "");
  return body.split(/(?<!\\)\|/).map((c) => c.trim());
}

export function parseMarkdown(source: string): Block[] {
  const lines = source.replace(/\r\n?/g, "\n").split("\n");
  const blocks: Block[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (line.trim() === "") {
      i++;
      continue;
    }
    if (line.trimStart().startsWith("```")) {
      const code: string[] = [];
      i++;
      while (i < lines.length && !lines[i]!.trimStart().startsWith("```")) code.push(lines[i++]!);
      i++;
      blocks.push({ kind: "code", text: code.join("\n") });
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) {
      blocks.push({ kind: "heading", level: heading[1]!.length, text: heading[2]!.trim() });
      i++;
      continue;
    }
    if (/^\s*([-*_])(\s*\1){2,}\s*$/.test(line)) {
      blocks.push({ kind: "rule" });
      i++;
      continue;
    }
    if (line.trimStart().startsWith("|") && i + 1 < lines.length && TABLE_SEPARATOR.test(lines[i + 1]!)) {
      const header = splitRow(line);
      const rows: string[][] = [];
      i += 2;
      while (i < lines.length && lines[i]!.trimStart().startsWith("|")) rows.push(splitRow(lines[i++]!));
      blocks.push({ kind: "table", header, rows });
      continue;
    }
    if (line.trimStart().startsWith(">")) {
      const quote: string[] = [];
      while (i < lines.length && lines[i]!.trimStart().startsWith(">")) quote.push(lines[i++]!.trimStart().replace(/^>\s?/, ""));
      blocks.push({ kind: "quote", text: quote.join(" ") });
      continue;
    }
    const item = LIST_ITEM.exec(line);
    if (item) {
      const ordered = item[1] !== undefined;
      const items: string[] = [];
      while (i < lines.length) {
        const match = LIST_ITEM.exec(lines[i]!);
        if (!match || (match[1] !== undefined) !== ordered) break;
        items.push(match[2]!);
        i++;
      }
      blocks.push({ kind: "list", ordered, items });
      continue;
    }
    const paragraph: string[] = [];
    while (i < lines.length && lines[i]!.trim() !== "" && !/^(#{1,6}\s|>|\||```)/.test(lines[i]!.trimStart()) && !LIST_ITEM.test(lines[i]!)) {
      paragraph.push(lines[i++]!.trim());
    }
    if (paragraph.length === 0) paragraph.push(lines[i++]!.trim());
    blocks.push({ kind: "paragraph", text: paragraph.join(" ") });
  }
  return blocks;
}

const INLINE = /(\*\*(?:\\.|[^*])+?\*\*|\*(?![\s*])(?:\\.|[^*\n])+?\*|`[^`]+`|\[(?:\\.|[^\]\\])+\]\([^)\s]+\))/g;

function unescape(text: string): string {
  return text.replace(/\\([\\`*_[\]{}()#+\-.!|>])/g, "$1");
}

function inline(text: string): ReactNode[] {
  const out: ReactNode[] = [];
  let last = 0;
  let key = 0;
  for (const match of text.matchAll(INLINE)) {
    const token = match[0];
    if (match.index > last) out.push(unescape(text.slice(last, match.index)));
    if (token.startsWith("**")) {
      out.push(<strong key={key++}>{inline(token.slice(2, -2))}</strong>);
    } else if (token.startsWith("*")) {
      out.push(<em key={key++}>{inline(token.slice(1, -1))}</em>);
    } else if (token.startsWith("`")) {
      out.push(
        <code key={key++} style={MONO_WITH_CJK} className="rounded bg-subtle px-1 text-[0.9em]">
          {token.slice(1, -1)}
        </code>,
      );
    } else {
      const link = /^\[((?:\\.|[^\]\\])+)\]\(([^)\s]+)\)$/.exec(token)!;
      const url = link[2]!;
      out.push(
        /^https?:\/\//i.test(url) ? (
          <a key={key++} href={url} target="_blank" rel="noreferrer noopener" className="text-accent underline-offset-2 hover:underline">
            {unescape(link[1]!)}
          </a>
        ) : (
          unescape(link[1]!)
        ),
      );
    }
    last = match.index + token.length;
  }
  if (last < text.length) out.push(unescape(text.slice(last)));
  return out;
}

const HEADING_CLASS: Record<number, string> = {
  1: "text-lg font-semibold",
  2: "mt-4 border-b border-line pb-1 text-base font-semibold",
  3: "mt-3 text-sm font-semibold",
};

export function MarkdownText({ source, className }: { source: string; className?: string }) {
  const blocks = parseMarkdown(source);
  return (
    <div className={className} data-testid="markdown-rendered">
      {blocks.map((block, index) => {
        switch (block.kind) {
          case "heading": {
            const Tag = `h${Math.min(block.level + 1, 6)}` as "h2";
            return (
              <Tag key={index} className={HEADING_CLASS[block.level] ?? "mt-3 text-sm font-semibold"}>
                {inline(block.text)}
              </Tag>
            );
          }
          case "paragraph":
            return (
              <p key={index} className="mt-2 text-sm leading-6">
                {inline(block.text)}
              </p>
            );
          case "list": {
            const Tag = block.ordered ? "ol" : "ul";
            return (
              <Tag key={index} className={`mt-2 space-y-0.5 pl-5 text-sm leading-6 ${block.ordered ? "list-decimal" : "list-disc"}`}>
                {block.items.map((item, i) => (
                  <li key={i}>{inline(item)}</li>
                ))}
              </Tag>
            );
          }
          case "quote":
            return (
              <blockquote key={index} className="mt-2 border-l-2 border-line pl-3 text-xs leading-5 text-muted">
                {inline(block.text)}
              </blockquote>
            );
          case "table":
            return (
              <div key={index} className="mt-2 overflow-x-auto">
                <table className="min-w-full border-collapse text-sm">
                  <thead>
                    <tr>
                      {block.header.map((cell, i) => (
                        <th key={i} scope="col" className="border border-line bg-subtle px-2 py-1 text-left text-xs font-medium whitespace-nowrap text-muted">
                          {inline(cell)}
                        </th>
                      ))}
                    </tr>
                  </thead>
                  <tbody>
                    {block.rows.map((row, r) => (
                      <tr key={r}>
                        {row.map((cell, i) => (
                          <td key={i} className="border border-line px-2 py-1 tabular-nums">
                            {inline(cell)}
                          </td>
                        ))}
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            );
          case "code":
            return (
              <pre key={index} style={MONO_WITH_CJK} className="mt-2 overflow-x-auto rounded bg-subtle p-2 text-xs leading-5">
                {block.text}
              </pre>
            );
          case "rule":
            return <hr key={index} className="my-3 border-line" />;
        }
      })}
    </div>
  );
}
