"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useEffect, useRef } from "react";
import { ArrowUpRightIcon } from "@/components/ui/icons";
import { cx } from "@/components/ui/cx";

type NavLink = { href: string; label: string };

function isActive(pathname: string, href: string): boolean {
  if (href === "/") return pathname === "/";
  return pathname === href || pathname.startsWith(`${href}/`);
}

const ITEM = "inline-flex h-7 items-center rounded px-2.5 text-sm whitespace-nowrap focus-visible:outline-2 focus-visible:outline-accent";

// Client only because the highlighted item follows the current path. On a phone the bar scrolls sideways.
export function NavLinks({ label, items, docs }: { label: string; items: NavLink[]; docs: NavLink }) {
  const pathname = usePathname();
  const activeRef = useRef<HTMLAnchorElement>(null);

  // Keep the current page's item visible when the bar is scrolled (phone width).
  useEffect(() => {
    activeRef.current?.scrollIntoView({ block: "nearest", inline: "nearest" });
  }, [pathname]);

  return (
    <nav
      aria-label={label}
      className={cx(
        "scrollbar-none -mx-4 overflow-x-auto px-4 md:mx-0 md:px-0",
        // On a phone, items scrolled under the side padding fade out: a hint that the bar scrolls.
        "max-md:[mask-image:linear-gradient(to_right,transparent,#000_1rem,#000_calc(100%-1rem),transparent)]",
      )}
    >
      <ul className="flex items-center gap-0.5 py-1 md:py-0">
        {items.map((item) => {
          const active = isActive(pathname, item.href);
          return (
            <li key={item.href}>
              <Link
                href={item.href}
                ref={active ? activeRef : undefined}
                aria-current={active ? "page" : undefined}
                className={cx(ITEM, active ? "bg-accent-soft font-medium text-accent" : "text-muted hover:bg-subtle hover:text-fg")}
              >
                {item.label}
              </Link>
            </li>
          );
        })}
        <li className="ml-auto pl-2">
          <a href={docs.href} className={cx(ITEM, "gap-1 text-muted hover:bg-subtle hover:text-fg")}>
            {docs.label}
            <ArrowUpRightIcon width={12} height={12} />
          </a>
        </li>
      </ul>
    </nav>
  );
}
