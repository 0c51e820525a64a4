import { parse, serialize } from "cookie";
import { sealData, unsealData } from "iron-session";
import { now } from "@/lib/clock";
import { getSettings } from "@/lib/config/settings";
import { db } from "@/lib/db/client";
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

/** The live session the request's cookie names, or null (no cookie, tampered, expired or revoked). */
export async function sessionOf(req: Request): Promise<{ sid: string } | null> {
  const sealed = parse(req.headers.get("cookie") ?? "")[SESSION_COOKIE];
  if (!sealed) return null;
  let data: Partial<SealedSession>;
  try {
    data = await unsealData<SealedSession>(sealed, { password: await sessionSecret(), ttl: maxAgeSeconds() });
  } catch {
    return null;
  }
  if (typeof data.sid !== "string") return null;
  const row = await db().adminSession.findUnique({ where: { id: data.sid } });
  if (!row || row.revokedAt || row.expiresAt.getTime() <= now().getTime()) return null;
  return { sid: row.id };
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
