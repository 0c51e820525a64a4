import { updateEnvFile } from "@/lib/config/env-store";
import { getSettings } from "@/lib/settings/settings";
import { ApiError } from "@/lib/errors/api-error";
import { requireSameOrigin } from "./guard";
import { clientKey, loginFailed, loginSucceeded, takeLoginAttempt } from "./login-rate-limit";
import { hashPassword, MIN_PASSWORD_LENGTH, verifyPassword } from "./password";
import { storedPasswordHash, storeFirstPasswordHash, storePasswordHash } from "./password-store";
import type { TAuthSettingsRequest, TAuthStatus, TChangePasswordRequest, TLoginRequest } from "./schemas";
import { createSession, revokeOtherSessions, revokeSession, sessionOf } from "./session";

export async function authStatus(req: Request): Promise<TAuthStatus> {
  const enabled = getSettings().ADMIN_AUTH_ENABLED;
  const hasPassword = (await storedPasswordHash()) !== null;
  const loggedIn = enabled && (await sessionOf(req)) !== null;
  return {
    authEnabled: enabled,
    loggedIn,
    passwordSet: enabled && hasPassword,
    passwordChangeable: enabled && hasPassword,
    setupState: enabled ? "enabled" : hasPassword ? "password_retained" : "no_password",
  };
}

function checkNewPassword(password: string, confirm: string | undefined): void {
  if (confirm === undefined || confirm !== password) {
    throw ApiError.of("password_mismatch", "The password and its confirmation do not match");
  }
  if (password.length < MIN_PASSWORD_LENGTH) {
    throw ApiError.of("invalid_password", `The password must have at least ${MIN_PASSWORD_LENGTH} characters`);
  }
}

/** Logs in; with no password stored yet, the first login with a matching confirmation sets it. */
export async function login(req: Request, body: TLoginRequest): Promise<{ cookieValue: string; maxAge: number }> {
  if (!getSettings().ADMIN_AUTH_ENABLED) throw ApiError.of("auth_disabled", "Admin authentication is disabled");
  const password = body.password ?? "";
  if (password === "") throw ApiError.of("password_required", "A password is required");
  const client = clientKey(req);
  await takeLoginAttempt(client);

  const stored = await storedPasswordHash();
  if (stored === null) {
    requireSameOrigin(req);
    checkNewPassword(password, body.passwordConfirm ?? body.password_confirm);
    if (!(await storeFirstPasswordHash(await hashPassword(password)))) {
      // Another request set the first password a moment ago: this one must now match it.
      return login(req, { password });
    }
  } else if (!(await verifyPassword(password, stored))) {
    await loginFailed();
    throw new ApiError(401, "invalid_password", "Wrong password");
  }
  await loginSucceeded(client);
  const { cookieValue, maxAge } = await createSession();
  return { cookieValue, maxAge };
}

export async function logout(req: Request): Promise<void> {
  const session = await sessionOf(req);
  if (session) await revokeSession(session.sid);
}

export async function changePassword(req: Request, body: TChangePasswordRequest): Promise<void> {
  const stored = await storedPasswordHash();
  if (!getSettings().ADMIN_AUTH_ENABLED || stored === null) {
    throw ApiError.of(
      "not_changeable",
      "The password can be changed only while admin auth is on and a password is set",
    );
  }
  if (!body.currentPassword) throw ApiError.of("current_required", "The current password is required");
  // The current password is guessed like a login's (a stolen session could try them all): the same budget.
  const client = clientKey(req);
  await takeLoginAttempt(client);
  if (!(await verifyPassword(body.currentPassword, stored))) {
    await loginFailed();
    throw ApiError.of("invalid_password", "The current password is wrong");
  }
  await loginSucceeded(client);
  checkNewPassword(body.newPassword ?? "", body.newPasswordConfirm);
  await storePasswordHash(await hashPassword(body.newPassword ?? ""));
  await revokeOtherSessions((await sessionOf(req))?.sid ?? null);
}

/**
 * Switches admin auth on or off (the only way to change ADMIN_AUTH_ENABLED from the API). Turning it on
 * sets the first password or proves the stored one, and logs this client in; turning it off takes the signed-in
 * admin's session as proof when no password is sent (as the reference does); a password sent is checked. Returns the new status and, when a session was started, its cookie.
 */
export async function updateAuthSettings(
  req: Request,
  body: TAuthSettingsRequest,
): Promise<{ status: TAuthStatus; session: { cookieValue: string; maxAge: number } | null }> {
  const client = clientKey(req);
  const stored = await storedPasswordHash();
  if (body.authEnabled && stored === null) {
    requireSameOrigin(req);
    const password = body.password ?? "";
    if (password === "") throw ApiError.of("password_required", "Set a password to turn admin auth on");
    checkNewPassword(password, body.passwordConfirm);
    if (!(await storeFirstPasswordHash(await hashPassword(password)))) {
      throw ApiError.of("conflict", "A password was set meanwhile; log in with it and try again");
    }
  } else if (stored !== null) {
    const proof = body.currentPassword ?? body.password ?? "";
    if (proof === "" && (await offWithoutProof(req, body.authEnabled))) return switchAuth(req, false);
    if (proof === "") throw ApiError.of("current_required", "The current password is required");
    await takeLoginAttempt(client);
    if (!(await verifyPassword(proof, stored))) {
      await loginFailed();
      throw new ApiError(401, "invalid_password", "Wrong password");
    }
    await loginSucceeded(client);
  }
  return switchAuth(req, body.authEnabled);
}

async function switchAuth(
  req: Request,
  enabled: boolean,
): Promise<{ status: TAuthStatus; session: { cookieValue: string; maxAge: number } | null }> {
  await updateEnvFile({}, () => ({ updates: { ADMIN_AUTH_ENABLED: enabled ? "true" : "false" }, result: null }));
  const session = enabled ? await createSession() : null;
  const status = await authStatus(req);
  return { status: session ? { ...status, loggedIn: true } : status, session };
}

/** Turning auth off needs no password from a live admin session, nor while it is off (nothing changes). */
async function offWithoutProof(req: Request, authEnabled: boolean): Promise<boolean> {
  if (authEnabled) return false;
  if (!getSettings().ADMIN_AUTH_ENABLED) return true;
  return (await sessionOf(req)) !== null;
}
