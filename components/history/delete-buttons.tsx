"use client";

import { useRouter } from "next/navigation";
import { useState, type ReactNode } from "react";
import { fmt } from "@/components/settings/format";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import type { Dictionary } from "@/lib/i18n/dictionaries/types";
import { deleteRecords, deleteStockRecords, errorText } from "./delete-request";

type Texts = Dictionary["historyUi"];

const BUTTON =
  "inline-flex h-7 items-center rounded-md border border-line bg-surface px-2.5 text-xs font-medium hover:bg-subtle focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-accent";

/** A button that asks before it deletes; `run` does the delete, `done` moves on afterwards. */
function ConfirmedDelete({
  t,
  label,
  ariaLabel,
  title,
  body,
  run,
  done,
}: {
  t: Texts;
  label: string;
  ariaLabel?: string;
  title: string;
  body: ReactNode;
  run: () => Promise<number>;
  done: () => void;
}) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function confirm() {
    setBusy(true);
    setError(null);
    try {
      await run();
      setOpen(false);
      done();
    } catch (failure) {
      setError(fmt(t.deleteFailed, { message: errorText(failure) }));
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <button
        type="button"
        aria-label={ariaLabel}
        onClick={() => {
          setError(null);
          setOpen(true);
        }}
        className={BUTTON}
      >
        {label}
      </button>
      <ConfirmDialog
        open={open}
        title={title}
        confirmLabel={t.confirmDelete}
        cancelLabel={t.cancel}
        busyLabel={t.deleting}
        busy={busy}
        error={error}
        onConfirm={confirm}
        onCancel={() => setOpen(false)}
      >
        {body}
      </ConfirmDialog>
    </>
  );
}

// Deletes every record of one stock (all code variants) and shows the unfiltered history afterwards.
export function DeleteStockButton({ t, code, name, count }: { t: Texts; code: string; name: string; count: number }) {
  const router = useRouter();
  return (
    <ConfirmedDelete
      t={t}
      label={t.deleteStock}
      ariaLabel={fmt(t.deleteStockAria, { name })}
      title={fmt(t.deleteStockTitle, { name })}
      body={fmt(t.deleteStockBody, { name, code, count })}
      run={() => deleteStockRecords(code)}
      done={() => {
        router.push("/history");
        router.refresh();
      }}
    />
  );
}

// Deletes the open report and goes back to the list.
export function DeleteRecordButton({ t, id }: { t: Texts; id: number }) {
  const router = useRouter();
  return (
    <ConfirmedDelete
      t={t}
      label={t.deleteRecord}
      title={t.deleteRecordTitle}
      body={t.deleteRecordBody}
      run={() => deleteRecords([id])}
      done={() => {
        router.push("/history");
        router.refresh();
      }}
    />
  );
}
