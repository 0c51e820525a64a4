"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { fmt } from "@/components/settings/format";
import { messageOf, requestJson } from "@/components/ui/request";
import { SMALL_BUTTON, type ScreeningTexts } from "./format";

// Deletes a saved strategy; its stored runs stay.
export function DeleteStrategyButton({ t, id, name }: { t: ScreeningTexts; id: string; name: string }) {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function remove() {
    setBusy(true);
    setError(null);
    try {
      await requestJson("DELETE", `/api/v1/screening/strategies/${encodeURIComponent(id)}`);
      router.refresh();
    } catch (failure) {
      setError(fmt(t.deleteFailed, { message: messageOf(failure) }));
      setBusy(false);
    }
  }
  return (
    <span className="ml-1.5 inline-flex items-center gap-1.5">
      <button
        type="button"
        className={SMALL_BUTTON}
        disabled={busy}
        onClick={remove}
        aria-label={`${t.deleteStrategy} ${name}`}
      >
        {t.deleteStrategy}
      </button>
      {error ? (
        <span role="alert" className="text-xs text-red-700 dark:text-red-300">
          {error}
        </span>
      ) : null}
    </span>
  );
}
