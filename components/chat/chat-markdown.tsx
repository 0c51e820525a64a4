import { useMemo, type ReactNode } from "react";
import Markdown, { type Components, type Options } from "react-markdown";
import remarkCjkFriendly from "remark-cjk-friendly";
import remarkGfm from "remark-gfm";
import { MONO_WITH_CJK } from "@/components/history/format";
import { rehypeMarkFigures } from "./mark-figures";

// An answer of the chat as Markdown, with the same safety rules as the report renderer (components/history/
// markdown-text.tsx): no raw HTML (react-markdown shows it as text), only http(s)/mailto links and paths of this
// site (command answers link their reports as /history/<id>), images as their alt text. Its own component set because chat answers sit in a bubble under the page's headings, and because the
// unverified figures of the answer are marked (rehype plugin in ./mark-figures.ts).

const SAFE_LINK = /^(?:https?:\/\/|mailto:|\/(?![\/\\]))/i;

function urlTransform(url: string): string {
  const trimmed = url.trim();
  return SAFE_LINK.test(trimmed) ? trimmed : "";
}

function heading(level: number) {
  // The page has h1 and h2; an answer's "#" starts at h3.
  const Tag = `h${Math.min(level + 2, 6)}` as "h3";
  function Heading({ children }: { children?: ReactNode }) {
    return <Tag className={level <= 2 ? "mt-3 text-sm font-semibold first:mt-0" : "mt-2 text-sm font-medium first:mt-0"}>{children}</Tag>;
  }
  Heading.displayName = `ChatH${level}`;
  return Heading;
}

const COMPONENTS: Components = {
  h1: heading(1),
  h2: heading(2),
  h3: heading(3),
  h4: heading(4),
  h5: heading(5),
  h6: heading(6),
  p({ children }) {
    return <p className="mt-2 leading-6 first:mt-0">{children}</p>;
  },
  ul({ children }) {
    return <ul className="mt-2 list-disc space-y-0.5 pl-5 leading-6">{children}</ul>;
  },
  ol({ children, start }) {
    return (
      <ol start={start} className="mt-2 list-decimal space-y-0.5 pl-5 leading-6">
        {children}
      </ol>
    );
  },
  blockquote({ children }) {
    return <blockquote className="mt-2 border-l-2 border-line pl-3 text-xs leading-5 text-muted">{children}</blockquote>;
  },
  table({ children }) {
    return (
      <div className="mt-2 max-w-full overflow-x-auto">
        <table className="min-w-full border-collapse text-sm">{children}</table>
      </div>
    );
  },
  th({ children, style }) {
    return (
      <th scope="col" style={style} className="border border-line bg-subtle px-2 py-1 text-left text-xs font-medium whitespace-nowrap text-muted">
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
  pre({ children }) {
    return (
      <pre style={MONO_WITH_CJK} className="mt-2 overflow-x-auto rounded bg-subtle p-2 text-xs leading-5 [&_code]:bg-transparent [&_code]:p-0">
        {children}
      </pre>
    );
  },
  code({ children }) {
    return (
      <code style={MONO_WITH_CJK} className="rounded bg-subtle px-1 text-[0.9em]">
        {children}
      </code>
    );
  },
  a({ href, children }) {
    if (!href || !SAFE_LINK.test(href)) return <>{children}</>;
    return (
      <a href={href} target={/^https?:/i.test(href) ? "_blank" : undefined} rel="noopener noreferrer" className="text-accent underline-offset-2 hover:underline">
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
  mark({ children, title }) {
    return (
      <mark data-testid="unverified-figure" title={title} className="rounded-sm bg-amber-200 px-0.5 text-inherit underline decoration-amber-600 decoration-dotted underline-offset-2 dark:bg-amber-500/30 dark:decoration-amber-400">
        {children}
      </mark>
    );
  },
};

// `~` is a range in market text (3000~3100), so only `~~x~~` strikes through; cjk-friendly lets "**风险：**正文" bold.
const REMARK_PLUGINS: Options["remarkPlugins"] = [[remarkGfm, { singleTilde: false }], remarkCjkFriendly];

export function ChatMarkdown({ source, unverified, unverifiedTitle }: { source: string; unverified: readonly string[]; unverifiedTitle: string }) {
  const key = unverified.join("\u0000");
  const rehypePlugins = useMemo<Options["rehypePlugins"]>(
    () => (key ? [[rehypeMarkFigures, { figures: key.split("\u0000"), title: unverifiedTitle }]] : []),
    [key, unverifiedTitle],
  );
  return (
    <div data-testid="chat-answer-text" className="min-w-0 text-sm break-words">
      <Markdown remarkPlugins={REMARK_PLUGINS} rehypePlugins={rehypePlugins} components={COMPONENTS} urlTransform={urlTransform}>
        {source}
      </Markdown>
    </div>
  );
}
