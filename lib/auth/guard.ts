import { getSettings } from "@/lib/settings/settings";
import { ApiError } from "@/lib/errors/api-error";
import type { Operation } from "@/lib/operation/operation";
import { takeTokenRequest } from "./api-token-rate-limit";
import { bearerTokenOf, scopeAllows } from "./api-token-secret";
import { verifyApiToken } from "./api-tokens";
import { sessionOf } from "./session";
import { andThen, type Soon } from "@/lib/soon";

const STATE_CHANGING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export const LOGIN_REQUIRED = "Login required: the admin session is missing or invalid";
const CROSS_ORIGIN = "Cross-origin request refused: the Origin does not match this service";
export const INVALID_TOKEN = "API token is invalid, revoked or expired";
const SESSION_ONLY = "This operation needs the admin session; an API token cannot reach it";

export type Access = Pick<Operation, "public" | "adminSessionOnly" | "tokenOnly">;

/**
 * Spec 5, applied by the route wrapper to every operation. A state-changing request from another site's
 * page is refused whatever the auth mode: with auth off there is no cookie to forge, but the write itself
 * (an analysis, a rule, switching auth on with the attacker's password) is the harm. With admin auth on,
 * non-public operations also need a live session or an API token (401 otherwise).
 *
 * With auth off an Authorization header is ignored, valid or not: the API is open, and refusing a stale
 * token there would break scripts only while auth is off.
 *
 * Refuses by throwing; returns a promise only when a check has to wait (lib/soon.ts: a signed-in request on SQLite
 * does not).
 */
export function guardRequest(req: Request, access: Access): Soon<void> {
  const authOn = getSettings().ADMIN_AUTH_ENABLED;
  const bearer = bearerTokenOf(req);
  if (authOn && !access.public && !access.tokenOnly && bearer !== null) return guardBearer(req, bearer, access);
  if (STATE_CHANGING.has(req.method) && isCrossSite(req)) throw ApiError.of("forbidden", CROSS_ORIGIN);
  if (!authOn || access.public || access.tokenOnly) return;
  return andThen(sessionOf(req), (session) => {
    if (!session) throw ApiError.of("unauthorized", LOGIN_REQUIRED);
  });
}

// No cross-site check here: a browser never adds an Authorization header on its own, so a bearer request
// is the caller's deliberate act, not a forged one riding on a cookie.
function guardBearer(req: Request, secret: string, access: Access): Soon<void> {
  return andThen(verifyApiToken(secret), (token) => {
    if (!token) throw ApiError.of("unauthorized", INVALID_TOKEN);
    return takeTokenRequest(token.id).then(() => {
      if (access.adminSessionOnly) throw ApiError.of("forbidden", SESSION_ONLY);
      if (!scopeAllows(token.scope, req.method))
        throw ApiError.of("forbidden", `A ${token.scope} token cannot ${req.method} here; it needs the write scope`);
    });
  });
}

/**
 * For the first admin setup on a fresh install (whoever sets the first password owns the service): the
 * request must prove it comes from this service's own page, not merely lack a foreign Origin.
 */
export function requireSameOrigin(req: Request): void {
  if (isCrossSite(req)) throw ApiError.of("forbidden", CROSS_ORIGIN);
  const fetchSite = req.headers.get("sec-fetch-site");
  if (fetchSite === "same-origin" || req.headers.get("origin") !== null) return;
  throw ApiError.of(
    "forbidden",
    "The first admin password can only be set from this service's own page (send an Origin header naming it)",
  );
}

// Browsers send Origin on every cross-origin write and Sec-Fetch-Site on modern ones; a request with
// neither is not a browser's cross-site request (curl, scripts, server to server). The origin of
// PUBLIC_BASE_URL is this service's too: a reverse proxy that rewrites Host (to 127.0.0.1:<port>, say) would
// otherwise make every write from the service's own page look foreign.
function isCrossSite(req: Request): boolean {
  const fetchSite = req.headers.get("sec-fetch-site");
  if (fetchSite === "cross-site" || fetchSite === "same-site") return true;
  const origin = req.headers.get("origin");
  if (origin === null) return false;
  const url = originUrl(origin);
  if (url === null) return true;
  return url.host !== serviceHost(req) && url.origin !== originUrl(getSettings().PUBLIC_BASE_URL)?.origin;
}

function originUrl(origin: string): URL | null {
  try {
    return new URL(origin);
  } catch {
    return null; // "null" (sandboxed frames, file: pages), an empty setting or garbage: never this service
  }
}

function serviceHost(req: Request): string | null {
  const trusted = getSettings().TRUST_X_FORWARDED_FOR;
  return (trusted && req.headers.get("x-forwarded-host")?.split(",")[0]?.trim()) || req.headers.get("host");
}
