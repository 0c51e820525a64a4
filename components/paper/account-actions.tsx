"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { SMALL_BUTTON } from "@/components/screening/format";
import { fmt } from "@/components/settings/format";
import { messageOf, requestJson } from "@/components/ui/request";
import type { PaperTexts } from "./format";

// Pause or resume, settle now (walk the sessions closed since the last one), delete.
export function AccountActions({ t, id, status }: { t: PaperTexts; id: number; status: "active" | "paused" }) {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function act(method: "PUT" | "POST" | "DELETE", path: string, body?: unknown, after?: () => void) {
    setBusy(true);
    setError(null);
    try {
      await requestJson(method, `/api/v1/paper/accounts/${id}${path}`, body);
      if (after) after();
      else router.refresh();
    } catch (failure) {
      setError(fmt(t.actionFailed, { message: messageOf(failure) }));
    } finally {
      setBusy(false);
    }
  }
  return (
    <div className="flex flex-wrap items-center gap-1.5" data-testid="paper-actions">
      <button
        type="button"
        className={SMALL_BUTTON}
        disabled={busy}
        onClick={() => act("PUT", "/status", { status: status === "active" ? "paused" : "active" })}
      >
        {status === "active" ? t.pause : t.resume}
      </button>
      <button
        type="button"
        className={SMALL_BUTTON}
        disabled={busy || status !== "active"}
        onClick={() => act("POST", "/run")}
      >
        {t.runNow}
      </button>
      <button
        type="button"
        className={SMALL_BUTTON}
        disabled={busy}
        onClick={() => act("DELETE", "", undefined, () => router.push("/paper"))}
      >
        {t.remove}
      </button>
      {error ? (
        <span role="alert" className="text-xs text-red-700 dark:text-red-300">
          {error}
        </span>
      ) : null}
    </div>
  );
}
