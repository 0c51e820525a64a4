"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { readFailure } from "@/components/auth/api-errors";
import { fmt } from "@/components/settings/format";
import type { Dictionary } from "@/lib/i18n/dictionaries/types";

type Texts = Dictionary["historyUi"];

const BUTTON =
  "inline-flex h-7 items-center rounded-md border border-accent/40 bg-accent-soft px-2.5 text-xs font-medium text-accent hover:opacity-90 disabled:opacity-60 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-accent";

// Runs the same analysis again now (same code, report type and language, fresh market data) and opens the new
// report. Synchronous on purpose: the user asked for this one stock and waits for it, as on the Analyze page.
export function ReanalyzeButton({
  t,
  stockCode,
  reportType,
  language,
}: {
  t: Texts;
  stockCode: string;
  reportType: string;
  language: string;
}) {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function run() {
    setBusy(true);
    setError(null);
    try {
      const res = await fetch("/api/v1/analysis/analyze", {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify({
          stock_code: stockCode,
          report_type: reportType,
          report_language: language,
          force_refresh: true,
          notify: false,
        }),
        cache: "no-store",
      });
      if (!res.ok) throw new Error((await readFailure(res)).message);
      const body = (await res.json()) as { report?: { meta?: { id?: number | null } }; query_id?: string };
      const id = body.report?.meta?.id ?? body.query_id;
      if (id === undefined || id === null) throw new Error("no record id in the answer");
      router.push(`/history/${id}`);
    } catch (failure) {
      setError(fmt(t.reanalyzeFailed, { message: failure instanceof Error ? failure.message : String(failure) }));
      setBusy(false);
    }
  }

  return (
    <span className="inline-flex items-center gap-2">
      <button type="button" className={BUTTON} disabled={busy} onClick={run} aria-busy={busy}>
        {busy ? t.reanalyzing : t.reanalyze}
      </button>
      {error ? (
        <span role="alert" className="text-xs text-red-700 dark:text-red-300">
          {error}
        </span>
      ) : null}
    </span>
  );
}
