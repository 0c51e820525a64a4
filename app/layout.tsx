import "@fontsource/noto-sans-sc/chinese-simplified-400.css";
import "@fontsource/noto-sans-sc/chinese-simplified-700.css";
import "./globals.css";
import type { Metadata, Viewport } from "next";
import type { ReactNode } from "react";
import { THEME_COLOR } from "@/lib/brand/manifest";
import { getI18n } from "@/lib/i18n/locale";
import { readThemeChoice } from "@/lib/theme/read-theme";
import { themeClassName } from "@/lib/theme/theme";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getI18n();
  return {
    title: { default: t.meta.siteName, template: `%s · ${t.shell.brand}` },
    description: t.meta.description,
    icons: {
      icon: { url: "/favicon.ico", type: "image/png" },
      apple: { url: "/icons/apple-touch-icon.png", sizes: "180x180" },
    },
    // Added to the home screen on an iPhone: a full-screen app with the brand's name.
    appleWebApp: { capable: true, title: t.shell.brand, statusBarStyle: "default" },
  };
}

export const viewport: Viewport = { themeColor: THEME_COLOR, width: "device-width", initialScale: 1 };

// lang and the theme class come from cookies on the server, so the first paint is already right (no flash).
export default async function RootLayout({ children }: { children: ReactNode }) {
  const [{ locale }, theme] = await Promise.all([getI18n(), readThemeChoice()]);
  return (
    <html lang={locale} className={themeClassName(theme)}>
      <body>{children}</body>
    </html>
  );
}
