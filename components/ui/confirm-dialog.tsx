"use client";

import { useEffect, useId, useRef, type ReactNode } from "react";
import { cx } from "./cx";

// A modal confirmation built on the native <dialog> (focus trap, Escape, inert page come with it).
// The caller owns `open`; closing by Escape or the backdrop calls onCancel unless the action is running.

export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  children?: ReactNode;
  confirmLabel: string;
  cancelLabel: string;
  busyLabel?: string;
  busy?: boolean;
  error?: string | null;
  tone?: "danger" | "default";
  onConfirm: () => void;
  onCancel: () => void;
}

export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  cancelLabel,
  busyLabel,
  busy = false,
  error,
  tone = "danger",
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        if (!busy) onCancel();
      }}
      onClick={(event) => {
        // A click on the backdrop lands on the <dialog> element itself.
        if (event.target === event.currentTarget && !busy) onCancel();
      }}
      className="m-auto w-[min(28rem,calc(100vw-2rem))] rounded-md border border-line bg-surface p-0 text-fg shadow-xl backdrop:bg-black/40"
    >
      <div className="px-4 pt-4 pb-3">
        <h2 id={titleId} className="text-base font-semibold">
          {title}
        </h2>
        {children ? <div className="mt-2 text-sm leading-6 text-muted">{children}</div> : null}
        {error ? (
          <p role="alert" className="mt-2 text-sm font-medium text-amber-700 dark:text-amber-400">
            {error}
          </p>
        ) : null}
      </div>
      <div className="flex justify-end gap-2 border-t border-line bg-subtle px-4 py-2.5">
        <button
          type="button"
          onClick={onCancel}
          disabled={busy}
          className="inline-flex h-8 items-center rounded-md border border-line bg-surface px-3 text-sm font-medium hover:bg-subtle focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-accent disabled:opacity-60"
        >
          {cancelLabel}
        </button>
        <button
          type="button"
          onClick={onConfirm}
          disabled={busy}
          autoFocus
          className={cx(
            "inline-flex h-8 items-center rounded-md px-3 text-sm font-semibold focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-accent disabled:cursor-progress disabled:opacity-70",
            tone === "danger" ? "bg-fg text-canvas hover:bg-fg/85" : "bg-accent text-accent-fg hover:bg-accent/90",
          )}
        >
          {busy ? (busyLabel ?? confirmLabel) : confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
