import "server-only";
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { getSettings } from "@/lib/settings/settings";
import { loginHref } from "./next-path";
import { storedPasswordHash } from "./password-store";
import { SESSION_COOKIE, sessionOf } from "./session";

// Server components' view of the admin session. sessionOf() reads a Request; a server
// component has the cookie store instead, so the cookie is handed over in a stand-in request.

/** The live session the given dsa_session cookie value names, or null. */
export async function sessionFromCookieValue(value: string | undefined): Promise<{ sid: string } | null> {
  if (!value) return null;
  const req = new Request("http://localhost/", {
    headers: { cookie: `${SESSION_COOKIE}=${encodeURIComponent(value)}` },
  });
  return sessionOf(req);
}

export interface UiAuthState {
  authEnabled: boolean;
  loggedIn: boolean;
  /** An admin password is stored (it is kept while auth is off). */
  hasPassword: boolean;
}

export async function uiAuthState(): Promise<UiAuthState> {
  const authEnabled = getSettings().ADMIN_AUTH_ENABLED;
  const [hasPassword, session] = await Promise.all([
    storedPasswordHash().then((hash) => hash !== null),
    authEnabled
      ? cookies().then((jar) => sessionFromCookieValue(jar.get(SESSION_COOKIE)?.value))
      : Promise.resolve(null),
  ]);
  return { authEnabled, loggedIn: session !== null, hasPassword };
}

/**
 * Second line of defence behind proxy.ts for pages that read settings: with auth on and no live session,
 * go to the login page, which comes back to `path` afterwards.
 */
export async function requireUiSession(path: string): Promise<UiAuthState> {
  const state = await uiAuthState();
  if (state.authEnabled && !state.loggedIn) redirect(loginHref(path));
  return state;
}
