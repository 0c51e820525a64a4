import { useMemo, type ReactNode } from "react";
import Markdown, { type Components, type Options } from "react-markdown";
import { MARKDOWN_COMPONENTS, REMARK_PLUGINS } from "@/components/history/markdown-text";
import { rehypeMarkFigures } from "./mark-figures";

// An answer of the chat as Markdown, with the same safety rules as the report renderer (components/history/
// markdown-text.tsx): no raw HTML (react-markdown shows it as text), only http(s)/mailto links and paths of this
// site (command answers link their reports as /history/<id>), images as their alt text. The report's element
// set with the chat's own headings (answers sit in a bubble under the page's headings), links, and the <mark> of
// unverified figures (rehype plugin in ./mark-figures.ts).

const SAFE_LINK = /^(?:https?:\/\/|mailto:|\/(?![\/\\]))/i;

function urlTransform(url: string): string {
  const trimmed = url.trim();
  return SAFE_LINK.test(trimmed) ? trimmed : "";
}

function heading(level: number) {
  // The page has h1 and h2; an answer's "#" starts at h3.
  const Tag = `h${Math.min(level + 2, 6)}` as "h3";
  function Heading({ children }: { children?: ReactNode }) {
    return (
      <Tag className={level <= 2 ? "mt-3 text-sm font-semibold first:mt-0" : "mt-2 text-sm font-medium first:mt-0"}>
        {children}
      </Tag>
    );
  }
  Heading.displayName = `ChatH${level}`;
  return Heading;
}

const COMPONENTS: Components = {
  ...MARKDOWN_COMPONENTS,
  h1: heading(1),
  h2: heading(2),
  h3: heading(3),
  h4: heading(4),
  h5: heading(5),
  h6: heading(6),
  p({ children }) {
    return <p className="mt-2 leading-6 first:mt-0">{children}</p>;
  },
  a({ href, children }) {
    if (!href || !SAFE_LINK.test(href)) return <>{children}</>;
    return (
      <a
        href={href}
        target={/^https?:/i.test(href) ? "_blank" : undefined}
        rel="noopener noreferrer"
        className="text-accent underline underline-offset-2"
      >
        {children}
      </a>
    );
  },
  mark({ children, title }) {
    return (
      <mark
        data-testid="unverified-figure"
        title={title}
        className="rounded-sm bg-amber-200 px-0.5 text-inherit underline decoration-amber-600 decoration-dotted underline-offset-2 dark:bg-amber-500/30 dark:decoration-amber-400"
      >
        {children}
      </mark>
    );
  },
};

export function ChatMarkdown({
  source,
  unverified,
  unverifiedTitle,
}: {
  source: string;
  unverified: readonly string[];
  unverifiedTitle: string;
}) {
  const key = unverified.join("\u0000");
  const rehypePlugins = useMemo<Options["rehypePlugins"]>(
    () => (key ? [[rehypeMarkFigures, { figures: key.split("\u0000"), title: unverifiedTitle }]] : []),
    [key, unverifiedTitle],
  );
  return (
    <div data-testid="chat-answer-text" className="min-w-0 text-sm break-words">
      <Markdown
        remarkPlugins={REMARK_PLUGINS}
        rehypePlugins={rehypePlugins}
        components={COMPONENTS}
        urlTransform={urlTransform}
      >
        {source}
      </Markdown>
    </div>
  );
}
