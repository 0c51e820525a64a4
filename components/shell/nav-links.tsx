"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useEffect, useRef } from "react";
import { ArrowUpRightIcon } from "@/components/ui/icons";
import { cx } from "@/components/ui/cx";
import { isActive } from "./nav-items";

type NavLink = { href: string; label: string };

const ITEM =
  "inline-flex h-7 items-center rounded px-2.5 text-sm whitespace-nowrap focus-visible:outline-2 focus-visible:outline-accent";

// Client only because the highlighted item follows the current path. From the md breakpoint up (below it the
// bottom tab bar of phone-nav.tsx takes over); on a narrow laptop the row scrolls sideways inside itself.
export function NavLinks({ label, items, docs }: { label: string; items: NavLink[]; docs: NavLink }) {
  const pathname = usePathname();
  const activeRef = useRef<HTMLAnchorElement>(null);

  // Keep the current page's item visible when the row is scrolled.
  useEffect(() => {
    activeRef.current?.scrollIntoView({ block: "nearest", inline: "nearest" });
  }, [pathname]);

  return (
    <nav aria-label={label} className="flex min-w-0 items-center">
      {/* Only the pages scroll: the API docs link stays in view however long the labels (en) or the header's
          right side (signed in) get. */}
      <ul className="scrollbar-none flex min-w-0 flex-1 items-center gap-0.5 overflow-x-auto">
        {items.map((item) => {
          const active = isActive(pathname, item.href);
          return (
            <li key={item.href}>
              <Link
                href={item.href}
                ref={active ? activeRef : undefined}
                aria-current={active ? "page" : undefined}
                className={cx(
                  ITEM,
                  active ? "bg-accent-soft font-medium text-accent" : "text-muted hover:bg-subtle hover:text-fg",
                )}
              >
                {item.label}
              </Link>
            </li>
          );
        })}
      </ul>
      <a href={docs.href} className={cx(ITEM, "ml-2 shrink-0 gap-1 text-muted hover:bg-subtle hover:text-fg")}>
        {docs.label}
        <ArrowUpRightIcon width={12} height={12} />
      </a>
    </nav>
  );
}
