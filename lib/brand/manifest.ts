import type { MetadataRoute } from "next";

/** The UI's accent: the installed app's title bar and splash screen. */
export const THEME_COLOR = "#1b5fd6";

// The web app manifest: a standalone window opening on the Analyse page, with the brand icons (lib/brand/icon.ts).
// Bilingual names, as the manifest has one language and the UI has two.
export function appManifest(): MetadataRoute.Manifest {
  return {
    id: "/",
    name: "DSA · AI 股票分析 / Stock analysis",
    short_name: "DSA",
    description:
      "自托管的 AI 股票分析：A 股、港股、美股。Self-hosted AI stock analysis for China A-shares, Hong Kong and US.",
    start_url: "/",
    scope: "/",
    display: "standalone",
    orientation: "portrait",
    background_color: "#ffffff",
    theme_color: THEME_COLOR,
    categories: ["finance", "business"],
    icons: [
      { src: "/icons/icon-192.png", sizes: "192x192", type: "image/png", purpose: "any" },
      { src: "/icons/icon-512.png", sizes: "512x512", type: "image/png", purpose: "any" },
      { src: "/icons/maskable-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
    ],
    shortcuts: [
      { name: "历史报告 / History", url: "/history" },
      { name: "决策信号 / Signals", url: "/signals" },
    ],
  };
}
