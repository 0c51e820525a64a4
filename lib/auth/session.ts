import { parse, serialize } from "cookie";
import { sealData, unsealData } from "iron-session";
import { LRUCache } from "lru-cache";
import { now } from "@/lib/clock";
import { getSettings } from "@/lib/settings/settings";
import { db } from "@/lib/db/client";
import { readOneRowSoon, storedTime } from "@/lib/db/one-row";
import { newId } from "@/lib/ids";
import { andThen, type Soon } from "@/lib/soon";
import { knownSessionSecret, sessionSecret } from "./session-secret";

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

// With admin auth on, every request of a signed-in user checks its cookie, and that check cost more than
// the rest of a cached GET /api/v1/history (~680 µs of CPU in a plain Node process: unsealing ~250 µs, the session row
// through Prisma the rest). A cookie that unsealed is remembered with the secret it unsealed under and the seal's own
// expiry, so a repeat skips the crypto; the row (revoked? expired?) is still read on every request, on SQLite through
// the direct reader, so a revocation counts from the next request on. Only cookies that unsealed are kept.
const MAX_UNSEALED = 256;
const unsealedCookies = new LRUCache<string, { secret: string; sid: string; sealExpiresAt: number | null }>({
  max: MAX_UNSEALED,
});

/** The expiry iron wrote into a sealed value (ms since the epoch), or null when it has none. */
function sealExpiry(sealed: string): number | null {
  const expiration = sealed.split("~")[0]!.split("*")[5];
  return expiration && /^\d+$/.test(expiration) ? Number(expiration) : null;
}

/** The session id of a cookie unsealed before under the current key, or undefined (then it must be unsealed). */
function rememberedSid(sealed: string): string | undefined {
  const secret = knownSessionSecret();
  const known = secret === null ? undefined : unsealedCookies.get(sealed);
  // Date.now, not the service clock: iron checks a seal's expiry against the real time.
  if (known && known.secret === secret && (known.sealExpiresAt === null || known.sealExpiresAt > Date.now()))
    return known.sid;
  return undefined;
}

async function unsealSid(sealed: string): Promise<string | null> {
  const secret = await sessionSecret();
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

const SESSION_ROW_SQL = "SELECT expires_at, revoked_at FROM admin_session WHERE id = ?";

function liveSession(sid: string): Soon<{ sid: string } | null> {
  return andThen(readOneRowSoon<{ expires_at: unknown; revoked_at: unknown }>(SESSION_ROW_SQL, [sid]), (row) =>
    // An expiry that does not read as a time fails closed (NaN > now is false).
    !row || row.revoked_at !== null || !(storedTime(row.expires_at) > now().getTime()) ? null : { sid },
  );
}

/**
 * The live session the request's cookie names, or null (no cookie, tampered, expired or revoked). A remembered cookie
 * on SQLite is answered without a promise (lib/soon.ts); a new cookie, or PostgreSQL, gives one.
 */
export function sessionOf(req: Request): Soon<{ sid: string } | null> {
  const sealed = parse(req.headers.get("cookie") ?? "")[SESSION_COOKIE];
  if (!sealed) return null;
  const sid = rememberedSid(sealed);
  if (sid !== undefined) return liveSession(sid);
  return unsealSid(sealed).then((unsealed) => (unsealed === null ? null : liveSession(unsealed)));
}

export async function revokeSession(sid: string): Promise<void> {
  await db().adminSession.updateMany({ where: { id: sid, revokedAt: null }, data: { revokedAt: now() } });
}

/** After a password change every other session ends; expired rows are dropped on the way. */
export async function revokeOtherSessions(keepSid: string | null): Promise<void> {
  const at = now();
  await db().$transaction([
    db().adminSession.updateMany({
      where: { revokedAt: null, ...(keepSid ? { id: { not: keepSid } } : {}) },
      data: { revokedAt: at },
    }),
    db().adminSession.deleteMany({ where: { expiresAt: { lt: at } } }),
  ]);
}

/** Secure when the request came over https, or through a trusted proxy that says it did. */
export function isSecureRequest(req: Request): boolean {
  if (new URL(req.url).protocol === "https:") return true;
  return getSettings().TRUST_X_FORWARDED_FOR && req.headers.get("x-forwarded-proto")?.split(",")[0]?.trim() === "https";
}

export function sessionCookieHeader(req: Request, value: string, maxAge: number): string {
  return serialize(SESSION_COOKIE, value, {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    maxAge,
    secure: isSecureRequest(req),
  });
}

export function clearedSessionCookieHeader(req: Request): string {
  return serialize(SESSION_COOKIE, "", {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    maxAge: 0,
    secure: isSecureRequest(req),
  });
}
