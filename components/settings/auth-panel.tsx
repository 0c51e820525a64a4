"use client";

import { useState, type FormEvent, type ReactNode } from "react";
import { authErrorMessage, postJson } from "@/components/auth/api-errors";
import { BUTTON_PRIMARY, BUTTON_SECONDARY, FormMessage, PasswordField } from "@/components/auth/password-input";
import { Badge } from "@/components/ui/badge";
import { Panel } from "@/components/ui/panel";
import type { AuthTexts, SettingsTexts } from "./types";

const MIN_PASSWORD_LENGTH = 6;

type AuthPanelProps = {
  t: SettingsTexts;
  tAuth: AuthTexts;
  authEnabled: boolean;
  /** A password is stored (kept while auth is off). */
  hasPassword: boolean;
};

type Message = { tone: "error" | "success"; text: string } | null;

/** Local checks before a new password is sent (the API answers the same codes). */
function newPasswordProblem(tAuth: AuthTexts, password: string, confirm: string): string | null {
  if (password === "") return tAuth.errors.required;
  if (password !== confirm) return tAuth.errors.mismatch;
  if (password.length < MIN_PASSWORD_LENGTH) return tAuth.errors.tooShort;
  return null;
}

function MiniForm({
  title,
  onSubmit,
  children,
  message,
}: {
  title: string;
  onSubmit: (e: FormEvent<HTMLFormElement>) => void;
  children: ReactNode;
  message: Message;
}) {
  return (
    <form onSubmit={onSubmit} noValidate aria-label={title} className="flex flex-col gap-2 border-t border-line pt-3">
      <h3 className="text-xs font-semibold text-muted">{title}</h3>
      {children}
      {message && <FormMessage tone={message.tone}>{message.text}</FormMessage>}
    </form>
  );
}

// Turn admin auth on (first password, or the retained one) or off, and change the password.
export function AuthPanel({ t, tAuth, authEnabled, hasPassword }: AuthPanelProps) {
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [current, setCurrent] = useState("");
  const [switchMessage, setSwitchMessage] = useState<Message>(null);
  const [busy, setBusy] = useState(false);

  const [cpCurrent, setCpCurrent] = useState("");
  const [cpNew, setCpNew] = useState("");
  const [cpConfirm, setCpConfirm] = useState("");
  const [cpMessage, setCpMessage] = useState<Message>(null);

  async function toggle(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const enabling = !authEnabled;
    const firstPassword = enabling && !hasPassword;
    if (firstPassword) {
      const problem = newPasswordProblem(tAuth, password, confirm);
      if (problem) return setSwitchMessage({ tone: "error", text: problem });
    } else if (current === "") {
      return setSwitchMessage({ tone: "error", text: tAuth.errors.currentRequired });
    }
    setBusy(true);
    setSwitchMessage(null);
    const body = firstPassword
      ? { authEnabled: true, password, passwordConfirm: confirm }
      : { authEnabled: enabling, currentPassword: current };
    const result = await postJson("/api/v1/auth/settings", body);
    if (result.ok) {
      // The header's login state and the proxy's gate change with it: load the page afresh.
      window.location.reload();
      return;
    }
    setBusy(false);
    setSwitchMessage({
      tone: "error",
      text: result.failure
        ? authErrorMessage(tAuth.errors, result.failure, firstPassword ? "login" : "current")
        : tAuth.errors.network,
    });
  }

  async function changePassword(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (cpCurrent === "") return setCpMessage({ tone: "error", text: tAuth.errors.currentRequired });
    const problem = newPasswordProblem(tAuth, cpNew, cpConfirm);
    if (problem) return setCpMessage({ tone: "error", text: problem });
    setBusy(true);
    setCpMessage(null);
    const result = await postJson("/api/v1/auth/change-password", {
      currentPassword: cpCurrent,
      newPassword: cpNew,
      newPasswordConfirm: cpConfirm,
    });
    setBusy(false);
    if (result.ok) {
      setCpCurrent("");
      setCpNew("");
      setCpConfirm("");
      return setCpMessage({ tone: "success", text: t.passwordChanged });
    }
    setCpMessage({
      tone: "error",
      text: result.failure ? authErrorMessage(tAuth.errors, result.failure, "current") : tAuth.errors.network,
    });
  }

  return (
    <Panel className="flex flex-col gap-3 px-4 py-3">
      <div id="admin-auth" className="scroll-mt-24">
        <div className="flex items-center gap-2">
          <h2 className="text-sm font-semibold">{t.authTitle}</h2>
          <Badge tone={authEnabled ? "accent" : "neutral"}>{authEnabled ? t.authOn : t.authOff}</Badge>
        </div>
        <p className="mt-1 text-xs leading-5 text-muted">{authEnabled ? t.authOnBody : t.authOffBody}</p>
      </div>

      <MiniForm title={authEnabled ? t.disableAuth : t.enableAuth} onSubmit={toggle} message={switchMessage}>
        <p className="text-xs leading-5 text-muted">
          {authEnabled ? t.disableAuthBody : hasPassword ? t.authRetained : t.authSetFirst}
        </p>
        {!authEnabled && !hasPassword ? (
          <div className="grid gap-2 sm:grid-cols-2">
            <PasswordField
              id="auth-new"
              label={t.newPassword}
              autoComplete="new-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
            <PasswordField
              id="auth-confirm"
              label={t.confirmNewPassword}
              autoComplete="new-password"
              value={confirm}
              onChange={(e) => setConfirm(e.target.value)}
            />
          </div>
        ) : (
          <PasswordField
            id="auth-current"
            label={t.currentPassword}
            autoComplete="current-password"
            value={current}
            onChange={(e) => setCurrent(e.target.value)}
          />
        )}
        <button
          type="submit"
          disabled={busy}
          className={authEnabled ? `${BUTTON_SECONDARY} self-start` : `${BUTTON_PRIMARY} self-start`}
        >
          {authEnabled ? t.disableAuth : t.enableAuth}
        </button>
      </MiniForm>

      {authEnabled && hasPassword && (
        <MiniForm title={t.changePassword} onSubmit={changePassword} message={cpMessage}>
          <PasswordField
            id="cp-current"
            label={t.currentPassword}
            autoComplete="current-password"
            value={cpCurrent}
            onChange={(e) => setCpCurrent(e.target.value)}
          />
          <div className="grid gap-2 sm:grid-cols-2">
            <PasswordField
              id="cp-new"
              label={t.newPassword}
              autoComplete="new-password"
              value={cpNew}
              onChange={(e) => setCpNew(e.target.value)}
            />
            <PasswordField
              id="cp-confirm"
              label={t.confirmNewPassword}
              autoComplete="new-password"
              value={cpConfirm}
              onChange={(e) => setCpConfirm(e.target.value)}
            />
          </div>
          <button type="submit" disabled={busy} className={`${BUTTON_SECONDARY} self-start`}>
            {t.changePassword}
          </button>
        </MiniForm>
      )}
    </Panel>
  );
}
