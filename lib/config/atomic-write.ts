import fs from "node:fs";
import path from "node:path";
import writeFileAtomicPackage from "write-file-atomic";

// Crash-safe file replacement by write-file-atomic: the bytes go to a temporary file beside the target, are
// fsynced, and the temporary file is renamed over the target, so a reader (or a crash) sees the old file or
// the new one, never a mix. Callers serialise writers (see file-lock.ts). What is ours: the fallback for a
// bind-mounted file and the clean-up after a writer killed mid-write.

export interface AtomicWriteResult {
  /** True when the rename was refused (a bind-mounted file) and the bytes were written in place instead. */
  inPlace: boolean;
}

/**
 * write-file-atomic names its temporary file `<target>.<32-bit number>`; it removes it on a failure or a
 * catchable signal, but a SIGKILL or a power loss leaves it behind.
 */
function isTempFileOf(name: string, base: string): boolean {
  return name.startsWith(`${base}.`) && /^\d{1,10}$/.test(name.slice(base.length + 1));
}

/** Temporary files a killed writer left next to `file`; only safe to remove while holding the writer lock. */
export function removeLeftoverTempFiles(file: string): string[] {
  const dir = path.dirname(file);
  const base = path.basename(file);
  const removed: string[] = [];
  for (const name of safeReaddir(dir)) {
    if (!isTempFileOf(name, base)) continue;
    try {
      fs.unlinkSync(path.join(dir, name));
      removed.push(name);
    } catch {
      // already gone
    }
  }
  return removed;
}

function safeReaddir(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}

/** Replaces `file` with `data` (mode `mode`); `file` should be the real path, not a symlink to it. */
export function writeFileAtomic(file: string, data: string | Buffer, mode = 0o600): AtomicWriteResult {
  try {
    writeFileAtomicPackage.sync(file, data, { mode, fsync: true });
    return { inPlace: false };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // Docker bind-mounts of a single file cannot be replaced by rename; fall back to rewriting in place.
    if (code !== "EBUSY" && code !== "EXDEV") throw error;
    writeInPlace(file, data);
    return { inPlace: true };
  }
}

function writeInPlace(file: string, data: string | Buffer): void {
  const fd = fs.openSync(file, "r+");
  try {
    fs.ftruncateSync(fd, 0);
    fs.writeFileSync(fd, data);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}
