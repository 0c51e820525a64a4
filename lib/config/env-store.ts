import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { ApiError } from "@/lib/http/api-error";
import { removeLeftoverTempFiles, writeFileAtomic } from "./atomic-write";
import { applyEnvUpdates, parseEnv } from "./env-file";
import { withFileLock, withProcessMutex } from "./file-lock";
import { envFilePath, reloadSettings } from "./settings";

// The config store: the env file named by ENV_FILE. Reads give the text, the parsed values and a version
// token; writes run "check version → compute → write → back up" under the process mutex and the lock
// file, so two writers holding the same version can never both succeed.

export const MISSING_VERSION = "missing:0";

export interface EnvSnapshot {
  file: string;
  exists: boolean;
  /** The file's text ("" when there is no file). */
  content: string;
  values: Record<string, string>;
  /** `<mtime ns>:<sha256 of the bytes>`, or "missing:0"; changes whenever the bytes change. */
  version: string;
  /** The file's modification time (ISO 8601), when it exists. */
  updatedAt: string | null;
}

export interface EnvUpdatePlan<T> {
  updates: Record<string, string>;
  result: T;
}

export interface EnvUpdateOutcome<T> {
  before: EnvSnapshot;
  after: EnvSnapshot;
  /** False when the updates left the bytes unchanged (nothing was written). */
  written: boolean;
  /** The rename was refused (bind-mounted file) and the file was rewritten in place. */
  inPlace: boolean;
  /** Settings were re-read after the write. */
  reloaded: boolean;
  reloadError?: string;
  result: T;
}

export interface EnvUpdateOptions {
  /** Defaults to the ENV_FILE path. */
  file?: string;
  /** Reject with 409 config_version_conflict unless the file still has this version. */
  expectedVersion?: string;
  /** Re-read settings after a write (default true); only done for the live ENV_FILE. */
  reload?: boolean;
}

export function backupPathFor(file: string): string {
  return `${file}.bak`;
}

export function lockPathFor(file: string): string {
  return `${file}.lock`;
}

export function readEnvSnapshot(file: string = envFilePath()): EnvSnapshot {
  return readWithBytes(file).snapshot;
}

function readWithBytes(file: string): { snapshot: EnvSnapshot; bytes: Buffer | null } {
  let fd: number;
  try {
    fd = fs.openSync(file, "r");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    const snapshot = { file, exists: false, content: "", values: {}, version: MISSING_VERSION, updatedAt: null };
    return { snapshot, bytes: null };
  }
  try {
    // Stat and bytes come from the same open file, so the version always describes these bytes.
    const stat = fs.fstatSync(fd, { bigint: true });
    const bytes = fs.readFileSync(fd);
    const content = bytes.toString("utf8");
    const snapshot = {
      file,
      exists: true,
      content,
      values: parseEnv(content),
      version: `${stat.mtimeNs}:${createHash("sha256").update(bytes).digest("hex")}`,
      updatedAt: new Date(Number(stat.mtimeMs)).toISOString(),
    };
    return { snapshot, bytes };
  } finally {
    fs.closeSync(fd);
  }
}

export function versionConflict(currentVersion: string): ApiError {
  return ApiError.of("config_version_conflict", "The configuration changed since it was read; reload and try again", {
    current_config_version: currentVersion,
  });
}

/**
 * Reads the file, checks the expected version, asks `plan` for the updates, writes them (atomically, with
 * a backup of the previous file in `<file>.bak`) and re-reads settings. `plan` may throw to abort; then
 * nothing is written.
 */
export async function updateEnvFile<T>(
  options: EnvUpdateOptions,
  plan: (current: EnvSnapshot) => EnvUpdatePlan<T>,
): Promise<EnvUpdateOutcome<T>> {
  const file = path.resolve(options.file ?? envFilePath());
  fs.mkdirSync(path.dirname(file), { recursive: true }); // the lock file lives beside the env file
  const outcome = await withProcessMutex(`env-file:${file}`, () =>
    withFileLock(lockPathFor(file), () => writeLocked(file, options, plan)),
  );
  const live = file === envFilePath();
  if (!outcome.written || options.reload === false || !live) return outcome;
  try {
    reloadSettings();
    return { ...outcome, reloaded: true };
  } catch (error) {
    return { ...outcome, reloadError: (error as Error).message };
  }
}

function writeLocked<T>(file: string, options: EnvUpdateOptions, plan: (current: EnvSnapshot) => EnvUpdatePlan<T>): EnvUpdateOutcome<T> {
  const { snapshot: before, bytes } = readWithBytes(file);
  if (options.expectedVersion !== undefined && options.expectedVersion !== before.version) {
    throw versionConflict(before.version);
  }
  const { updates, result } = plan(before);
  const unchanged = { before, after: before, written: false, inPlace: false, reloaded: false, result };
  if (Object.keys(updates).length === 0) return unchanged;
  if (bytes && !Buffer.from(before.content, "utf8").equals(bytes)) {
    // Editing decoded text would silently rewrite the undecodable bytes.
    throw new Error(`${file} is not valid UTF-8 text; fix it by hand before saving settings`);
  }
  const next = applyEnvUpdates(before.content, updates);
  if (before.exists && next === before.content) return unchanged;

  // Writes go to the real file behind a symlink, so the link itself survives.
  const target = before.exists ? fs.realpathSync(file) : file;
  removeLeftoverTempFiles(target);
  const mode = before.exists ? fs.statSync(target).mode & 0o777 : 0o600;
  if (bytes) writeFileAtomic(backupPathFor(target), bytes, mode);
  const { inPlace } = writeFileAtomic(target, next, mode);
  return { before, after: readEnvSnapshot(file), written: true, inPlace, reloaded: false, result };
}
