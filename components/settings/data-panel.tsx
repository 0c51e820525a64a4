"use client";

import { useId, useRef, useState, type FormEvent } from "react";
import { readFailure } from "@/components/auth/api-errors";
import { BUTTON_PRIMARY, BUTTON_SECONDARY, FIELD_INPUT, FormMessage } from "@/components/auth/password-input";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Panel } from "@/components/ui/panel";
import type { TCsvDataFile } from "@/lib/data/schemas";
import type { Dictionary } from "@/lib/i18n/dictionaries/types";
import { dataReasonText, reasonOfBody } from "./data-reason";
import { fmt } from "./format";

type DataTexts = Dictionary["dataUi"];
type Rejections = Dictionary["analyzeUi"]["rejectionReasons"];
type Message = { tone: "error" | "success"; text: string } | null;

function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** Why a request failed, in the UI language when the API gave a reason code. */
async function failureText(t: DataTexts, rejections: Rejections, res: Response | null): Promise<string> {
  if (!res) return t.networkError;
  const failure = await readFailure(res);
  return dataReasonText(t, rejections, reasonOfBody(failure.message, failure.body));
}

// The csv data source's folder: upload a file for a code (checked whole by the server before it is
// stored), see what each file holds, remove one. The format and limits are the API's (lib/data).
export function DataPanel({
  t,
  rejections,
  initial,
  sources,
  folder,
}: {
  t: DataTexts;
  /** The resolver's reasons (the Analyze page's words), for a code that does not resolve. */
  rejections: Rejections;
  initial: TCsvDataFile[];
  sources: string[];
  folder: string;
}) {
  const [items, setItems] = useState(initial);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<Message>(null);
  const [removing, setRemoving] = useState<TCsvDataFile | null>(null);
  const [removeBusy, setRemoveBusy] = useState(false);
  const [removeError, setRemoveError] = useState<string | null>(null);
  const form = useRef<HTMLFormElement>(null);
  const ids = useId();

  async function reload() {
    const res = await fetch("/api/v1/data/csv", { cache: "no-store" });
    if (res.ok) setItems(((await res.json()) as { items: TCsvDataFile[] }).items);
  }

  async function upload(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const file = data.get("file");
    if (!String(data.get("code") ?? "").trim() || !(file instanceof File) || file.size === 0) {
      setMessage({ tone: "error", text: t.missingInput });
      return;
    }
    setBusy(true);
    setMessage(null);
    const res = await fetch("/api/v1/data/csv", { method: "POST", body: data, credentials: "same-origin" }).catch(
      () => null,
    );
    if (res?.ok) {
      const item = (await res.json()) as TCsvDataFile;
      setMessage({
        tone: "success",
        text: fmt(t.uploaded, {
          file: item.file,
          rows: item.rows ?? 0,
          from: item.first_date ?? "—",
          to: item.last_date ?? "—",
        }),
      });
      form.current?.reset();
      await reload();
    } else {
      setMessage({ tone: "error", text: fmt(t.uploadFailed, { message: await failureText(t, rejections, res) }) });
    }
    setBusy(false);
  }

  async function remove() {
    if (!removing) return;
    setRemoveBusy(true);
    setRemoveError(null);
    const res = await fetch(`/api/v1/data/csv/${encodeURIComponent(removing.code)}`, {
      method: "DELETE",
      credentials: "same-origin",
    }).catch(() => null);
    if (res?.ok || res?.status === 404) {
      setMessage({ tone: "success", text: fmt(t.removed, { file: removing.file }) });
      setRemoving(null);
      await reload();
    } else {
      setRemoveError(fmt(t.removeFailed, { message: await failureText(t, rejections, res) }));
    }
    setRemoveBusy(false);
  }

  return (
    <Panel className="flex min-w-0 flex-col gap-2 px-4 py-3">
      <h2 id="data-files" className="text-sm font-semibold">
        {t.title}
      </h2>
      <p className="text-xs leading-5 text-muted">{t.intro}</p>
      <p className="text-xs leading-5 text-muted">{t.format}</p>
      {!sources.includes("csv") && (
        <p className="text-xs leading-5 text-amber-700 dark:text-amber-300">
          {fmt(t.notInChain, { sources: sources.join(",") })}
        </p>
      )}
      <p className="truncate text-xs text-muted" title={folder}>
        {/* Only the path in the monospace face: it has no CJK glyphs for the label. */}
        {t.folder.split("{dir}")[0]}
        <span className="font-mono">{folder}</span>
        {t.folder.split("{dir}")[1]}
      </p>

      <form ref={form} onSubmit={upload} className="flex flex-wrap items-end gap-2" aria-label={t.title}>
        <div className="flex w-32 flex-col gap-1">
          <label htmlFor={`${ids}-code`} className="text-xs font-medium text-muted">
            {t.codeLabel}
          </label>
          <input
            id={`${ids}-code`}
            name="code"
            className={FIELD_INPUT}
            placeholder={t.codePlaceholder}
            autoComplete="off"
          />
        </div>
        <div className="flex min-w-0 flex-1 flex-col gap-1">
          <label htmlFor={`${ids}-file`} className="text-xs font-medium text-muted">
            {t.fileLabel}
          </label>
          <input
            id={`${ids}-file`}
            name="file"
            type="file"
            accept=".csv,text/csv"
            className="min-w-0 text-xs file:mr-2 file:rounded file:border file:border-line file:bg-surface file:px-2 file:py-1 file:text-xs"
          />
        </div>
        <button type="submit" disabled={busy} className={BUTTON_PRIMARY}>
          {busy ? t.uploading : t.upload}
        </button>
      </form>
      {message && <FormMessage tone={message.tone}>{message.text}</FormMessage>}

      {items.length === 0 ? (
        <p className="text-xs text-muted">{t.none}</p>
      ) : (
        <div className="overflow-x-auto">
          <table aria-label={t.listLabel} className="w-full text-xs">
            <thead>
              <tr className="text-left text-muted">
                <th className="py-1 pr-2 font-medium">{t.colCode}</th>
                <th className="py-1 pr-2 text-right font-medium">{t.colRows}</th>
                <th className="py-1 pr-2 font-medium">{t.colRange}</th>
                <th className="hidden py-1 pr-2 text-right font-medium sm:table-cell">{t.colSize}</th>
                <th className="py-1 font-medium">
                  <span className="sr-only">{t.colAction}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {items.map((item) => (
                <tr key={item.file} data-testid="data-file" className="border-t border-line align-top">
                  <td className="py-1.5 pr-2 font-mono font-medium">{item.code}</td>
                  <td className="py-1.5 pr-2 text-right font-mono tabular-nums">{item.rows ?? "—"}</td>
                  <td className="py-1.5 pr-2">
                    {item.error ? (
                      <span className="flex flex-col gap-0.5">
                        <span className="font-medium text-red-700 dark:text-red-300">{t.invalid}</span>
                        <span className="break-words text-red-700 dark:text-red-300">
                          {dataReasonText(t, rejections, {
                            message: item.error,
                            code: item.error_code,
                            params: item.error_params,
                          })}
                        </span>
                      </span>
                    ) : (
                      // Two unbreakable halves, so a phone wraps the range between the dates, never inside one.
                      <span className="font-mono tabular-nums">
                        <span className="whitespace-nowrap">{item.first_date} –</span>{" "}
                        <span className="whitespace-nowrap">{item.last_date}</span>
                      </span>
                    )}
                  </td>
                  <td className="hidden py-1.5 pr-2 text-right font-mono whitespace-nowrap tabular-nums sm:table-cell">
                    {sizeText(item.size_bytes)}
                  </td>
                  <td className="py-1 text-right">
                    <button
                      type="button"
                      aria-label={fmt(t.removeAria, { code: item.code })}
                      className={`${BUTTON_SECONDARY} h-7 px-2 text-xs`}
                      onClick={() => {
                        setRemoveError(null);
                        setRemoving(item);
                      }}
                    >
                      {t.remove}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <ConfirmDialog
        open={removing !== null}
        title={fmt(t.removeTitle, { file: removing?.file ?? "" })}
        confirmLabel={t.remove}
        cancelLabel={t.cancel}
        busyLabel={t.removing}
        busy={removeBusy}
        error={removeError}
        onConfirm={remove}
        onCancel={() => setRemoving(null)}
      >
        <p>{fmt(t.removeBody, { code: removing?.code ?? "" })}</p>
      </ConfirmDialog>
    </Panel>
  );
}
