"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { messageOf, requestJson } from "@/components/ui/request";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";

/** DELETE /api/v1/backtests/{id} after a confirmation; the page then shows the remaining runs. */
export function DeleteRunButton({
  id,
  labels,
}: {
  id: string;
  labels: { delete: string; confirm: string; cancel: string };
}) {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function remove() {
    setBusy(true);
    setError(null);
    try {
      await requestJson("DELETE", `/api/v1/backtests/${encodeURIComponent(id)}`);
    } catch (failure) {
      setError(messageOf(failure));
      return;
    } finally {
      setBusy(false);
    }
    setOpen(false);
    router.push("/backtest");
    router.refresh();
  }

  return (
    <>
      <button
        type="button"
        onClick={() => setOpen(true)}
        className="text-xs font-medium text-red-700 hover:underline dark:text-red-300"
        data-testid="backtest-delete"
      >
        {labels.delete}
      </button>
      <ConfirmDialog
        open={open}
        title={labels.confirm}
        confirmLabel={labels.delete}
        cancelLabel={labels.cancel}
        busy={busy}
        error={error}
        onConfirm={remove}
        onCancel={() => setOpen(false)}
      />
    </>
  );
}
