import { now } from "@/lib/clock";

// CONTRACT §2: 5 failed logins per client per 300 s. Without a trusted proxy the client address comes
// from a header the client itself can set, so a global cap also applies: rotating fake addresses cannot
// buy unlimited guesses (at worst the login pauses for everyone until the window passes).
export const FAILURES_PER_CLIENT = 5;
export const FAILURES_GLOBAL = 50;
export const WINDOW_MS = 300_000;

const failures = new Map<string, number[]>();
const GLOBAL = "*";

// Next fills x-forwarded-for with the socket address when the client sent none; a proxy appends the
// address it saw, so the last entry is the one the nearest hop vouches for.
export function clientKey(req: Request): string {
  const forwarded = req.headers.get("x-forwarded-for")?.split(",");
  return forwarded?.[forwarded.length - 1]?.trim() || "unknown";
}

function recent(key: string, at: number): number[] {
  const kept = (failures.get(key) ?? []).filter((t) => at - t < WINDOW_MS);
  if (kept.length === 0) failures.delete(key);
  else failures.set(key, kept);
  return kept;
}

function waitMs(list: number[], limit: number, at: number): number {
  return list.length >= limit ? list[list.length - limit]! + WINDOW_MS - at : 0;
}

/** Seconds until the client may try again, or 0 when it may try now. */
export function retryAfterSeconds(key: string): number {
  const at = now().getTime();
  const ms = Math.max(waitMs(recent(key, at), FAILURES_PER_CLIENT, at), waitMs(recent(GLOBAL, at), FAILURES_GLOBAL, at));
  return ms > 0 ? Math.max(1, Math.ceil(ms / 1000)) : 0;
}

export function recordFailure(key: string): void {
  const at = now().getTime();
  for (const k of [key, GLOBAL]) failures.set(k, [...recent(k, at), at]);
}

export function clearFailures(key: string): void {
  failures.delete(key);
}

export function resetLoginRateLimit(): void {
  failures.clear();
}
