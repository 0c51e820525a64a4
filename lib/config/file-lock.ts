import fs from "node:fs";
import lockfile from "proper-lockfile";
import { logger } from "@/lib/log/logger";

// Two layers of mutual exclusion for the env file: a promise chain inside this process (kept on globalThis,
// so every bundle copy of this module shares it, and so writers in one process queue instead of polling a
// lock they hold themselves), and proper-lockfile's lock that other processes respect.

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
  /** A lock whose holder has not refreshed it for this long is taken to be a dead writer's and is broken. */
  staleMs?: number;
  /** Give up waiting after this long. */
  timeoutMs?: number;
}

const DEFAULT_STALE_MS = 5_000;
const DEFAULT_TIMEOUT_MS = 15_000;

/**
 * Runs `fn` holding the lock `lockPath` (a folder proper-lockfile creates with mkdir, which only one process
 * can do). The holder refreshes the folder's mtime in the background; a lock not refreshed for `staleMs`
 * belongs to a writer that died and is broken.
 */
export async function withFileLock<T>(
  lockPath: string,
  fn: () => Promise<T> | T,
  options: FileLockOptions = {},
): Promise<T> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  removeLegacyLockFile(lockPath, options.staleMs ?? DEFAULT_STALE_MS);
  let release: () => Promise<void>;
  try {
    release = await lockfile.lock(lockPath, {
      lockfilePath: lockPath,
      // The lock guards a file that may not exist yet: no realpath of it.
      realpath: false,
      stale: options.staleMs ?? DEFAULT_STALE_MS,
      retries: { forever: true, maxRetryTime: timeoutMs, minTimeout: 2, maxTimeout: 50, factor: 2, randomize: true },
      // The default throws from a timer and would end the process; a lock lost mid-write (its holder stalled
      // past the stale limit) is reported instead: the atomic write still never leaves a torn file.
      onCompromised: (error) =>
        logger.error({ lock: lockPath, err: error.message }, "env file lock was lost while held"),
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ELOCKED")
      throw new Error(`Timed out after ${timeoutMs} ms waiting for the lock ${lockPath}`);
    throw error;
  }
  try {
    return await fn();
  } finally {
    await release().catch(() => undefined); // already released as compromised
  }
}

/**
 * Before proper-lockfile, the lock was a plain file at the same path. proper-lockfile can only remove a folder,
 * so a stale one left by a crash of an older version would block every write; it is removed here instead.
 */
function removeLegacyLockFile(lockPath: string, staleMs: number): void {
  try {
    const stat = fs.lstatSync(lockPath);
    if (stat.isFile() && Date.now() - stat.mtimeMs > staleMs) fs.unlinkSync(lockPath);
  } catch {
    // no lock, or removed meanwhile
  }
}
