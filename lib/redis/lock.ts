import type Redis from "ioredis";

// A lock is one key holding its owner's random token, with an expiry so a holder that dies frees it by itself.
// Renewal and release compare the token inside Redis (a Lua script runs atomically), so a holder whose lock
// already expired and went to another process can neither extend nor delete the new owner's lock. No lock package
// is installed and this is the whole of the protocol (Redis's single-instance lock pattern), so it lives here.

const RENEW = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`;
const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

/** Takes the lock when nobody holds it. */
export async function tryLock(client: Redis, key: string, token: string, ttlMs: number): Promise<boolean> {
  return (await client.set(key, token, "PX", Math.max(1, Math.round(ttlMs)), "NX")) === "OK";
}

/** Extends the lock if `token` still holds it; false when it was lost (expired, maybe taken by another process). */
export async function renewLock(client: Redis, key: string, token: string, ttlMs: number): Promise<boolean> {
  return Number(await client.eval(RENEW, 1, key, token, String(Math.max(1, Math.round(ttlMs))))) === 1;
}

/** Frees the lock if `token` still holds it. */
export async function releaseLock(client: Redis, key: string, token: string): Promise<boolean> {
  return Number(await client.eval(RELEASE, 1, key, token)) === 1;
}
