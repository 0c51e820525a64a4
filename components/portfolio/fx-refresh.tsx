"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { SMALL_BUTTON } from "@/components/alerts/format";
import { messageOf, requestJson } from "@/components/ui/request";
import { fmt } from "@/components/settings/format";
import type { TFxRefresh } from "@/lib/portfolio/fx-refresh";
import type { PortfolioTexts } from "./format";

// POST /api/v1/portfolio/fx/refresh for the open account (or all), then the page re-reads the snapshot and risk. The
// message follows the reference's client: disabled, no pairs, all updated, or the counts when something failed.
export function FxRefreshButton({ t, accountId }: { t: PortfolioTexts; accountId: number | null }) {
  const router = useRouter();
  const [, startTransition] = useTransition();
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ tone: "ok" | "warn" | "neutral"; text: string } | null>(null);

  async function refresh() {
    setBusy(true);
    setMessage(null);
    try {
      const result = await requestJson<TFxRefresh>(
        "POST",
        `/api/v1/portfolio/fx/refresh${accountId === null ? "" : `?account_id=${accountId}`}`,
      );
      if (!result.refresh_enabled)
        setMessage({ tone: "neutral", text: fmt(t.fxDisabled, { reason: result.disabled_reason ?? "" }) });
      else if (result.pair_count === 0) setMessage({ tone: "neutral", text: t.fxNoPairs });
      else if (result.updated_count > 0 && result.stale_count === 0 && result.error_count === 0)
        setMessage({ tone: "ok", text: fmt(t.fxUpdated, { updated: result.updated_count }) });
      else
        setMessage({
          tone: "warn",
          text: fmt(t.fxPartial, {
            updated: result.updated_count,
            stale: result.stale_count,
            errors: result.error_count,
          }),
        });
      startTransition(() => router.refresh());
    } catch (failure) {
      setMessage({ tone: "warn", text: fmt(t.requestFailed, { message: messageOf(failure) }) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <span className="inline-flex flex-wrap items-center gap-2">
      <button type="button" onClick={refresh} disabled={busy} className={SMALL_BUTTON}>
        {busy ? t.fxRefreshing : t.fxRefresh}
      </button>
      {message ? (
        <span
          role={message.tone === "warn" ? "alert" : "status"}
          data-testid="fx-message"
          className={
            message.tone === "warn"
              ? "text-xs font-normal text-amber-700 dark:text-amber-400"
              : "text-xs font-normal text-muted"
          }
        >
          {message.text}
        </span>
      ) : null}
    </span>
  );
}
