import fs from "node:fs";
import path from "node:path";
import dotenv from "dotenv";
import { LAUNCH_KEYS, ZSettings, type TSettings } from "./settings-schema";

// The only reader of process.env and the env file. Precedence, lowest first: schema defaults, process
// environment, env file (the live store the settings API edits, so its writes take effect), except the
// launch keys, where the process environment wins.
type Source = Record<string, string | undefined>;

interface Loaded {
  settings: TSettings;
  fileValues: Record<string, string>;
  fileStamp: string;
  checkedAt: number;
}

const RECHECK_MS = 1000;
// Next bundles the proxy, route handlers and server components as separate module instances in one
// process; keeping the state on globalThis gives them one view of the settings, so a change seen by the
// API is seen by the pages in the same instant.
const state = globalThis as typeof globalThis & { dsaSettings?: { loaded: Loaded | null; environment: Source } };
const shared = (state.dsaSettings ??= { loaded: null, environment: process.env });

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
  const merged: Record<string, string | undefined> = {};
  for (const key of Object.keys(ZSettings.shape)) merged[key] = pick(key, fileValues);
  const parsed = ZSettings.safeParse(merged);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new Error(`Invalid settings (${file}): ${problems}`);
  }
  return { settings: parsed.data, fileValues, fileStamp, checkedAt: Date.now() };
}

function pick(key: string, fileValues: Record<string, string>): string | undefined {
  const fromEnv = blankToUndefined(shared.environment[key]);
  const fromFile = blankToUndefined(fileValues[key]);
  const launchKey = (LAUNCH_KEYS as readonly string[]).includes(key);
  return launchKey ? (fromEnv ?? fromFile) : (fromFile ?? fromEnv);
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
  return pick(key, current().fileValues);
}

/** The process environment's own value of a key (blank: undefined), for writers that merge it with the env file's fresh value. */
export function environmentSetting(key: string): string | undefined {
  return blankToUndefined(shared.environment[key]);
}

/** Every key with a value in effect: the typed settings, the env file's keys, and LLM channel keys from the environment. */
export function rawSettingKeys(): string[] {
  const keys = new Set([...Object.keys(ZSettings.shape), ...Object.keys(current().fileValues)]);
  for (const key of Object.keys(shared.environment)) if (key.startsWith("LLM_")) keys.add(key);
  return [...keys].filter((key) => getRawSetting(key) !== undefined);
}

/** Re-read the env file now (the config API calls this after a write). */
export function reloadSettings(): Readonly<TSettings> {
  shared.loaded = load();
  return shared.loaded.settings;
}

/** Tests swap the environment instead of mutating process.env. */
export function setEnvironmentForTests(env: Source): void {
  shared.environment = env;
  shared.loaded = null;
}
