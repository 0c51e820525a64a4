"use client";

import { useRouter } from "next/navigation";
import { useRef, useState, useTransition, type ChangeEvent } from "react";
import { ERROR_TEXT, FIELD, LABEL, PRIMARY_BUTTON, SMALL_BUTTON, TD, TH } from "@/components/alerts/format";
import { RequestError } from "@/components/ui/request";
import { readFailure } from "@/components/auth/api-errors";
import { fmt } from "@/components/settings/format";
import { cx } from "@/components/ui/cx";
import type { TImportCommit, TImportParse } from "@/lib/portfolio/import-schemas";
import { money, price, quantity, type PortfolioTexts } from "./format";

// Broker CSV import (docs/api.md §12.1.7-9), as the reference's page does it: pick the broker format and the export,
// preview (POST /imports/csv/parse, then /commit with dry_run=true for what would go in), then import (/commit).

type Broker = { broker: string; display_name: string };
type Status = { error: boolean; text: string } | null;
const PREVIEW_ROWS = 50;

async function postForm<T>(url: string, fields: Record<string, string | File>): Promise<T> {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  let res: Response;
  try {
    res = await fetch(url, {
      method: "POST",
      body: form,
      credentials: "same-origin",
      cache: "no-store",
      headers: { accept: "application/json" },
    });
  } catch (error) {
    throw new RequestError((error as Error).message || "network error", 0, "network_error");
  }
  if (!res.ok) {
    const failure = await readFailure(res);
    throw new RequestError(failure.message, failure.status, failure.code);
  }
  return (await res.json()) as T;
}

export function BrokerImportForm({
  t,
  accountId,
  brokers,
}: {
  t: PortfolioTexts;
  accountId: number;
  brokers: Broker[];
}) {
  const router = useRouter();
  const [, startTransition] = useTransition();
  const [broker, setBroker] = useState(brokers[0]?.broker ?? "generic");
  const [file, setFile] = useState<File | null>(null);
  const [csv, setCsv] = useState("");
  const [busy, setBusy] = useState<"preview" | "import" | null>(null);
  const [status, setStatus] = useState<Status>(null);
  const [preview, setPreview] = useState<{ parsed: TImportParse; dry: TImportCommit } | null>(null);
  const fileRef = useRef<HTMLInputElement>(null);

  // A chosen file goes as it is (a GBK export stays GBK); pasted text goes as a UTF-8 file.
  const upload = (): File | null => file ?? (csv.trim() ? new File([csv], "pasted.csv", { type: "text/csv" }) : null);

  async function chooseFile(event: ChangeEvent<HTMLInputElement>) {
    const chosen = event.target.files?.[0] ?? null;
    setStatus(null);
    setPreview(null);
    setFile(chosen);
    setCsv(chosen ? await chosen.text() : "");
  }

  async function run(kind: "preview" | "import") {
    const body = upload();
    setStatus(null);
    if (!body) return setStatus({ error: true, text: t.importEmpty });
    setBusy(kind);
    try {
      if (kind === "preview") {
        const parsed = await postForm<TImportParse>("/api/v1/portfolio/imports/csv/parse", { broker, file: body });
        const dry = await postForm<TImportCommit>("/api/v1/portfolio/imports/csv/commit", {
          account_id: String(accountId),
          broker,
          dry_run: "true",
          file: body,
        });
        setPreview({ parsed, dry });
      } else {
        const done = await postForm<TImportCommit>("/api/v1/portfolio/imports/csv/commit", {
          account_id: String(accountId),
          broker,
          dry_run: "false",
          file: body,
        });
        setStatus({
          error: done.failed_count > 0,
          text: fmt(t.importDone, {
            inserted: done.inserted_count,
            duplicates: done.duplicate_count,
            failed: done.failed_count,
          }),
        });
        setPreview(null);
        setFile(null);
        setCsv("");
        if (fileRef.current) fileRef.current.value = "";
        startTransition(() => router.refresh());
      }
    } catch (failure) {
      setStatus({ error: true, text: fmt(t.importRejected, { message: (failure as Error).message }) });
    } finally {
      setBusy(null);
    }
  }

  return (
    <form onSubmit={(e) => e.preventDefault()} aria-label={t.importTitle} noValidate className="space-y-2 px-3 py-3">
      <p className="text-xs leading-5 text-muted">{t.importHint}</p>
      <div className="grid grid-cols-1 items-end gap-2 sm:grid-cols-[12rem_minmax(0,1fr)]">
        <label className={LABEL}>
          {t.importBroker}
          <select value={broker} onChange={(e) => setBroker(e.target.value)} className={FIELD}>
            {brokers.map((b) => (
              <option key={b.broker} value={b.broker}>
                {b.display_name}
              </option>
            ))}
          </select>
        </label>
        <label className={LABEL}>
          {t.importFile}
          <input
            ref={fileRef}
            type="file"
            accept=".csv,.txt,text/csv,text/plain"
            onChange={chooseFile}
            className="text-sm text-fg file:mr-2 file:h-7 file:rounded-md file:border file:border-line file:bg-surface file:px-2 file:text-xs file:font-medium"
          />
        </label>
      </div>
      <label className={LABEL}>
        {t.importText}
        <textarea
          value={csv}
          onChange={(e) => {
            setCsv(e.target.value);
            setFile(null);
            setPreview(null);
          }}
          rows={4}
          spellCheck={false}
          placeholder={"date,side,symbol,quantity,price,fee,tax,trade_uid\n2025-01-06,buy,600519,100,1500,5,0,T-1"}
          className="w-full min-w-0 rounded-md border border-line bg-surface px-2 py-1.5 font-mono text-xs text-fg focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-accent"
        />
      </label>
      <div className="flex justify-end gap-2">
        <button type="button" onClick={() => run("preview")} disabled={busy !== null} className={SMALL_BUTTON}>
          {busy === "preview" ? t.importPreviewing : t.importPreview}
        </button>
        <button type="button" onClick={() => run("import")} disabled={busy !== null} className={PRIMARY_BUTTON}>
          {busy === "import" ? t.importing : t.importButton}
        </button>
      </div>
      {status ? (
        <p
          role={status.error ? "alert" : "status"}
          className={status.error ? `${ERROR_TEXT} break-words` : "text-sm text-muted"}
        >
          {status.text}
        </p>
      ) : null}
      {preview ? <ImportPreview t={t} parsed={preview.parsed} dry={preview.dry} /> : null}
    </form>
  );
}

