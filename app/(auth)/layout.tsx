import Link from "next/link";
import type { ReactNode } from "react";
import { AppFooter } from "@/components/shell/app-footer";
import { LanguageSwitch } from "@/components/shell/language-switch";
import { SkipLink } from "@/components/shell/skip-link";
import { ThemeToggle } from "@/components/shell/theme-toggle";
import { getI18n } from "@/lib/i18n/locale";
import { readThemeChoice } from "@/lib/theme/read-theme";

// The login page's frame: brand, language and theme, no navigation (the pages behind it need the login).
export default async function AuthLayout({ children }: { children: ReactNode }) {
  const [{ locale, t }, theme] = await Promise.all([getI18n(), readThemeChoice()]);
  return (
    <div className="flex min-h-dvh flex-col">
      <SkipLink label={t.shell.skipToContent} />
      <header className="border-b border-line bg-surface">
        <div className="mx-auto flex h-11 max-w-7xl items-center gap-4 px-4">
          <Link href="/" className="flex shrink-0 items-center gap-2">
            <span aria-hidden="true" className="size-2.5 rounded-sm bg-accent" />
            <span className="text-[15px] font-bold tracking-tight">{t.shell.brand}</span>
            <span className="hidden text-xs text-muted sm:inline">{t.shell.brandTagline}</span>
          </Link>
          <div className="ml-auto flex shrink-0 items-center gap-2">
            <LanguageSwitch current={locale} label={t.shell.language} />
            <ThemeToggle
              current={theme}
              labels={{
                group: t.shell.theme,
                light: t.shell.themeLight,
                dark: t.shell.themeDark,
                system: t.shell.themeSystem,
              }}
            />
          </div>
        </div>
      </header>
      <main id="main" className="flex-1">
        {children}
      </main>
      <AppFooter t={t} />
    </div>
  );
}
