import "@fontsource/noto-sans-sc/chinese-simplified-400.css";
import "@fontsource/noto-sans-sc/chinese-simplified-700.css";
import "./globals.css";
import type { Metadata } from "next";
import type { ReactNode } from "react";
import { getI18n } from "@/lib/i18n/locale";
import { readThemeChoice } from "@/lib/theme/read-theme";
import { themeClassName } from "@/lib/theme/theme";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getI18n();
  return {
    title: { default: t.meta.siteName, template: `%s · ${t.shell.brand}` },
    description: t.meta.description,
    icons: { icon: { url: "/favicon.ico", type: "image/png" } },
  };
}

// lang and the theme class come from cookies on the server, so the first paint is already right (no flash).
export default async function RootLayout({ children }: { children: ReactNode }) {
  const [{ locale }, theme] = await Promise.all([getI18n(), readThemeChoice()]);
  return (
    <html lang={locale} className={themeClassName(theme)}>
      <body>{children}</body>
    </html>
  );
}
