"use client";

import { useId, useState, type FormEvent } from "react";
import { readFailure } from "@/components/auth/api-errors";
import { BUTTON_PRIMARY, BUTTON_SECONDARY, FIELD_INPUT, FormMessage } from "@/components/auth/password-input";
import { useFormatTime } from "@/components/shell/time-zone";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Panel } from "@/components/ui/panel";
import type { ApiTokenView } from "@/lib/auth/api-tokens";
import type { Dictionary } from "@/lib/i18n/dictionaries/types";
import { fmt } from "./format";

type TokenTexts = Dictionary["tokensUi"];
type Message = { tone: "error" | "success"; text: string } | null;

async function failureText(res: Response | null): Promise<string> {
  if (!res) return "network error";
  return (await readFailure(res)).message;
}

// API tokens for scripts. The secret comes back from the create call only, so the dialog that
// shows it is the one chance to copy it; the list shows the prefix to tell tokens apart.
export function TokensPanel({
  t,
  initial,
  authEnabled,
}: {
  t: TokenTexts;
  initial: ApiTokenView[];
  authEnabled: boolean;
}) {
  const [items, setItems] = useState(initial);
  const formatTime = useFormatTime();
  // The day in the display zone, not the UTC day of the ISO string.
  const day = (iso: string | null, never: string) => (iso ? formatTime(iso, { style: "date" }) : never);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<Message>(null);
  const [created, setCreated] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  const [revoking, setRevoking] = useState<ApiTokenView | null>(null);
  const [revokeBusy, setRevokeBusy] = useState(false);
  const [revokeError, setRevokeError] = useState<string | null>(null);
  const ids = useId();

  async function reload() {
    const res = await fetch("/api/v1/auth/tokens", { cache: "no-store" });
    if (res.ok) setItems(((await res.json()) as { items: ApiTokenView[] }).items);
  }

  async function create(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const days = String(data.get("expires") ?? "").trim();
    const body = {
      name: String(data.get("name") ?? "").trim(),
      scope: String(data.get("scope")),
      ...(days ? { expires_in_days: Number(days) } : {}),
    };
    if (!body.name) {
      setMessage({ tone: "error", text: t.nameRequired });
      return;
    }
    setBusy(true);
    setMessage(null);
    const res = await fetch("/api/v1/auth/tokens", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
      credentials: "same-origin",
    }).catch(() => null);
    if (res?.ok) {
      setCopied(false);
      setCreated(((await res.json()) as { token: string }).token);
      form.reset();
      await reload();
    } else {
      setMessage({ tone: "error", text: fmt(t.createFailed, { message: await failureText(res) }) });
    }
    setBusy(false);
  }

  async function copy() {
    if (!created) return;
    await navigator.clipboard?.writeText(created).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  }

  async function revoke() {
    if (!revoking) return;
    setRevokeBusy(true);
    setRevokeError(null);
    const res = await fetch(`/api/v1/auth/tokens/${encodeURIComponent(revoking.id)}`, {
      method: "DELETE",
      credentials: "same-origin",
    }).catch(() => null);
    if (res?.ok || res?.status === 404) {
      setMessage({ tone: "success", text: fmt(t.revoked, { name: revoking.name }) });
      setRevoking(null);
      await reload();
    } else {
      setRevokeError(fmt(t.revokeFailed, { message: await failureText(res) }));
    }
    setRevokeBusy(false);
  }

  return (
    <Panel className="flex min-w-0 flex-col gap-2 px-4 py-3">
      <h2 id="api-tokens" className="text-sm font-semibold">
        {t.title}
      </h2>
      <p className="text-xs leading-5 text-muted">{t.intro}</p>
      {!authEnabled && <p className="text-xs leading-5 text-amber-700 dark:text-amber-300">{t.authOff}</p>}

      <form onSubmit={create} className="flex flex-wrap items-end gap-2" aria-label={t.createLabel}>
        <div className="flex min-w-0 flex-1 flex-col gap-1">
          <label htmlFor={`${ids}-name`} className="text-xs font-medium text-muted">
            {t.nameLabel}
          </label>
          <input id={`${ids}-name`} name="name" maxLength={64} className={FIELD_INPUT} autoComplete="off" />
        </div>
        <div className="flex w-28 flex-col gap-1">
          <label htmlFor={`${ids}-scope`} className="text-xs font-medium text-muted">
            {t.scopeLabel}
          </label>
          <select id={`${ids}-scope`} name="scope" defaultValue="read" className={FIELD_INPUT}>
            <option value="read">{t.scopeRead}</option>
            <option value="write">{t.scopeWrite}</option>
          </select>
        </div>
        <div className="flex w-28 flex-col gap-1">
          <label htmlFor={`${ids}-expires`} className="text-xs font-medium text-muted">
            {t.expiresLabel}
          </label>
          <input
            id={`${ids}-expires`}
            name="expires"
            type="number"
            min={1}
            max={3650}
            placeholder={t.expiresPlaceholder}
            className={FIELD_INPUT}
          />
        </div>
        <button type="submit" disabled={busy} className={BUTTON_PRIMARY}>
          {busy ? t.creating : t.create}
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
                <th className="py-1 pr-2 font-medium">{t.colName}</th>
                <th className="py-1 pr-2 font-medium">{t.colScope}</th>
                <th className="py-1 pr-2 font-medium">{t.colPrefix}</th>
                <th className="hidden py-1 pr-2 font-medium sm:table-cell">{t.colExpires}</th>
                <th className="hidden py-1 pr-2 font-medium sm:table-cell">{t.colLastUsed}</th>
                <th className="py-1 font-medium">
                  <span className="sr-only">{t.colAction}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {items.map((item) => (
                <tr key={item.id} data-testid="api-token" className="border-t border-line align-top">
                  <td className="py-1.5 pr-2 font-medium break-all">{item.name}</td>
                  <td className="py-1.5 pr-2">{item.scope === "write" ? t.scopeWrite : t.scopeRead}</td>
                  <td className="py-1.5 pr-2 font-mono">{item.prefix}…</td>
                  <td className="hidden py-1.5 pr-2 font-mono tabular-nums sm:table-cell">
                    {day(item.expires_at, t.never)}
                  </td>
                  <td className="hidden py-1.5 pr-2 font-mono tabular-nums sm:table-cell">
                    {day(item.last_used_at, t.neverUsed)}
                  </td>
                  <td className="py-1 text-right">
                    <button
                      type="button"
                      aria-label={fmt(t.revokeAria, { name: item.name })}
                      className={`${BUTTON_SECONDARY} h-7 px-2 text-xs`}
                      onClick={() => {
                        setRevokeError(null);
                        setRevoking(item);
                      }}
                    >
                      {t.revoke}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      <ConfirmDialog
        open={created !== null}
        title={t.createdTitle}
        tone="default"
        confirmLabel={t.done}
        cancelLabel={t.close}
        onConfirm={() => setCreated(null)}
        onCancel={() => setCreated(null)}
      >
        <p>{t.createdBody}</p>
        <div className="mt-2 flex gap-2">
          <input
            readOnly
            value={created ?? ""}
            aria-label={t.tokenLabel}
            data-testid="new-token"
            className={`${FIELD_INPUT} min-w-0 flex-1 font-mono text-xs`}
            onFocus={(e) => e.currentTarget.select()}
          />
          <button type="button" onClick={copy} className={`${BUTTON_SECONDARY} h-9 px-2 text-xs`}>
            {copied ? t.copied : t.copy}
          </button>
        </div>
      </ConfirmDialog>
      <ConfirmDialog
        open={revoking !== null}
        title={fmt(t.revokeTitle, { name: revoking?.name ?? "" })}
        confirmLabel={t.revoke}
        cancelLabel={t.close}
        busyLabel={t.revoking}
        busy={revokeBusy}
        error={revokeError}
        onConfirm={revoke}
        onCancel={() => setRevoking(null)}
      >
        <p>{t.revokeBody}</p>
      </ConfirmDialog>
    </Panel>
  );
}
