import type { ReactNode } from "react";
import { PriceColorStyle } from "@/components/analysis/price-color-style";
import { AppFooter } from "@/components/shell/app-footer";
import { AppHeader } from "@/components/shell/app-header";
import { SkipLink } from "@/components/shell/skip-link";
import { TimeZoneProvider } from "@/components/shell/time-zone";
import { uiAuthState } from "@/lib/auth/ui-session";
import { getDisplayTimeZone, getI18n } from "@/lib/i18n/locale";
import { readThemeChoice } from "@/lib/theme/read-theme";

export default async function UiLayout({ children }: { children: ReactNode }) {
  // Who may see these pages is decided by proxy.ts; the layout only shows the login state.
  const [{ locale, t }, theme, auth, timeZone] = await Promise.all([
    getI18n(),
    readThemeChoice(),
    uiAuthState(),
    getDisplayTimeZone(),
  ]);
  // The display zone reaches every client component that formats a time through this provider.
  return (
    <TimeZoneProvider value={timeZone}>
      <PriceColorStyle />
      <div className="flex min-h-dvh flex-col">
        <SkipLink label={t.shell.skipToContent} />
        <AppHeader t={t} locale={locale} theme={theme} loggedIn={auth.authEnabled && auth.loggedIn} />
        <main id="main" className="flex-1">
          {children}
        </main>
        <AppFooter t={t} />
      </div>
    </TimeZoneProvider>
  );
}
