import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

// Crash-safe file replacement: the new bytes go to a temporary file in the same folder, are flushed to
// disk, and then renamed over the target in one step, so a reader (or a crash) sees the old file or the
// new one, never a mix. Callers serialise writers (see file-lock.ts).

export interface AtomicWriteResult {
  /** True when the rename was refused (a bind-mounted file) and the bytes were written in place instead. */
  inPlace: boolean;
}

const TEMP_SUFFIX = ".tmp";

function tempPathFor(file: string): string {
  return path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString("hex")}${TEMP_SUFFIX}`);
}

/** Temporary files a killed writer left next to `file`; only safe to remove while holding the writer lock. */
export function removeLeftoverTempFiles(file: string): string[] {
  const dir = path.dirname(file);
  const prefix = `.${path.basename(file)}.`;
  const removed: string[] = [];
  for (const name of safeReaddir(dir)) {
    if (!name.startsWith(prefix) || !name.endsWith(TEMP_SUFFIX)) continue;
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

export function writeFileAtomic(file: string, data: string | Buffer, mode = 0o600): AtomicWriteResult {
  const temp = tempPathFor(file);
  const fd = fs.openSync(temp, "wx", mode);
  try {
    fs.fchmodSync(fd, mode);
    fs.writeFileSync(fd, data);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  try {
    fs.renameSync(temp, file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // Docker bind-mounts of a single file cannot be replaced by rename; fall back to rewriting in place.
    if (code !== "EBUSY" && code !== "EXDEV") {
      fs.rmSync(temp, { force: true });
      throw error;
    }
    writeInPlace(file, data);
    fs.rmSync(temp, { force: true });
    return { inPlace: true };
  }
  fsyncFolder(path.dirname(file));
  return { inPlace: false };
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

function fsyncFolder(dir: string): void {
  // Makes the rename itself durable; not every platform lets a folder be opened, so failures are ignored.
  let fd: number | undefined;
  try {
    fd = fs.openSync(dir, "r");
    fs.fsyncSync(fd);
  } catch {
    // best effort
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}
