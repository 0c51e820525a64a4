import type { ReactNode } from "react";
import { AppFooter } from "@/components/shell/app-footer";
import { AppHeader } from "@/components/shell/app-header";
import { SkipLink } from "@/components/shell/skip-link";
import { getI18n } from "@/lib/i18n/locale";
import { readThemeChoice } from "@/lib/theme/read-theme";

export default async function UiLayout({ children }: { children: ReactNode }) {
  const [{ locale, t }, theme] = await Promise.all([getI18n(), readThemeChoice()]);
  return (
    <div className="flex min-h-dvh flex-col">
      <SkipLink label={t.shell.skipToContent} />
      <AppHeader t={t} locale={locale} theme={theme} />
      <main id="main" className="flex-1">
        {children}
      </main>
      <AppFooter t={t} />
    </div>
  );
}
