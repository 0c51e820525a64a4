"use client";

import { useId, useState } from "react";
import { formatDateTime } from "@/components/history/format";
import { fmt } from "@/components/settings/format";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { cx } from "@/components/ui/cx";
import type { Dictionary } from "@/lib/i18n/dictionaries/types";
import type { AgentSessionItem } from "./api";

type Texts = Dictionary["chatUi"];

export interface SessionListState {
  items: AgentSessionItem[] | null;
  error: string | null;
}

interface SessionSidebarProps {
  t: Texts;
  list: SessionListState;
  currentId: string | null;
  timeZone: string;
  /** A turn is running: switching, starting and deleting wait for it. */
  locked: boolean;
  onNew: () => void;
  onOpen: (id: string) => void;
  /** Deletes one session; rejects with the message to show. */
  onDelete: (id: string) => Promise<void>;
}

const BUTTON =
  "inline-flex h-7 items-center justify-center rounded-md border border-line bg-surface px-2.5 text-xs font-medium hover:bg-subtle focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-accent disabled:cursor-not-allowed disabled:opacity-60";

// The conversations (GET /agent/chat/sessions, newest first; the title is the first message). On a phone the list
// folds behind a toggle above the conversation, so the page never scrolls sideways.
export function SessionSidebar({ t, list, currentId, timeZone, locked, onNew, onOpen, onDelete }: SessionSidebarProps) {
  const [open, setOpen] = useState(false);
  const [pending, setPending] = useState<AgentSessionItem | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const listId = useId();
  const items = list.items ?? [];

  async function confirmDelete() {
    if (!pending) return;
    setBusy(true);
    setError(null);
    try {
      await onDelete(pending.session_id);
      setPending(null);
    } catch (failure) {
      setError(fmt(t.deleteFailed, { message: failure instanceof Error ? failure.message : String(failure) }));
    } finally {
      setBusy(false);
    }
  }

  return (
    <nav
      aria-label={t.sessionsTitle}
      data-testid="chat-sessions"
      className="min-w-0 rounded-md border border-line bg-surface"
    >
      <div className="flex items-center justify-between gap-2 border-b border-line px-3 py-2">
        <h2 className="hidden text-sm font-semibold md:block">{t.sessionsTitle}</h2>
        <button
          type="button"
          aria-expanded={open}
          aria-controls={listId}
          onClick={() => setOpen((v) => !v)}
          className="inline-flex min-w-0 items-center gap-1 text-sm font-semibold md:hidden"
        >
          <span aria-hidden="true" className={cx("text-muted transition-transform", open ? "rotate-90" : "")}>
            ▸
          </span>
          {fmt(t.sessionsToggle, { count: items.length })}
        </button>
        <button
          type="button"
          onClick={() => {
            setOpen(false);
            onNew();
          }}
          disabled={locked}
          className={cx(BUTTON, "border-accent/40 bg-accent-soft text-accent hover:opacity-90")}
        >
          <span aria-hidden="true" className="mr-1">
            +
          </span>
          {t.newChat}
        </button>
      </div>
      <div id={listId} className={cx(open ? "block" : "hidden", "md:block")}>
        {list.error ? (
          <p role="alert" className="px-3 py-2 text-xs text-red-700 dark:text-red-400">
            {fmt(t.sessionsFailed, { message: list.error })}
          </p>
        ) : list.items === null ? (
          <p className="px-3 py-2 text-xs text-muted">{t.sessionsLoading}</p>
        ) : items.length === 0 ? (
          <p data-testid="chat-sessions-empty" className="px-3 py-2 text-xs text-muted">
            {t.sessionsEmpty}
          </p>
        ) : (
          <ul className="max-h-[60vh] overflow-y-auto py-1 md:max-h-[calc(100dvh-14rem)]">
            {items.map((item) => {
              const current = item.session_id === currentId;
              const title = item.title.trim() || t.untitled;
              const when = item.last_active ?? item.created_at;
              return (
                <li
                  key={item.session_id}
                  data-testid="chat-session"
                  data-session-id={item.session_id}
                  className={cx("group flex items-stretch gap-1 px-1.5", current && "bg-accent-soft")}
                >
                  <button
                    type="button"
                    aria-current={current ? "true" : undefined}
                    disabled={locked && !current}
                    onClick={() => {
                      setOpen(false);
                      onOpen(item.session_id);
                    }}
                    className="min-w-0 flex-1 rounded px-1.5 py-1.5 text-left hover:bg-subtle focus-visible:outline-2 focus-visible:outline-accent disabled:cursor-not-allowed disabled:opacity-60"
                  >
                    <span
                      data-testid="chat-session-title"
                      className={cx("block truncate text-sm", current ? "font-medium text-accent" : "")}
                    >
                      {title}
                    </span>
                    <span className="block truncate text-xs text-muted tabular-nums">
                      {fmt(t.sessionMeta, {
                        count: item.message_count,
                        time: when ? formatDateTime(when, timeZone) : "—",
                      })}
                    </span>
                  </button>
                  <button
                    type="button"
                    aria-label={fmt(t.deleteSession, { title })}
                    title={fmt(t.deleteSession, { title })}
                    disabled={locked}
                    onClick={() => {
                      setError(null);
                      setPending(item);
                    }}
                    className="my-1 inline-flex w-7 shrink-0 items-center justify-center rounded text-muted hover:bg-subtle hover:text-red-700 focus-visible:outline-2 focus-visible:outline-accent disabled:cursor-not-allowed disabled:opacity-40 dark:hover:text-red-400"
                  >
                    <span aria-hidden="true">×</span>
                  </button>
                </li>
              );
            })}
          </ul>
        )}
      </div>
      <ConfirmDialog
        open={pending !== null}
        title={t.deleteTitle}
        confirmLabel={t.deleteConfirm}
        cancelLabel={t.deleteCancel}
        busyLabel={t.deleting}
        busy={busy}
        error={error}
        onConfirm={confirmDelete}
        onCancel={() => setPending(null)}
      >
        {pending ? fmt(t.deleteBody, { title: pending.title.trim() || t.untitled }) : null}
      </ConfirmDialog>
    </nav>
  );
}
