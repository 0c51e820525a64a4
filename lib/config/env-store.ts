import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { activeDatabaseKind } from "@/lib/db/raw-sql";
import { removeLeftoverTempFiles, writeFileAtomic } from "./atomic-write";
import { applyEnvUpdates, parseEnv } from "./env-file";
import {
  documentSnapshot,
  MISSING_VERSION,
  versionConflict,
  type EnvSnapshot,
  type EnvUpdateOptions,
  type EnvUpdateOutcome,
  type EnvUpdatePlan,
} from "./env-snapshot";
import { withFileLock, withProcessMutex } from "./file-lock";
import { envFilePath, installedConfigDocument, reloadSettings } from "@/lib/settings/settings";

// The config store. SQLite installs keep the env file named by ENV_FILE: reads give the text, the parsed
// values and a version token; writes run "check version → compute → write → back up" under the process
// mutex and the cross-process lock (proper-lockfile), with write-file-atomic replacing the file, so two
// writers holding the same version can never both succeed and no reader sees half a file. With PostgreSQL
// the same text lives in the config document row instead (config-document.ts), which every replica shares;
// its module is loaded only then, so the file path never loads the database client.

export { MISSING_VERSION, versionConflict };
export type { EnvSnapshot, EnvUpdateOptions, EnvUpdateOutcome, EnvUpdatePlan };

/** True when the live store is the database's config document rather than the env file. */
export function usesConfigDocument(): boolean {
  return activeDatabaseKind() === "postgres";
}

/** The live store's text, values and version, read now (the env file, or the config document row). */
export async function readConfigSnapshot(): Promise<EnvSnapshot> {
  if (!usesConfigDocument()) return readEnvSnapshot();
  const { readConfigDocumentSnapshot } = await import("./config-document");
  return readConfigDocumentSnapshot();
}

/**
 * The live store as this process holds it, without waiting: the env file, or with PostgreSQL the config
 * document as last installed (this process's own writes at once, other replicas' within about a second).
 * A write is checked against the row itself, so a version read here that is already stale gets the 409.
 */
export function currentConfigSnapshot(): EnvSnapshot {
  if (!usesConfigDocument()) return readEnvSnapshot();
  const document = installedConfigDocument();
  if (!document) throw new Error("The configuration has not been loaded from the database yet (startConfigSync)");
  return documentSnapshot(document);
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
    const snapshot: EnvSnapshot = {
      store: "file",
      file,
      exists: false,
      content: "",
      values: {},
      version: MISSING_VERSION,
      updatedAt: null,
    };
    return { snapshot, bytes: null };
  }
  try {
    // Stat and bytes come from the same open file, so the version always describes these bytes.
    const stat = fs.fstatSync(fd, { bigint: true });
    const bytes = fs.readFileSync(fd);
    const content = bytes.toString("utf8");
    const snapshot: EnvSnapshot = {
      store: "file",
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

/**
 * Reads the live store, checks the expected version, asks `plan` for the updates, writes them and re-reads
 * settings. The env file is written atomically, with a backup of the previous file in `<file>.bak`; with
 * PostgreSQL (and no `file` given) the config document row is written instead. `plan` may throw to abort;
 * then nothing is written.
 */
export async function updateEnvFile<T>(
  options: EnvUpdateOptions,
  plan: (current: EnvSnapshot) => EnvUpdatePlan<T>,
): Promise<EnvUpdateOutcome<T>> {
  if (options.file === undefined && usesConfigDocument()) {
    const { updateConfigDocument } = await import("./config-document");
    return updateConfigDocument(options, plan);
  }
  const file = path.resolve(options.file ?? envFilePath());
  fs.mkdirSync(path.dirname(file), { recursive: true }); // the lock lives beside the env file
  const outcome = await withProcessMutex(`env-file:${file}`, () =>
    withFileLock(lockPathFor(file), () => writeLocked(file, options, plan), { staleMs: options.lockStaleMs }),
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

function writeLocked<T>(
  file: string,
  options: EnvUpdateOptions,
  plan: (current: EnvSnapshot) => EnvUpdatePlan<T>,
): EnvUpdateOutcome<T> {
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
  removeLeftoverTempFiles(backupPathFor(target));
  const mode = before.exists ? fs.statSync(target).mode & 0o777 : 0o600;
  if (bytes) writeFileAtomic(backupPathFor(target), bytes, mode);
  const { inPlace } = writeFileAtomic(target, next, mode);
  return { before, after: readEnvSnapshot(file), written: true, inPlace, reloaded: false, result };
}
