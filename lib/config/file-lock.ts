import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";

// Two layers of mutual exclusion for the env file: a promise chain inside this process (kept on globalThis,
// so every bundle copy of this module shares it), and a lock file that other processes respect.

const CHAINS = Symbol.for("dsa.config.mutexChains");
type GlobalWithChains = typeof globalThis & { [CHAINS]?: Map<string, Promise<void>> };

function chains(): Map<string, Promise<void>> {
  const g = globalThis as GlobalWithChains;
  g[CHAINS] ??= new Map();
  return g[CHAINS];
}

/** Runs `fn` after every earlier call with the same name has settled (a promise-chain mutex). */
export async function withProcessMutex<T>(name: string, fn: () => Promise<T> | T): Promise<T> {
  const map = chains();
  const previous = map.get(name) ?? Promise.resolve();
  let release!: () => void;
  const current = new Promise<void>((resolve) => {
    release = resolve;
  });
  const tail = previous.then(() => current);
  map.set(name, tail);
  await previous;
  try {
    return await fn();
  } finally {
    release();
    if (map.get(name) === tail) map.delete(name);
  }
}

export interface FileLockOptions {
  /** A lock older than this is taken to belong to a dead or hung writer and is broken. */
  staleMs?: number;
  /** Give up waiting after this long. */
  timeoutMs?: number;
}

interface LockOwner {
  pid: number;
  host: string;
  token: string;
  created: number;
}

interface LockState {
  raw: string;
  mtimeMs: number;
  owner: LockOwner | null;
}

const DEFAULT_STALE_MS = 10_000;
const DEFAULT_TIMEOUT_MS = 15_000;

/**
 * Runs `fn` holding `<lockPath>` (created with O_EXCL, so only one process can hold it). A lock left by a
 * process that died (same host, pid gone) or older than `staleMs` is broken; breaking is itself guarded by
 * a second O_EXCL file, so two waiters cannot both break a lock and then both take it.
 */
export async function withFileLock<T>(lockPath: string, fn: () => Promise<T> | T, options: FileLockOptions = {}): Promise<T> {
  const staleMs = options.staleMs ?? DEFAULT_STALE_MS;
  const token = randomUUID();
  await acquire(lockPath, token, staleMs, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  try {
    return await fn();
  } finally {
    release(lockPath, token);
  }
}

async function acquire(lockPath: string, token: string, staleMs: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let delay = 2;
  for (;;) {
    if (tryCreate(lockPath, token)) return;
    breakIfStale(lockPath, staleMs);
    if (tryCreate(lockPath, token)) return;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for the lock ${lockPath}`);
    await new Promise((resolve) => setTimeout(resolve, delay + Math.random() * delay));
    delay = Math.min(delay * 2, 50);
  }
}

function tryCreate(lockPath: string, token: string): boolean {
  let fd: number;
  try {
    fd = fs.openSync(lockPath, "wx", 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
  try {
    const owner: LockOwner = { pid: process.pid, host: os.hostname(), token, created: Date.now() };
    fs.writeSync(fd, JSON.stringify(owner));
  } finally {
    fs.closeSync(fd);
  }
  return true;
}

function release(lockPath: string, token: string): void {
  // Only remove the lock if it is still ours (it may have been broken as stale and re-taken meanwhile).
  const state = readLock(lockPath);
  if (state?.owner?.token === token) unlinkQuietly(lockPath);
}

function readLock(lockPath: string): LockState | null {
  try {
    const raw = fs.readFileSync(lockPath, "utf8");
    const { mtimeMs } = fs.statSync(lockPath);
    return { raw, mtimeMs, owner: parseOwner(raw) };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

function parseOwner(raw: string): LockOwner | null {
  try {
    const value = JSON.parse(raw) as Partial<LockOwner>;
    if (typeof value.pid !== "number" || typeof value.host !== "string" || typeof value.token !== "string") return null;
    return { pid: value.pid, host: value.host, token: value.token, created: Number(value.created) || 0 };
  } catch {
    return null; // being written right now, or garbage: only age can make it stale
  }
}

function isStale(state: LockState, staleMs: number): boolean {
  if (Date.now() - state.mtimeMs > staleMs) return true;
  const owner = state.owner;
  if (!owner || owner.host !== os.hostname() || owner.pid === process.pid) return false;
  return !processAlive(owner.pid);
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function breakIfStale(lockPath: string, staleMs: number): void {
  const seen = readLock(lockPath);
  if (!seen || !isStale(seen, staleMs)) return;
  const breaker = `${lockPath}.break`;
  const breakerToken = randomUUID();
  if (!tryCreate(breaker, breakerToken)) {
    // A breaker that died mid-break would block everyone; it only ever holds the file for microseconds.
    const stuck = readLock(breaker);
    if (stuck && Date.now() - stuck.mtimeMs > staleMs) unlinkQuietly(breaker);
    return;
  }
  try {
    const again = readLock(lockPath);
    if (again && again.raw === seen.raw && again.mtimeMs === seen.mtimeMs) unlinkQuietly(lockPath);
  } finally {
    release(breaker, breakerToken);
  }
}

function unlinkQuietly(file: string): void {
  try {
    fs.unlinkSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
}
