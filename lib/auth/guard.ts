import { getSettings } from "@/lib/config/settings";
import { ApiError } from "@/lib/http/api-error";
import { sessionOf } from "./session";

const STATE_CHANGING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export const LOGIN_REQUIRED = "Login required: the admin session is missing or invalid";

/**
 * Spec 5, applied by the route wrapper to every operation: with admin auth on, non-public operations need a
 * live session (401 otherwise), and a state-changing request from another site's page is refused (the
 * session cookie would otherwise ride along on a forged form post).
 */
export async function guardRequest(req: Request, isPublic: boolean): Promise<void> {
  if (!getSettings().ADMIN_AUTH_ENABLED) return;
  if (STATE_CHANGING.has(req.method)) refuseCrossOrigin(req);
  if (isPublic) return;
  if (!(await sessionOf(req))) throw ApiError.of("unauthorized", LOGIN_REQUIRED);
}

function refuseCrossOrigin(req: Request): void {
  const origin = req.headers.get("origin");
  if (!origin) return; // not a browser cross-site request (curl, server-to-server)
  const trusted = getSettings().TRUST_X_FORWARDED_FOR;
  const host = (trusted && req.headers.get("x-forwarded-host")) || req.headers.get("host");
  let originHost: string | null = null;
  try {
    originHost = new URL(origin).host;
  } catch {
    originHost = null;
  }
  if (!host || originHost !== host) {
    throw ApiError.of("forbidden", "Cross-origin request refused: the Origin does not match this service");
  }
}
