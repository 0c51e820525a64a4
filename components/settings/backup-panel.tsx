"use client";

import { useRef, useState, type ChangeEvent } from "react";
import { readFailure } from "@/components/auth/api-errors";
import { BUTTON_SECONDARY, FormMessage } from "@/components/auth/password-input";
import { Panel } from "@/components/ui/panel";
import { fmt } from "./format";
import type { SettingsTexts } from "./types";

type BackupPanelProps = {
  t: SettingsTexts;
  /** Admin auth is on (the export and import endpoints answer 403 otherwise). */
  allowed: boolean;
  busy: boolean;
  onImport: (content: string) => Promise<void>;
};

function backupFileName(): string {
  const d = new Date();
  const pad = (n: number) => String(n).padStart(2, "0");
  return `dsa-config-${d.getFullYear()}${pad(d.getMonth() + 1)}${pad(d.getDate())}-${pad(d.getHours())}${pad(d.getMinutes())}.env`;
}

// Export downloads the saved env file; Import merges a backup into it (the editor handles the answer).
export function BackupPanel({ t, allowed, busy, onImport }: BackupPanelProps) {
  const fileInput = useRef<HTMLInputElement>(null);
  const [message, setMessage] = useState<{ tone: "error" | "success"; text: string } | null>(null);

  async function exportFile() {
    setMessage(null);
    let res: Response;
    try {
      res = await fetch("/api/v1/system/config/export", { credentials: "same-origin", cache: "no-store" });
    } catch {
      return setMessage({ tone: "error", text: fmt(t.loadFailed, { message: "network error" }) });
    }
    if (!res.ok)
      return setMessage({ tone: "error", text: fmt(t.loadFailed, { message: (await readFailure(res)).message }) });
    const { content } = (await res.json()) as { content: string };
    const url = URL.createObjectURL(new Blob([content], { type: "text/plain;charset=utf-8" }));
    const link = document.createElement("a");
    link.href = url;
    link.download = backupFileName();
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
    setMessage({ tone: "success", text: t.exported });
  }

  async function importFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = "";
    if (!file) return;
    setMessage(null);
    await onImport(await file.text());
  }

  return (
    <Panel className="px-4 py-3">
      <h2 className="text-sm font-semibold">{t.backupTitle}</h2>
      <p className="mt-1 text-xs leading-5 text-muted">{t.backupBody}</p>
      <div className="mt-3 flex flex-wrap gap-2">
        <button
          type="button"
          className={BUTTON_SECONDARY}
          disabled={!allowed || busy}
          aria-describedby={allowed ? undefined : "backup-disabled"}
          onClick={exportFile}
        >
          {t.exportButton}
        </button>
        <button
          type="button"
          className={BUTTON_SECONDARY}
          disabled={!allowed || busy}
          aria-describedby={allowed ? undefined : "backup-disabled"}
          onClick={() => fileInput.current?.click()}
        >
          {t.importButton}
        </button>
        <input
          ref={fileInput}
          type="file"
          accept=".env,.txt,text/plain"
          className="hidden"
          data-testid="import-file"
          onChange={importFile}
        />
      </div>
      {!allowed && (
        <p id="backup-disabled" className="mt-2 text-xs leading-5 text-amber-700 dark:text-amber-400">
          {t.backupDisabled}
        </p>
      )}
      {message && (
        <div className="mt-2">
          <FormMessage tone={message.tone}>{message.text}</FormMessage>
        </div>
      )}
    </Panel>
  );
}
