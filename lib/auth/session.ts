import { parse, serialize } from "cookie";
import { sealData, unsealData } from "iron-session";
import { LRUCache } from "lru-cache";
import { now } from "@/lib/clock";
import { getSettings } from "@/lib/config/settings";
import { db } from "@/lib/db/client";
import { readOneRow, storedTime } from "@/lib/db/one-row";
import { newId } from "@/lib/ids";
import { sessionSecret } from "./session-secret";

export const SESSION_COOKIE = "dsa_session";

interface SealedSession {
  sid: string;
}

function maxAgeSeconds(): number {
  return Math.round(getSettings().ADMIN_SESSION_MAX_AGE_HOURS * 3600);
}

/** Starts a session: a row that can be revoked, and the sealed cookie value that names it. */
export async function createSession(): Promise<{ sid: string; cookieValue: string; maxAge: number }> {
  const maxAge = maxAgeSeconds();
  const sid = newId();
  await db().adminSession.create({ data: { id: sid, expiresAt: new Date(now().getTime() + maxAge * 1000) } });
  const cookieValue = await sealData({ sid } satisfies SealedSession, { password: await sessionSecret(), ttl: maxAge });
  return { sid, cookieValue, maxAge };
}

// Issue 23 §3: with admin auth on, every request of a signed-in user checks its cookie, and that check cost more than
// the rest of a cached GET /api/v1/history (~680 µs of CPU in a plain Node process: unsealing ~250 µs, the session row
// through Prisma the rest). A cookie that unsealed is remembered with the secret it unsealed under and the seal's own
// expiry, so a repeat skips the crypto; the row (revoked? expired?) is still read on every request, on SQLite through
// the direct reader, so a revocation counts from the next request on. Only cookies that unsealed are kept.
const MAX_UNSEALED = 256;
const unsealedCookies = new LRUCache<string, { secret: string; sid: string; sealExpiresAt: number | null }>({ max: MAX_UNSEALED });

/** The expiry iron wrote into a sealed value (ms since the epoch), or null when it has none. */
function sealExpiry(sealed: string): number | null {
  const expiration = sealed.split("~")[0]!.split("*")[5];
  return expiration && /^\d+$/.test(expiration) ? Number(expiration) : null;
}

async function sidOf(sealed: string): Promise<string | null> {
  const secret = await sessionSecret();
  const known = unsealedCookies.get(sealed);
  // Date.now, not the service clock: iron checks a seal's expiry against the real time.
  if (known && known.secret === secret && (known.sealExpiresAt === null || known.sealExpiresAt > Date.now())) return known.sid;
  let data: Partial<SealedSession>;
  try {
    data = await unsealData<SealedSession>(sealed, { password: secret, ttl: maxAgeSeconds() });
  } catch {
    return null;
  }
  if (typeof data.sid !== "string") return null;
  unsealedCookies.set(sealed, { secret, sid: data.sid, sealExpiresAt: sealExpiry(sealed) });
  return data.sid;
}

/** The live session the request's cookie names, or null (no cookie, tampered, expired or revoked). */
export async function sessionOf(req: Request): Promise<{ sid: string } | null> {
  const sealed = parse(req.headers.get("cookie") ?? "")[SESSION_COOKIE];
  if (!sealed) return null;
  const sid = await sidOf(sealed);
  if (!sid) return null;
  const row = await readOneRow<{ expires_at: unknown; revoked_at: unknown }>("SELECT expires_at, revoked_at FROM admin_session WHERE id = ?", [sid]);
  // An expiry that does not read as a time fails closed (NaN > now is false).
  if (!row || row.revoked_at !== null || !(storedTime(row.expires_at) > now().getTime())) return null;
  return { sid };
}

export async function revokeSession(sid: string): Promise<void> {
  await db().adminSession.updateMany({ where: { id: sid, revokedAt: null }, data: { revokedAt: now() } });
}

/** After a password change every other session ends; expired rows are dropped on the way. */
export async function revokeOtherSessions(keepSid: string | null): Promise<void> {
  const at = now();
  await db().$transaction([
    db().adminSession.updateMany({ where: { revokedAt: null, ...(keepSid ? { id: { not: keepSid } } : {}) }, data: { revokedAt: at } }),
    db().adminSession.deleteMany({ where: { expiresAt: { lt: at } } }),
  ]);
}

/** Secure when the request came over https, or through a trusted proxy that says it did. */
export function isSecureRequest(req: Request): boolean {
  if (new URL(req.url).protocol === "https:") return true;
  return getSettings().TRUST_X_FORWARDED_FOR && req.headers.get("x-forwarded-proto")?.split(",")[0]?.trim() === "https";
}

export function sessionCookieHeader(req: Request, value: string, maxAge: number): string {
  return serialize(SESSION_COOKIE, value, { httpOnly: true, sameSite: "lax", path: "/", maxAge, secure: isSecureRequest(req) });
}

export function clearedSessionCookieHeader(req: Request): string {
  return serialize(SESSION_COOKIE, "", { httpOnly: true, sameSite: "lax", path: "/", maxAge: 0, secure: isSecureRequest(req) });
}