function ImportPreview({ t, parsed, dry }: { t: PortfolioTexts; parsed: TImportParse; dry: TImportCommit }) {
  const warn = parsed.error_count > 0 || parsed.skipped_count > 0 || dry.failed_count > 0 || dry.duplicate_count > 0;
  const shown = parsed.records.slice(0, PREVIEW_ROWS);
  return (
    <div className="space-y-2 rounded-md border border-line" data-testid="import-preview">
      <div
        className={cx(
          "space-y-0.5 px-2.5 pt-2 text-sm tabular-nums",
          warn ? "text-amber-700 dark:text-amber-400" : "text-muted",
        )}
      >
        <p data-testid="import-parse-summary">
          {fmt(t.previewSummary, {
            records: parsed.record_count,
            skipped: parsed.skipped_count,
            errors: parsed.error_count,
          })}
        </p>
        <p data-testid="import-dry-summary">
          {fmt(t.dryRunSummary, {
            inserted: dry.inserted_count,
            duplicates: dry.duplicate_count,
            failed: dry.failed_count,
          })}
        </p>
      </div>
      {dry.errors.length > 0 ? (
        <div className="px-2.5">
          <p className="text-xs font-semibold text-muted">{t.importErrors}</p>
          <ul
            className="list-disc pl-4 text-xs break-words text-amber-700 dark:text-amber-400"
            data-testid="import-errors"
          >
            {dry.errors.map((e) => (
              <li key={e}>{e}</li>
            ))}
          </ul>
        </div>
      ) : null}
      {shown.length > 0 ? (
        <div className="overflow-x-auto border-t border-line">
          <table className="w-full min-w-[36rem] text-xs" data-testid="import-records">
            <thead className="bg-subtle">
              <tr>
                <th scope="col" className={TH}>
                  {t.colDate}
                </th>
                <th scope="col" className={TH}>
                  {t.colSide}
                </th>
                <th scope="col" className={TH}>
                  {t.colCode}
                </th>
                <th scope="col" className={cx(TH, "text-right")}>
                  {t.colQuantity}
                </th>
                <th scope="col" className={cx(TH, "text-right")}>
                  {t.colPrice}
                </th>
                <th scope="col" className={cx(TH, "text-right")}>
                  {t.colFee}
                </th>
                <th scope="col" className={cx(TH, "text-right")}>
                  {t.colTax}
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-line">
              {shown.map((r) => (
                <tr key={r.dedup_hash} data-testid="import-record" data-line={r.line_number}>
                  <td className={cx(TD, "tabular-nums whitespace-nowrap")}>{r.trade_date}</td>
                  <td className={TD}>{t.sides[r.side]}</td>
                  <td className={cx(TD, "tabular-nums")}>{r.symbol}</td>
                  <td className={cx(TD, "text-right tabular-nums")}>{quantity(r.quantity)}</td>
                  <td className={cx(TD, "text-right tabular-nums")}>{price(r.price)}</td>
                  <td className={cx(TD, "text-right tabular-nums")}>{money(r.fee)}</td>
                  <td className={cx(TD, "text-right tabular-nums")}>{money(r.tax)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {parsed.records.length > shown.length ? (
            <p className="px-2.5 py-1 text-xs text-muted">
              {fmt(t.previewMore, { count: parsed.records.length - shown.length })}
            </p>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
