"use client";

import { useState } from "react";
import { SMALL_BUTTON } from "@/components/alerts/format";
import { messageOf, requestJson } from "@/components/ui/request";
import { fmt } from "@/components/settings/format";
import type { TTaskAccepted } from "@/lib/tasks/schemas";
import type { PortfolioTexts } from "./format";

// POST /api/v1/portfolio/positions/{symbol}/analysis (docs/api.md §12.1.14): queues an analysis of the held stock; the task
// shows on the task stream like any other, and a stock already being analysed answers with the running task.
export function AnalyzePositionButton({
  t,
  symbol,
  accountId,
}: {
  t: PortfolioTexts;
  symbol: string;
  accountId: number;
}) {
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ error: boolean; text: string } | null>(null);

  async function analyze() {
    setBusy(true);
    setMessage(null);
    try {
      const task = await requestJson<TTaskAccepted>(
        "POST",
        `/api/v1/portfolio/positions/${encodeURIComponent(symbol)}/analysis`,
        { account_id: accountId, analysis_phase: "auto", force: false },
      );
      setMessage({ error: false, text: fmt(t.analysisQueued, { task: task.task_id }) });
    } catch (failure) {
      setMessage({ error: true, text: fmt(t.requestFailed, { message: messageOf(failure) }) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <span className="inline-flex flex-col items-start gap-0.5">
      <button
        type="button"
        onClick={analyze}
        disabled={busy}
        aria-label={fmt(t.analyzeAria, { code: symbol })}
        className={SMALL_BUTTON}
      >
        {busy ? t.analyzing : t.analyze}
      </button>
      {message ? (
        <span
          role={message.error ? "alert" : "status"}
          data-testid="analysis-message"
          className={
            message.error
              ? "max-w-48 text-xs text-amber-700 dark:text-amber-400"
              : "max-w-48 truncate text-xs text-muted"
          }
        >
          {message.text}
        </span>
      ) : null}
    </span>
  );
}
