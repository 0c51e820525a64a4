"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { readFailure } from "@/components/auth/api-errors";
import { BUTTON_PRIMARY } from "@/components/auth/password-input";
import { fmt } from "@/components/settings/format";
import type { Dictionary } from "@/lib/i18n/dictionaries/types";

type Texts = Dictionary["setupUi"];

// Offline, the fastest way to a working service: the sample provider, after the user's own CSV files, so a file
// uploaded next is used at once. Saved through the config API like any settings edit.
const OFFLINE_SOURCES = "csv,sample";

export function UseSampleButton({ t }: { t: Texts }) {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [, startRefresh] = useTransition();

  async function switchToSample() {
    setBusy(true);
    setFailure(null);
    try {
      const current = await fetch("/api/v1/system/config", { cache: "no-store", credentials: "same-origin" });
      if (!current.ok) throw await readFailure(current);
      const { config_version } = (await current.json()) as { config_version: string };
      const res = await fetch("/api/v1/system/config", {
        method: "PUT",
        credentials: "same-origin",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ config_version, items: [{ key: "MARKET_DATA_SOURCES", value: OFFLINE_SOURCES }] }),
      });
      if (!res.ok) throw await readFailure(res);
      // The refreshed page is the answer: the banner goes and the checklist marks the sources done.
      startRefresh(() => router.refresh());
    } catch (error) {
      const text = error && typeof error === "object" && "message" in error ? String(error.message) : "network error";
      setFailure(fmt(t.useSampleFailed, { message: text }));
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <button type="button" className={BUTTON_PRIMARY} disabled={busy} onClick={() => void switchToSample()}>
        {busy ? t.usingSample : t.useSample}
      </button>
      {failure ? (
        <p role="status" data-testid="use-sample-failure" className="w-full text-red-700 dark:text-red-300">
          {failure}
        </p>
      ) : null}
    </>
  );
}
