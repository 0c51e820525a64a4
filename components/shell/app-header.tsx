import Link from "next/link";
import { LogoutButton } from "@/components/auth/logout-button";
import type { Locale } from "@/lib/i18n/config";
import type { Dictionary } from "@/lib/i18n/dictionaries/types";
import type { ThemeChoice } from "@/lib/theme/theme";
import { AppInstall } from "./app-install";
import { LanguageSwitch } from "./language-switch";
import { NavLinks } from "./nav-links";
import { API_DOCS_HREF, NAV_ITEMS, PHONE_TAB_KEYS } from "./nav-items";
import { PhoneNav, type PhoneNavItem } from "./phone-nav";
import { ThemeToggle } from "./theme-toggle";
import { TimeZoneToggle } from "./time-zone-toggle";

type AppHeaderProps = {
  t: Dictionary;
  locale: Locale;
  theme: ThemeChoice;
  /** Admin auth is on and this browser has a live session: show the login state and a logout button. */
  loggedIn?: boolean;
};

// Desktop (md and up): one row (brand, nav, controls). Phone: brand and controls in the header, and the nav as a
// bottom tab bar (PhoneNav, fixed to the bottom of the screen). Both navs carry the same name;
// only one of them is displayed at a time.
export function AppHeader({ t, locale, theme, loggedIn = false }: AppHeaderProps) {
  const items: PhoneNavItem[] = NAV_ITEMS.map((item) => ({ key: item.key, href: item.href, label: t.nav[item.key] }));
  const docs = { href: API_DOCS_HREF, label: t.shell.apiDocs };
  return (
    <>
      {/* Sticky from md up; on a phone it scrolls away, leaving the screen to the page (the bottom tab bar navigates). */}
      <header className="z-20 border-b border-line bg-surface md:sticky md:top-0">
        <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-4 gap-y-1.5 px-4 py-2 md:h-11 md:flex-nowrap md:py-0">
          <Link href="/" className="order-1 flex shrink-0 items-center gap-2">
            <span aria-hidden="true" className="size-2.5 rounded-sm bg-accent" />
            <span className="text-[15px] font-bold tracking-tight">{t.shell.brand}</span>
            <span className="hidden text-xs text-muted sm:inline">{t.shell.brandTagline}</span>
          </Link>
          <div className="order-2 ml-auto flex shrink-0 items-center gap-2 md:order-3 md:ml-0">
            <AppInstall label={t.shell.installApp} />
            <LanguageSwitch current={locale} label={t.shell.language} />
            <TimeZoneToggle
              labels={{
                group: t.shell.timeZone,
                service: t.shell.timeZoneService,
                local: t.shell.timeZoneLocal,
                serviceTitle: t.shell.timeZoneServiceTitle,
                localTitle: t.shell.timeZoneLocalTitle,
              }}
            />
            <ThemeToggle
              current={theme}
              labels={{
                group: t.shell.theme,
                light: t.shell.themeLight,
                dark: t.shell.themeDark,
                system: t.shell.themeSystem,
              }}
            />
            {loggedIn && <LogoutButton label={t.auth.logoutShort} statusLabel={t.auth.loggedIn} />}
          </div>
          <div className="order-3 hidden min-w-0 md:order-2 md:block md:flex-1">
            <NavLinks label={t.shell.mainNav} items={items} docs={docs} />
          </div>
        </div>
      </header>
      <PhoneNav
        label={t.shell.mainNav}
        tabs={items.filter((item) => PHONE_TAB_KEYS.includes(item.key))}
        rest={items.filter((item) => !PHONE_TAB_KEYS.includes(item.key))}
        docs={docs}
        moreLabel={t.shell.more}
      />
    </>
  );
}
