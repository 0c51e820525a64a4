"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { readFailure } from "@/components/auth/api-errors";
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
    const res = await fetch(`/api/v1/backtests/${encodeURIComponent(id)}`, {
      method: "DELETE",
      credentials: "same-origin",
    });
    setBusy(false);
    if (!res.ok) {
      setError((await readFailure(res)).message);
      return;
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
