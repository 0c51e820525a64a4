"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { fmt } from "@/components/settings/format";
import type { TAlertEvaluation } from "@/lib/alerts/schemas";
import { ERROR_TEXT, PRIMARY_BUTTON, type AlertTexts } from "./format";
import { messageOf, requestJson } from "@/components/ui/request";

// "Check now": POST /api/v1/alerts/evaluate runs the evaluator over every enabled rule and each of its targets at once
// (outside trading hours too); the page then re-reads the rules, the trigger history and the notification records.
export function CheckNowButton({ t }: { t: AlertTexts }) {
  const router = useRouter();
  const [, startTransition] = useTransition();
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<TAlertEvaluation | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function check() {
    setBusy(true);
    setError(null);
    try {
      const evaluation = await requestJson<TAlertEvaluation>("POST", "/api/v1/alerts/evaluate");
      setResult(evaluation);
      startTransition(() => router.refresh());
    } catch (failure) {
      setResult(null);
      setError(fmt(t.requestFailed, { message: messageOf(failure) }));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="flex min-w-0 flex-wrap items-center gap-2">
      {error ? (
        <p role="alert" className={ERROR_TEXT}>
          {error}
        </p>
      ) : null}
      {result ? (
        <p
          role="status"
          data-testid="alerts-check-result"
          data-checked={result.checked.length}
          data-fired={result.triggers.length}
          className="text-xs text-muted tabular-nums"
        >
          {fmt(t.checkResult, {
            checked: result.checked.length,
            met: result.checked.filter((c) => c.triggered).length,
            fired: result.triggers.length,
          })}
        </p>
      ) : null}
      <button type="button" onClick={check} disabled={busy} className={PRIMARY_BUTTON}>
        {busy ? t.checking : t.checkNow}
      </button>
    </div>
  );
}
