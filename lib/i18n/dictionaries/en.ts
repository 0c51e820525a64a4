import type { Dictionary } from "./types";

export const en: Dictionary = {
  meta: {
    siteName: "DSA Stock Analysis",
    description: "Self-hosted AI stock analysis: A-shares, Hong Kong, US stocks and indices.",
  },
  shell: {
    brand: "DSA",
    brandTagline: "Stock analysis",
    skipToContent: "Skip to main content",
    mainNav: "Main navigation",
    apiDocs: "API docs",
    language: "Language",
    theme: "Theme",
    themeLight: "Light",
    themeDark: "Dark",
    themeSystem: "System",
    version: "Version",
    disclaimer:
      "Analyses are generated automatically by software and language models for reference only and are not investment advice. Investing involves risk.",
  },
  nav: {
    analyze: "Analyze",
    history: "History",
    signals: "Signals",
    portfolio: "Portfolio",
    alerts: "Alerts",
    usage: "Usage",
    settings: "Settings",
  },
  comingSoon: {
    badge: "Coming soon",
    note: "This page is still being built. Meanwhile, the same features are available through the API:",
    docsLink: "Open the API docs",
  },
  pages: {
    analyze: {
      title: "Analyze",
      description:
        "Enter one or more symbols (A-shares, Hong Kong, US stocks or indices) and DSA fetches prices and news, computes technical indicators, runs its trading rules and, optionally, a language model, then writes a report with a recommendation, key price levels and risks. Batch runs show each task's progress live.",
    },
    history: {
      title: "History",
      description:
        "Browse and search every past report, filter by symbol or date, compare how the verdict on a stock changed over time, export Markdown or a shareable image, and delete records you no longer need.",
    },
    signals: {
      title: "Signals",
      description:
        "Collects the buy, sell and hold signals your analyses produce and tracks how prices moved afterwards and how often each signal was right, so you can see which rules and models actually work in the markets you follow.",
    },
    portfolio: {
      title: "Portfolio",
      description:
        "Record your positions and trades; DSA values them at the latest prices with cost, unrealised profit and loss and weight, and shows each holding next to its latest analysis for your after-market review.",
    },
    alerts: {
      title: "Alerts",
      description:
        "Set conditions on a stock, such as a price level, a percentage move or a change of signal, and get notified through your configured channels when one is met, instead of watching the screen all day.",
    },
    usage: {
      title: "Usage",
      description:
        "Counts the language-model tokens and estimated cost of every analysis, totalled by day, model and symbol, so you know what your analyses cost and can keep it in check.",
    },
    settings: {
      title: "Settings",
      description:
        "Configure market and news data sources, language-model providers and keys, notification channels, your price-colour convention (red up / green down or the reverse) and the access password; changes apply as soon as you save.",
    },
  },
};
