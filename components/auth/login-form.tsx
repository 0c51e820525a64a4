"use client";

import { useState, type FormEvent } from "react";
import type { Dictionary } from "@/lib/i18n/dictionaries/types";
import { authErrorMessage, postJson } from "./api-errors";
import { BUTTON_PRIMARY, FormMessage, PasswordField } from "./password-input";

type LoginFormProps = {
  t: Dictionary["auth"];
  /** No password is stored yet: this form sets it (password + confirmation). */
  setup: boolean;
  /** Already checked on the server to be a same-site relative path. */
  next: string;
};

export function LoginForm({ t, setup, next }: LoginFormProps) {
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(null);
    setBusy(true);
    const result = await postJson("/api/v1/auth/login", setup ? { password, passwordConfirm: confirm } : { password });
    if (result.ok) {
      // A full load, so the header and every server component see the new session.
      window.location.assign(next);
      return;
    }
    setBusy(false);
    setError(result.failure ? authErrorMessage(t.errors, result.failure) : t.errors.network);
  }

  return (
    <form onSubmit={submit} className="flex flex-col gap-3" noValidate>
      <PasswordField
        id="login-password"
        label={t.password}
        name="password"
        autoComplete={setup ? "new-password" : "current-password"}
        autoFocus
        required
        value={password}
        onChange={(e) => setPassword(e.target.value)}
      />
      {setup && (
        <PasswordField
          id="login-password-confirm"
          label={t.passwordConfirm}
          name="passwordConfirm"
          autoComplete="new-password"
          required
          value={confirm}
          onChange={(e) => setConfirm(e.target.value)}
        />
      )}
      {error && <FormMessage tone="error">{error}</FormMessage>}
      <button type="submit" className={BUTTON_PRIMARY} disabled={busy}>
        {busy ? t.submitting : setup ? t.submitSetup : t.submitLogin}
      </button>
    </form>
  );
}
