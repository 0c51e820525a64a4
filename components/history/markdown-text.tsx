import type { ReactNode } from "react";
import Markdown, { type Components, type ExtraProps, type Options } from "react-markdown";
import remarkCjkFriendly from "remark-cjk-friendly";
import remarkGfm from "remark-gfm";
import { cx } from "@/components/ui/cx";
import { MONO_WITH_CJK } from "./format";

// Renders the stored Markdown reports (lib/history/markdown.ts, market reviews, LLM text) with react-markdown +
// GFM (tables, strikethrough, autolinks, task lists). No hooks, so it works in server and client components alike.
// Safety: raw HTML in the source is never rendered as HTML (react-markdown turns it into text; no rehype-raw), only
// http(s) and mailto links become links (anything else, javascript: included, is shown as its text), images are
// shown as their alt text (no remote loads from report text).

type HastElement = NonNullable<ExtraProps["node"]>;
type HastNode = HastElement | HastElement["children"][number];
/** The slice of a hast tree the plugin below touches ("raw" is HTML from the source, which react-markdown shows as text). */
type TreeNode = { type: string; tagName?: string; properties?: Record<string, unknown>; children?: TreeNode[] };

/** Where a paragraph sits: the old renderer put quote and list-item text straight into the block, unstyled. */
const PARENT_KEY = "dataMdParent";

/**
 * Rehype plugin: marks each paragraph inside a blockquote or list item so `p` below can style it by context, and
 * puts top-level HTML (shown as text) in a paragraph so it gets the paragraph's size and spacing.
 */
function rehypeMarkParagraphs() {
  function walk(node: TreeNode) {
    for (const child of node.children ?? []) {
      if (child.type !== "element") continue;
      if (child.tagName === "p" && (node.tagName === "blockquote" || node.tagName === "li"))
        child.properties = { ...child.properties, [PARENT_KEY]: node.tagName };
      walk(child);
    }
  }
  return (tree: TreeNode) => {
    tree.children = (tree.children ?? []).map((child) =>
      child.type === "raw" ? { type: "element", tagName: "p", properties: {}, children: [child] } : child,
    );
    walk(tree);
  };
}

/** All the text under a node (code blocks hold only text). */
function textOf(node: HastNode | undefined): string {
  if (!node) return "";
  if (node.type === "text") return node.value;
  if (node.type === "element") return node.children.map(textOf).join("");
  return "";
}

const SAFE_LINK = /^(?:https?:\/\/|mailto:)/i;

/** Keeps only http(s) and mailto URLs; others become "" and `a` renders its text. */
function urlTransform(url: string): string {
  const trimmed = url.trim();
  return SAFE_LINK.test(trimmed) ? trimmed : "";
}

/** Markdown heading level (from `#` count) → its class; the element is one level lower (`#` → h2: the page has the h1). */
const HEADING_CLASS: Record<number, string> = {
  1: "text-lg font-semibold",
  2: "mt-4 border-b border-line pb-1 text-base font-semibold",
  3: "mt-3 text-sm font-semibold",
};
const HEADING_DEFAULT = "mt-3 text-sm font-semibold";

function heading(level: 1 | 2 | 3 | 4 | 5 | 6) {
  const Tag = `h${Math.min(level + 1, 6)}` as "h2";
  // className: GFM's footnote label heading comes as "sr-only".
  function Heading({ children, id, className }: { children?: ReactNode; id?: string; className?: string }) {
    return (
      <Tag id={id} className={cx(HEADING_CLASS[level] ?? HEADING_DEFAULT, className)}>
        {children}
      </Tag>
    );
  }
  Heading.displayName = `MarkdownH${level}`;
  return Heading;
}

/** The element set; the chat's renderer (components/chat/chat-markdown.tsx) reuses it with its own headings and links. */
export const MARKDOWN_COMPONENTS: Components = {
  h1: heading(1),
  h2: heading(2),
  h3: heading(3),
  h4: heading(4),
  h5: heading(5),
  h6: heading(6),
  p({ node, children }) {
    const parent = node?.properties?.[PARENT_KEY];
    if (parent === "blockquote" || parent === "li") return <p className="[p+&]:mt-1">{children}</p>;
    return <p className="mt-2 text-sm leading-6">{children}</p>;
  },
  ul({ children }) {
    return <ul className="mt-2 list-disc space-y-0.5 pl-5 text-sm leading-6">{children}</ul>;
  },
  ol({ children, start }) {
    return (
      <ol start={start} className="mt-2 list-decimal space-y-0.5 pl-5 text-sm leading-6">
        {children}
      </ol>
    );
  },
  li({ children }) {
    return <li>{children}</li>;
  },
  blockquote({ children }) {
    return (
      <blockquote className="mt-2 border-l-2 border-line pl-3 text-xs leading-5 text-muted">{children}</blockquote>
    );
  },
  table({ children }) {
    return (
      <div className="mt-2 overflow-x-auto">
        <table className="min-w-full border-collapse text-sm">{children}</table>
      </div>
    );
  },
  // style: a GFM column alignment (`| ---: |`) arrives as text-align, which wins over text-left.
  th({ children, style }) {
    return (
      <th
        scope="col"
        style={style}
        className="border border-line bg-subtle px-2 py-1 text-left text-xs font-medium whitespace-nowrap text-muted"
      >
        {children}
      </th>
    );
  },
  td({ children, style }) {
    return (
      <td style={style} className="border border-line px-2 py-1 tabular-nums">
        {children}
      </td>
    );
  },
  pre({ node }) {
    return (
      <pre style={MONO_WITH_CJK} className="mt-2 overflow-x-auto rounded bg-subtle p-2 text-xs leading-5">
        {textOf(node).replace(/\n$/, "")}
      </pre>
    );
  },
  code({ children }) {
    // Only inline code reaches here: `pre` above renders code blocks' text itself.
    return (
      <code style={MONO_WITH_CJK} className="rounded bg-subtle px-1 text-[0.9em]">
        {children}
      </code>
    );
  },
  a({ href, children }) {
    if (!href || !SAFE_LINK.test(href)) return <>{children}</>;
    if (/^mailto:/i.test(href)) {
      return (
        <a href={href} className="text-accent underline underline-offset-2">
          {children}
        </a>
      );
    }
    return (
      <a href={href} target="_blank" rel="noopener noreferrer" className="text-accent underline underline-offset-2">
        {children}
      </a>
    );
  },
  img({ alt }) {
    return alt ? <>{alt}</> : null;
  },
  hr() {
    return <hr className="my-3 border-line" />;
  },
};

// `~` is a range in these reports (3000~3100), so only `~~x~~` strikes through.
// cjk-friendly: LLM text closes bold right after full-width punctuation ("**风险提示：**股价"), which plain
// CommonMark does not treat as emphasis.
export const REMARK_PLUGINS: Options["remarkPlugins"] = [[remarkGfm, { singleTilde: false }], remarkCjkFriendly];
const REHYPE_PLUGINS: Options["rehypePlugins"] = [rehypeMarkParagraphs];

export function MarkdownText({ source, className }: { source: string; className?: string }) {
  return (
    <div className={className} data-testid="markdown-rendered">
      <Markdown
        remarkPlugins={REMARK_PLUGINS}
        rehypePlugins={REHYPE_PLUGINS}
        components={MARKDOWN_COMPONENTS}
        urlTransform={urlTransform}
      >
        {source}
      </Markdown>
    </div>
  );
}
