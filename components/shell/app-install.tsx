"use client";

import { useEffect, useState } from "react";

// The installable app: registers the service worker (public/sw.js), hands it what this first page loaded before
// it took control (so the shell opens offline after one visit), and offers the browser's install prompt when the
// browser offers one (Chromium's beforeinstallprompt; elsewhere the browser's own menu installs).

interface InstallPromptEvent extends Event {
  prompt(): Promise<void>;
  userChoice: Promise<{ outcome: "accepted" | "dismissed" }>;
}

function loadedUrls(): string[] {
  const entries = performance.getEntriesByType("resource") as PerformanceResourceTiming[];
  return [
    location.href,
    ...entries
      .filter((e) => ["script", "link", "css", "font", "img"].includes(e.initiatorType))
      .map((e) => e.name)
      .filter((href) => new URL(href).origin === location.origin),
  ];
}

export function AppInstall({ label }: { label: string }) {
  const [prompt, setPrompt] = useState<InstallPromptEvent | null>(null);

  useEffect(() => {
    if (!("serviceWorker" in navigator)) return;
    navigator.serviceWorker
      .register("/sw.js", { scope: "/" })
      .then(() => navigator.serviceWorker.ready)
      .then((registration) =>
        registration.active?.postMessage({ type: "cache-urls", page: location.href, urls: loadedUrls() }),
      )
      .catch(() => {
        // No worker (a private window, an old browser): the app works online as before.
      });
    const offer = (event: Event) => {
      event.preventDefault();
      setPrompt(event as InstallPromptEvent);
    };
    const installed = () => setPrompt(null);
    window.addEventListener("beforeinstallprompt", offer);
    window.addEventListener("appinstalled", installed);
    return () => {
      window.removeEventListener("beforeinstallprompt", offer);
      window.removeEventListener("appinstalled", installed);
    };
  }, []);

  if (!prompt) return null;
  return (
    <button
      type="button"
      data-testid="install-app"
      onClick={async () => {
        await prompt.prompt();
        await prompt.userChoice.catch(() => null);
        setPrompt(null);
      }}
      className="min-h-9 rounded-md border border-accent px-2.5 text-xs font-medium text-accent hover:bg-accent hover:text-accent-fg"
    >
      {label}
    </button>
  );
}
