import Link from "next/link";
import { cx } from "./cx";

// Previous / "page x of y" / next as plain links, so a server-rendered list pages without client code.
// `href(page)` builds each link; the ends render as disabled text instead of links.

export interface PaginationProps {
  page: number;
  pageCount: number;
  href: (page: number) => string;
  labels: { nav: string; previous: string; next: string; status: string };
}

const ITEM = "inline-flex h-7 items-center rounded-md border border-line px-2.5 text-sm font-medium";

export function Pagination({ page, pageCount, href, labels }: PaginationProps) {
  if (pageCount <= 1) return null;
  const edge = (target: number, label: string, enabled: boolean, rel: "prev" | "next") =>
    enabled ? (
      <Link
        href={href(target)}
        rel={rel}
        className={cx(
          ITEM,
          "bg-surface hover:bg-subtle focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-accent",
        )}
      >
        {label}
      </Link>
    ) : (
      <span aria-disabled="true" className={cx(ITEM, "cursor-not-allowed text-muted opacity-60")}>
        {label}
      </span>
    );
  return (
    <nav aria-label={labels.nav} className="flex items-center justify-between gap-2">
      {edge(page - 1, labels.previous, page > 1, "prev")}
      <span className="text-xs text-muted tabular-nums" aria-current="page">
        {labels.status}
      </span>
      {edge(page + 1, labels.next, page < pageCount, "next")}
    </nav>
  );
}
