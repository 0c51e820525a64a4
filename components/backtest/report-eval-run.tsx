"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { readFailure } from "@/components/auth/api-errors";
import { fmt } from "@/components/settings/format";
import type { Dictionary } from "@/lib/i18n/dictionaries/types";

/** POST /api/v1/backtest/run with the chosen window, then the page re-reads the stored evaluations. */
export function ReportEvalRun({ t, window }: { t: Dictionary["reportsUi"]; window: number }) {
  const router = useRouter();
  const [days, setDays] = useState(String(window));
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ text: string; error: boolean } | null>(null);

  async function run(event: React.FormEvent) {
    event.preventDefault();
    setBusy(true);
    setMessage(null);
    const res = await fetch("/api/v1/backtest/run", {
      method: "POST",
      credentials: "same-origin",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ eval_window_days: Number(days), min_age_days: 0 }),
    });
    setBusy(false);
    if (!res.ok) {
      setMessage({ text: (await readFailure(res)).message, error: true });
      return;
    }
    setMessage({ text: fmt(t.ran, (await res.json()) as Record<string, number>), error: false });
    router.push(`/backtest?reports_window=${encodeURIComponent(days)}`);
    router.refresh();
  }

  return (
    <form onSubmit={run} className="flex flex-wrap items-end gap-3" data-testid="report-eval-form">
      <label className="text-sm">
        <span className="block text-xs text-muted">{t.window}</span>
        <input
          type="number"
          min={1}
          max={60}
          required
          value={days}
          onChange={(e) => setDays(e.target.value)}
          className="mt-1 w-24 rounded border border-line bg-surface px-2 py-1 tabular-nums"
        />
      </label>
      <button
        type="submit"
        disabled={busy}
        className="rounded bg-accent px-3 py-1.5 text-sm font-medium text-accent-fg disabled:opacity-60"
      >
        {busy ? t.running : t.run}
      </button>
      {message ? (
        <p
          role={message.error ? "alert" : "status"}
          className={message.error ? "text-sm text-red-700 dark:text-red-300" : "text-sm text-muted"}
          data-testid="report-eval-message"
        >
          {message.text}
        </p>
      ) : null}
    </form>
  );
}
