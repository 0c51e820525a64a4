import { fmt } from "@/components/settings/format";
import type { Dictionary } from "@/lib/i18n/dictionaries/types";

// The auth endpoints' error answers (docs/api.md §2) as localised sentences.

export type AuthErrorTexts = Dictionary["auth"]["errors"];

export interface ApiFailure {
  status: number;
  code: string;
  message: string;
  body: Record<string, unknown>;
  retryAfter?: number;
}

/** Reads an error response; a body that is not JSON still gives the status. */
export async function readFailure(res: Response): Promise<ApiFailure> {
  let body: Record<string, unknown> = {};
  try {
    const parsed: unknown = await res.json();
    if (parsed && typeof parsed === "object") body = parsed as Record<string, unknown>;
  } catch {
    body = {};
  }
  const header = Number(res.headers.get("retry-after"));
  const fromBody = typeof body.retry_after === "number" ? body.retry_after : undefined;
  return {
    status: res.status,
    code: typeof body.error === "string" ? body.error : `http_${res.status}`,
    message: typeof body.message === "string" ? body.message : res.statusText || `HTTP ${res.status}`,
    body,
    retryAfter: fromBody ?? (Number.isFinite(header) && header > 0 ? header : undefined),
  };
}

/**
 * `proof`: which password a wrong-password answer is about: the one being logged in with, or the current
 * password that a change or an auth switch has to prove.
 */
export function authErrorMessage(t: AuthErrorTexts, failure: ApiFailure, proof: "login" | "current" = "login"): string {
  switch (failure.code) {
    case "invalid_password":
      if (failure.status === 401 || /current|wrong/i.test(failure.message))
        return proof === "current" ? t.wrongCurrentPassword : t.wrongPassword;
      return t.tooShort;
    case "rate_limited":
      return fmt(t.rateLimited, { seconds: failure.retryAfter ?? 300 });
    case "password_mismatch":
      return t.mismatch;
    case "password_required":
      return t.required;
    case "current_required":
      return t.currentRequired;
    case "auth_disabled":
      return t.authDisabled;
    case "not_changeable":
      return t.notChangeable;
    case "conflict":
      return t.conflict;
    case "unauthorized":
      return t.sessionExpired;
    case "forbidden":
      return t.forbidden;
    default:
      return fmt(t.unknown, { message: failure.message });
  }
}

/** POST JSON to a same-site API path; network failures come back as a failure record, not a throw. */
export async function postJson(
  path: string,
  body?: unknown,
  init: RequestInit = {},
): Promise<{ ok: true; res: Response } | { ok: false; failure: ApiFailure | null }> {
  let res: Response;
  try {
    res = await fetch(path, {
      method: "POST",
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: "same-origin",
      ...init,
    });
  } catch {
    return { ok: false, failure: null };
  }
  if (res.ok) return { ok: true, res };
  return { ok: false, failure: await readFailure(res) };
}
