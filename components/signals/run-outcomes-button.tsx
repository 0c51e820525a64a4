"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { fmt } from "@/components/settings/format";
import type { Dictionary } from "@/lib/i18n/dictionaries/types";
import { errorText, runOutcomes } from "./requests";

type Texts = Dictionary["signalsUi"];

// POST /api/v1/decision-signals/outcomes/run with the defaults (every horizon, no force), then re-renders the
// page so the statistics, the table and an open drawer show the new rows.
export function RunOutcomesButton({ t }: { t: Texts }) {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const [refreshing, startTransition] = useTransition();

  async function run() {
    setBusy(true);
    setMessage(null);
    try {
      const result = await runOutcomes();
      setMessage(
        fmt(t.runDone, {
          evaluated: result.evaluated,
          created: result.created,
          updated: result.updated,
          skipped: result.skipped,
        }),
      );
      startTransition(() => router.refresh());
    } catch (failure) {
      setMessage(fmt(t.runFailed, { message: errorText(failure) }));
    } finally {
      setBusy(false);
    }
  }

  const working = busy || refreshing;
  return (
    <div className="flex flex-wrap items-center justify-end gap-2">
      <p role="status" className="text-xs text-muted" data-testid="outcome-run-status">
        {message}
      </p>
      <button
        type="button"
        onClick={run}
        disabled={working}
        className="inline-flex h-7 items-center rounded-md bg-accent px-3 text-xs font-semibold text-accent-fg hover:bg-accent/90 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-accent disabled:cursor-progress disabled:opacity-70"
      >
        {working ? t.runningOutcomes : t.runOutcomes}
      </button>
    </div>
  );
}
