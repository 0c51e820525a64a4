"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";
import { cx } from "@/components/ui/cx";
import { DocsIcon, MoreIcon, NAV_ICONS } from "./nav-icons";
import { isActive, type PageKey } from "./nav-items";

export type PhoneNavItem = { key: PageKey; href: string; label: string };

type PhoneNavProps = {
  /** The accessible name of the nav, the same as the desktop nav's ("主导航"). */
  label: string;
  /** The tabs of the bar, in order. */
  tabs: PhoneNavItem[];
  /** The pages of the "more" menu, in order. */
  rest: PhoneNavItem[];
  docs: { href: string; label: string };
  moreLabel: string;
};

const TAB =
  "flex h-14 w-full flex-col items-center justify-center gap-0.5 text-[11px] leading-4 font-medium " +
  "focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-accent";
const MENU_ITEM =
  "flex h-11 items-center gap-3 rounded px-3 text-sm focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-accent";

/**
 * Below the md breakpoint the top tabs become this fixed bottom tab bar (the desktop nav is hidden
 * there): four tabs with icons and short labels, then "more", a disclosure button whose menu lists the other pages
 * and the API docs. The menu opens above the bar; Escape, a click elsewhere, focus leaving the nav, or following a
 * link closes it. The current page carries aria-current, in the bar or in the menu (then "more" is highlighted).
 * The page's bottom padding that keeps the bar off the content is in app/globals.css (`body:has(#phone-nav)`).
 */
export function PhoneNav({ label, tabs, rest, docs, moreLabel }: PhoneNavProps) {
  const pathname = usePathname();
  const menuId = useId();
  const navRef = useRef<HTMLElement>(null);
  const moreRef = useRef<HTMLButtonElement>(null);
  // The menu is open on the path where it was opened: navigating anywhere closes it without an effect.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === pathname;
  const currentInMenu = rest.some((item) => isActive(pathname, item.href));

  // A press outside the nav closes the menu.
  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      if (!navRef.current?.contains(event.target as Node)) setOpenOn(null);
    };
    document.addEventListener("pointerdown", onPointerDown);
    return () => document.removeEventListener("pointerdown", onPointerDown);
  }, [open]);

  function onKeyDown(event: KeyboardEvent<HTMLElement>) {
    if (event.key !== "Escape" || !open) return;
    event.preventDefault();
    setOpenOn(null);
    moreRef.current?.focus();
  }

  return (
    <nav
      id="phone-nav"
      ref={navRef}
      aria-label={label}
      onKeyDown={onKeyDown}
      onBlur={(event) => {
        if (open && !event.currentTarget.contains(event.relatedTarget as Node | null) && event.relatedTarget)
          setOpenOn(null);
      }}
      className="fixed inset-x-0 bottom-0 z-30 border-t border-line bg-surface pb-[env(safe-area-inset-bottom)] md:hidden"
    >
      <ul className="grid grid-cols-5">
        {tabs.map((item) => {
          const active = isActive(pathname, item.href);
          const Icon = NAV_ICONS[item.key];
          return (
            <li key={item.href}>
              <Link
                href={item.href}
                aria-current={active ? "page" : undefined}
                className={cx(TAB, active ? "bg-accent-soft text-accent" : "text-muted hover:text-fg")}
              >
                <Icon />
                <span className="max-w-full truncate px-0.5">{item.label}</span>
              </Link>
            </li>
          );
        })}
        <li>
          <button
            ref={moreRef}
            type="button"
            aria-expanded={open}
            aria-controls={menuId}
            onClick={() => setOpenOn(open ? null : pathname)}
            className={cx(TAB, open || currentInMenu ? "bg-accent-soft text-accent" : "text-muted hover:text-fg")}
          >
            <MoreIcon />
            <span className="max-w-full truncate px-0.5">{moreLabel}</span>
          </button>
        </li>
      </ul>
      <div
        id={menuId}
        hidden={!open}
        className="absolute right-2 bottom-full mb-2 w-56 max-w-[calc(100vw-1rem)] rounded-md border border-line bg-surface p-1 shadow-lg"
      >
        <ul>
          {rest.map((item) => {
            const active = isActive(pathname, item.href);
            const Icon = NAV_ICONS[item.key];
            return (
              <li key={item.href}>
                <Link
                  href={item.href}
                  aria-current={active ? "page" : undefined}
                  onClick={() => setOpenOn(null)}
                  className={cx(
                    MENU_ITEM,
                    active ? "bg-accent-soft font-medium text-accent" : "text-fg hover:bg-subtle",
                  )}
                >
                  <Icon className={cx("shrink-0", !active && "text-muted")} />
                  {item.label}
                </Link>
              </li>
            );
          })}
          <li className="mt-1 border-t border-line pt-1">
            <a href={docs.href} className={cx(MENU_ITEM, "text-fg hover:bg-subtle")}>
              <DocsIcon className="shrink-0 text-muted" />
              {docs.label}
            </a>
          </li>
        </ul>
      </div>
    </nav>
  );
}
