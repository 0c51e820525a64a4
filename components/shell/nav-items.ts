import type { Dictionary } from "@/lib/i18n/dictionaries/types";

export type PageKey = keyof Dictionary["pages"] & keyof Dictionary["nav"];

// The pages of the top navigation, in order; labels come from the dictionary's nav section.
export const NAV_ITEMS: ReadonlyArray<{ key: PageKey; href: string }> = [
  { key: "analyze", href: "/" },
  { key: "market", href: "/market" },
  { key: "screening", href: "/screening" },
  { key: "data", href: "/data" },
  { key: "chat", href: "/chat" },
  { key: "history", href: "/history" },
  { key: "signals", href: "/signals" },
  { key: "backtest", href: "/backtest" },
  { key: "portfolio", href: "/portfolio" },
  { key: "paper", href: "/paper" },
  { key: "alerts", href: "/alerts" },
  { key: "usage", href: "/usage" },
  { key: "settings", href: "/settings" },
];

// The phone's bottom tab bar (below the md breakpoint) has room for five tabs: the four pages a trader opens most,
// then "more", a menu with the other pages and the API docs.
export const PHONE_TAB_KEYS: ReadonlyArray<PageKey> = ["analyze", "market", "history", "portfolio"];

// The API reference is served by a route handler, not a UI page, so it is linked with a plain <a>.
export const API_DOCS_HREF = "/docs";

/** Whether the nav item of `href` is the current page (a page's sub-pages count: /history/12 is History). */
export function isActive(pathname: string, href: string): boolean {
  if (href === "/") return pathname === "/";
  return pathname === href || pathname.startsWith(`${href}/`);
}
