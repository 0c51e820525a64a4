import fs from "node:fs";
import path from "node:path";
import dotenv from "dotenv";
import { LAUNCH_KEYS, ZSettings, type TSettings } from "./settings-schema";

// The only reader of process.env and the env file. Precedence, lowest first: schema defaults, process
// environment, the live store the settings API edits (so its writes take effect), except the launch keys,
// where the process environment wins. The live store is the env file; with PostgreSQL it is the config
// document (the env text in one database row, config-document.ts), installed here by config-sync.ts and
// by this process's own writes. Launch keys never come from the document: they are needed to find the
// database in the first place, so they stay with the process environment and the env file.
type Source = Record<string, string | undefined>;

/** The PostgreSQL config document as this process last saw it, for the database it was read from. */
export interface InstalledConfigDocument {
  /** The raw DATABASE_URL setting it was read through; another database (a test switching) ignores it. */
  databaseUrl: string;
  text: string;
  revision: number;
  updatedAt: Date;
  values: Record<string, string>;
}

interface Loaded {
  settings: TSettings;
  fileValues: Record<string, string>;
  /** The live store's values: the document's when one is installed for this database, else the file's. */
  storedValues: Record<string, string>;
  fileStamp: string;
  checkedAt: number;
}

interface SharedState {
  loaded: Loaded | null;
  environment: Source;
  document?: InstalledConfigDocument | null;
}

const RECHECK_MS = 1000;
// Next bundles the proxy, route handlers and server components as separate module instances in one
// process; keeping the state on globalThis gives them one view of the settings, so a change seen by the
// API is seen by the pages in the same instant.
const state = globalThis as typeof globalThis & { dsaSettings?: SharedState };
const shared = (state.dsaSettings ??= { loaded: null, environment: process.env, document: null });

export function envFilePath(env: Source = shared.environment): string {
  const raw = env.ENV_FILE && env.ENV_FILE.trim() !== "" ? env.ENV_FILE : "./.env";
  return path.resolve(raw);
}

function stampOf(file: string): string {
  try {
    const st = fs.statSync(file);
    return `${st.mtimeMs}:${st.size}`;
  } catch {
    return "missing";
  }
}

function readEnvFile(file: string): Record<string, string> {
  try {
    return dotenv.parse(fs.readFileSync(file));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return {};
    throw error;
  }
}

function load(): Loaded {
  const file = envFilePath();
  const fileStamp = stampOf(file);
  const fileValues = readEnvFile(file);
  const document = documentFor(fileValues);
  const storedValues = document?.values ?? fileValues;
  const merged: Record<string, string | undefined> = {};
  for (const key of Object.keys(ZSettings.shape)) merged[key] = pick(key, fileValues, storedValues);
  const parsed = ZSettings.safeParse(merged);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new Error(`Invalid settings (${document ? "the database's config document" : file}): ${problems}`);
  }
  return { settings: parsed.data, fileValues, storedValues, fileStamp, checkedAt: Date.now() };
}

const isLaunchKey = (key: string) => (LAUNCH_KEYS as readonly string[]).includes(key);

function pick(
  key: string,
  fileValues: Record<string, string>,
  storedValues: Record<string, string>,
): string | undefined {
  const fromEnv = blankToUndefined(shared.environment[key]);
  if (isLaunchKey(key)) return fromEnv ?? blankToUndefined(fileValues[key]);
  return blankToUndefined(storedValues[key]) ?? fromEnv;
}

function documentFor(fileValues: Record<string, string>): InstalledConfigDocument | null {
  const document = shared.document ?? null;
  if (!document) return null;
  return document.databaseUrl === (pick("DATABASE_URL", fileValues, fileValues) ?? "") ? document : null;
}

function blankToUndefined(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value;
}

function current(): Loaded {
  if (!shared.loaded) {
    shared.loaded = load();
    return shared.loaded;
  }
  // A hand edit of the env file is picked up within a second without a restart.
  if (Date.now() - shared.loaded.checkedAt > RECHECK_MS) {
    shared.loaded.checkedAt = Date.now();
    if (stampOf(envFilePath()) !== shared.loaded.fileStamp) shared.loaded = load();
  }
  return shared.loaded;
}

export function getSettings(): Readonly<TSettings> {
  return current().settings;
}

/** Raw value of any key, typed or not (the config API lists unknown keys too). */
export function getRawSetting(key: string): string | undefined {
  const loaded = current();
  return pick(key, loaded.fileValues, loaded.storedValues);
}

/** The process environment's own value of a key (blank: undefined), for writers that merge it with the env file's fresh value. */
export function environmentSetting(key: string): string | undefined {
  return blankToUndefined(shared.environment[key]);
}

/** Every key with a value in effect: the typed settings, the live store's keys, and LLM channel keys from the environment. */
export function rawSettingKeys(): string[] {
  const keys = new Set([...Object.keys(ZSettings.shape), ...Object.keys(current().storedValues)]);
  for (const key of Object.keys(shared.environment)) if (key.startsWith("LLM_")) keys.add(key);
  return [...keys].filter((key) => getRawSetting(key) !== undefined);
}

/** Re-read the env file now (the config API calls this after a write). */
export function reloadSettings(): Readonly<TSettings> {
  shared.loaded = load();
  return shared.loaded.settings;
}

/**
 * Makes `document` the live store's values from now on, unless this process already holds the same or a
 * newer revision of it (a slow read must not undo a newer write). Throws, keeping the previous settings,
 * when its values do not parse. Returns whether it was installed.
 */
export function installConfigDocument(document: InstalledConfigDocument): boolean {
  const previous = shared.document ?? null;
  if (previous && previous.databaseUrl === document.databaseUrl && previous.revision >= document.revision) return false;
  shared.document = document;
  try {
    shared.loaded = load();
  } catch (error) {
    shared.document = previous;
    throw error;
  }
  return true;
}

/** The config document installed for the database this process now uses, if any. */
export function installedConfigDocument(): InstalledConfigDocument | null {
  return documentFor(current().fileValues);
}

/** Tests swap the environment instead of mutating process.env (and start without a config document). */
export function setEnvironmentForTests(env: Source): void {
  shared.environment = env;
  shared.loaded = null;
  shared.document = null;
}
