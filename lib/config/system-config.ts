import "server-only";
import { ApiError } from "@/lib/errors/api-error";
import { ENV_KEY_PATTERN, formatEnvValue, parseEnv } from "./env-file";
import {
  currentConfigSnapshot,
  readConfigSnapshot,
  updateEnvFile,
  type EnvSnapshot,
  type EnvUpdateOutcome,
} from "./env-store";
import {
  channelKeyPart,
  channelKeys,
  configFields,
  configSchemaWire,
  fieldFor,
  fieldSchemaWire,
  llmChannelOf,
  normalizeValue,
  sortFields,
  validateValue,
  type ConfigIssue,
} from "./schema";
import type {
  TImportSystemConfigRequest,
  TSystemConfigItem,
  TSystemConfigResponse,
  TSystemConfigSchemaResponse,
  TSystemConfigUpdateItem,
  TUpdateSystemConfigRequest,
  TUpdateSystemConfigResponse,
  TValidateSystemConfigRequest,
  TValidateSystemConfigResponse,
  TExportSystemConfigResponse,
} from "./schemas";
import { isMaskValue, MASK_TOKEN } from "./mask";
import { literalHostRefusal, literalOutboundRefusal } from "@/lib/net/outbound-policy";
import { getSettings } from "@/lib/settings/settings";

// The system configuration service (spec 4.4): read with secrets masked, validate, update by key with
// optimistic version control, export and import the env file. The env text lives in the env file, or with
// PostgreSQL in the config document row (env-store.ts picks); both give the same text and the same 409.

export { MASK_TOKEN } from "./mask";

// ---- read

// Synchronous for the settings page: with PostgreSQL it is this replica's copy of the row (its own writes at
// once, others' within a second); a PUT with a version that is already stale still gets the 409.
export function getSystemConfig(options: { includeSchema: boolean }): TSystemConfigResponse {
  const snapshot = currentConfigSnapshot();
  const items = listedKeys(snapshot).map((key) => configItem(key, snapshot, options.includeSchema));
  return {
    config_version: snapshot.version,
    mask_token: MASK_TOKEN,
    items,
    ...(snapshot.updatedAt ? { updated_at: snapshot.updatedAt } : {}),
  };
}

/** Every schema key, the keys of each declared LLM channel, then the file's other keys in file order. */
function listedKeys(snapshot: EnvSnapshot): string[] {
  const keys = new Set(sortFields([...configFields()]).map((f) => f.key));
  for (const name of splitNames(snapshot.values.LLM_CHANNELS)) {
    for (const key of channelKeys(name)) keys.add(key);
  }
  for (const key of Object.keys(snapshot.values)) keys.add(key);
  return [...keys];
}

function splitNames(value: string | undefined): string[] {
  return (value ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
}

function configItem(key: string, snapshot: EnvSnapshot, includeSchema: boolean): TSystemConfigItem {
  const { field } = fieldFor(key);
  const exists = Object.hasOwn(snapshot.values, key);
  const raw = exists ? (snapshot.values[key] ?? "") : "";
  const masked = Boolean(field.sensitive) && raw !== "";
  const item: TSystemConfigItem = {
    key,
    value: masked ? MASK_TOKEN : raw,
    raw_value_exists: exists,
    is_masked: masked,
  };
  if (includeSchema) item.schema = fieldSchemaWire(field);
  return item;
}

export function getSystemConfigSchema(): TSystemConfigSchemaResponse {
  return configSchemaWire();
}

// ---- validation shared by validate, update and import

type Mode = "validate" | "update" | "import";

interface Resolution {
  /** Normalised values to write, in request order (a key given twice keeps its last value). */
  values: Map<string, string>;
  issues: ConfigIssue[];
  skippedMasked: number;
}

/**
 * Turns submitted items into the values to write, with every issue found. A mask on a sensitive key that
 * has a stored value keeps that value; read-only keys are refused (update, validate) or skipped (import)
 * unless the value is unchanged; unknown keys are accepted with a warning.
 */
function resolveItems(
  items: readonly TSystemConfigUpdateItem[],
  stored: Record<string, string>,
  mode: Mode,
  maskToken: string,
): Resolution {
  const values = new Map<string, string>();
  const issues: ConfigIssue[] = [];
  const seen = new Set<string>();
  let skippedMasked = 0;
  for (const { key, value: submitted } of items) {
    if (!ENV_KEY_PATTERN.test(key) || key === "__proto__") {
      issues.push({
        key,
        code: "invalid_key",
        message: `"${key}" is not a valid env key (letters, digits and _ . -, not starting with a digit)`,
        severity: "error",
      });
      continue;
    }
    if (seen.has(key))
      issues.push(warning(key, "duplicate_key", `${key} is given more than once; the last value is used`));
    seen.add(key);
    values.delete(key);

    const { field, known } = fieldFor(key);
    const storedValue = Object.hasOwn(stored, key) ? (stored[key] ?? "") : undefined;
    if (field.sensitive && isMaskValue(submitted, maskToken)) {
      if (storedValue) skippedMasked++;
      else
        issues.push(
          warning(key, "mask_without_value", `${key} was sent as the mask but has no stored value; it is left unset`),
        );
      continue;
    }
    const value = normalizeValue(key, submitted);
    if (field.editable === false) {
      if (value === (storedValue ?? "") || (storedValue === undefined && value === field.default)) continue;
      if (mode === "import") {
        issues.push(
          warning(
            key,
            "read_only_skipped",
            `${key} cannot be changed through the config API; the imported value is skipped`,
          ),
        );
      } else {
        issues.push({
          key,
          code: "read_only",
          message: `${key} cannot be changed through the config API`,
          severity: "error",
        });
      }
      continue;
    }
    if (!known) {
      const hint =
        key !== key.toUpperCase() && fieldFor(key.toUpperCase()).known ? ` (did you mean ${key.toUpperCase()}?)` : "";
      issues.push(
        warning(key, "unknown_key", `${key} is not a setting this service knows; it is kept as it is${hint}`),
      );
    }
    if (value !== submitted) {
      const shown = field.sensitive ? {} : { expected: value, actual: submitted };
      issues.push({
        ...warning(
          key,
          "normalized",
          `${key} is saved as ${field.sensitive ? "a normalised value" : JSON.stringify(value)}`,
        ),
        ...shown,
      });
    }
    issues.push(...validateValue(key, value));
    if (formatEnvValue(value) === null) {
      issues.push({
        key,
        code: "unrepresentable_value",
        message: `${key} holds quote characters that an env file cannot store together with "#"`,
        severity: "error",
      });
    }
    values.set(key, value);
  }
  issues.push(...crossFieldIssues(values, stored));
  return { values, issues, skippedMasked };
}

function warning(key: string, code: string, message: string): ConfigIssue {
  return { key, code, message, severity: "warning" };
}

function crossFieldIssues(values: Map<string, string>, stored: Record<string, string>): ConfigIssue[] {
  const effective = (key: string) => values.get(key) ?? stored[key] ?? "";
  const issues: ConfigIssue[] = [];
  const declared = new Set(splitNames(effective("LLM_CHANNELS")).map(channelKeyPart));
  for (const [key, value] of values) {
    const channel = llmChannelOf(key);
    if (channel !== undefined && value !== "" && !declared.has(channel)) {
      issues.push(
        warning(
          key,
          "channel_not_declared",
          `${key} belongs to channel ${channel}, which LLM_CHANNELS does not list; it is not used`,
        ),
      );
    }
  }
  issues.push(...outboundIssues(values, effective));
  const share = effective("SHARE_IMAGE_MAX_CHARS");
  const legacy = effective("MARKDOWN_TO_IMAGE_MAX_CHARS");
  if (
    (values.has("SHARE_IMAGE_MAX_CHARS") || values.has("MARKDOWN_TO_IMAGE_MAX_CHARS")) &&
    share &&
    legacy &&
    share !== legacy
  ) {
    issues.push(
      warning(
        "MARKDOWN_TO_IMAGE_MAX_CHARS",
        "alias_conflict",
        `SHARE_IMAGE_MAX_CHARS (${share}) is used; MARKDOWN_TO_IMAGE_MAX_CHARS (${legacy}) is ignored`,
      ),
    );
  }
  return issues;
}

// Keys whose values are URLs the service calls (webhooks, push servers, LLM and API base URLs); the public
// base URL and the database are not called.
const OUTBOUND_KEY = /(?:_URL|_URLS|_BASE_URL)$/;
const NOT_OUTBOUND = new Set(["PUBLIC_BASE_URL", "DATABASE_URL"]);
// Keys naming a server the service connects to by host alone.
const OUTBOUND_HOST_KEYS = new Set(["EMAIL_SMTP_HOST"]);
const FLAG_ON = /^(?:true|1|yes|on)$/i;

/**
 * The outbound policy (lib/net/outbound-policy.ts) on the URLs being saved, from their text: a loopback,
 * link-local, private or metadata destination is an error unless OUTBOUND_ALLOW_PRIVATE is on (as saved
 * with them, else as running). Names are resolved again at every send.
 */
function outboundIssues(values: Map<string, string>, effective: (key: string) => string): ConfigIssue[] {
  const saved = values.has("OUTBOUND_ALLOW_PRIVATE") || effective("OUTBOUND_ALLOW_PRIVATE") !== "";
  const allowPrivate = saved ? FLAG_ON.test(effective("OUTBOUND_ALLOW_PRIVATE")) : getSettings().OUTBOUND_ALLOW_PRIVATE;
  const issues: ConfigIssue[] = [];
  const refuse = (key: string, refusal: string) =>
    issues.push({
      key,
      code: "outbound_refused",
      message: `${key}: this destination is refused: ${refusal}`,
      severity: "error",
    });
  for (const [key, value] of values) {
    if (OUTBOUND_HOST_KEYS.has(key)) {
      const refusal = value.trim() === "" ? null : literalHostRefusal(value.trim(), allowPrivate);
      if (refusal) refuse(key, refusal);
      continue;
    }
    if (!OUTBOUND_KEY.test(key) || NOT_OUTBOUND.has(key)) continue;
    for (const url of value.split(/[,\uFF0C\s]+/).filter((part) => /^[a-z][a-z0-9+.-]*:/i.test(part))) {
      const refusal = literalOutboundRefusal(url, allowPrivate);
      if (refusal) {
        refuse(key, refusal);
        break;
      }
    }
  }
  return issues;
}

const hasErrors = (issues: readonly ConfigIssue[]) => issues.some((i) => i.severity === "error");

function validationFailed(issues: ConfigIssue[]): ApiError {
  const errors = issues.filter((i) => i.severity === "error");
  const first = errors[0];
  const summary = first ? `${first.key}: ${first.message}` : "invalid configuration";
  return ApiError.of(
    "validation_failed",
    `Configuration validation failed (${errors.length} error${errors.length === 1 ? "" : "s"}; ${summary})`,
    { issues },
  );
}

export async function validateSystemConfig(body: TValidateSystemConfigRequest): Promise<TValidateSystemConfigResponse> {
  const stored = (await readConfigSnapshot()).values;
  const { issues } = resolveItems(body.items, stored, "validate", body.mask_token);
  return { valid: !hasErrors(issues), issues };
}

// ---- write

interface WriteResult {
  appliedKeys: string[];
  skippedMasked: number;
  warnings: string[];
}

async function applyItems(
  items: readonly TSystemConfigUpdateItem[],
  options: { configVersion: string; reloadNow: boolean; mode: Mode; maskToken: string },
): Promise<TUpdateSystemConfigResponse> {
  const outcome = await updateEnvFile<WriteResult>(
    { expectedVersion: options.configVersion, reload: options.reloadNow },
    (current) => {
      const { values, issues, skippedMasked } = resolveItems(items, current.values, options.mode, options.maskToken);
      if (hasErrors(issues)) throw validationFailed(issues);
      const updates: Record<string, string> = {};
      for (const [key, value] of values) {
        const storedValue = Object.hasOwn(current.values, key) ? current.values[key] : undefined;
        // Unchanged values and blanks for absent keys are not written (blank already means unset).
        if (value === storedValue || (storedValue === undefined && value === "")) continue;
        updates[key] = value;
      }
      const warnings = issues.map((i) => i.message);
      return { updates, result: { appliedKeys: Object.keys(updates), skippedMasked, warnings } };
    },
  );
  return updateResponse(outcome);
}

function updateResponse(outcome: EnvUpdateOutcome<WriteResult>): TUpdateSystemConfigResponse {
  const warnings = [...outcome.result.warnings];
  if (outcome.inPlace)
    warnings.push("The env file could not be replaced atomically (bind mount?) and was rewritten in place");
  if (outcome.reloadError) warnings.push(`Saved, but reloading settings failed: ${outcome.reloadError}`);
  return {
    success: true,
    config_version: outcome.after.version,
    applied_count: outcome.result.appliedKeys.length,
    skipped_masked_count: outcome.result.skippedMasked,
    reload_triggered: outcome.reloaded,
    updated_keys: outcome.result.appliedKeys,
    warnings,
  };
}

export function updateSystemConfig(body: TUpdateSystemConfigRequest): Promise<TUpdateSystemConfigResponse> {
  return applyItems(body.items, {
    configVersion: body.config_version,
    reloadNow: body.reload_now,
    mode: "update",
    maskToken: body.mask_token,
  });
}

// ---- export / import (spec 5: both 403 while admin auth is off)

function assertBackupAllowed(): void {
  if (!getSettings().ADMIN_AUTH_ENABLED) {
    throw ApiError.of(
      "env_backup_access_denied",
      "Export and import of the env file are only available when admin authentication is enabled",
    );
  }
}

export async function exportSystemConfig(): Promise<TExportSystemConfigResponse> {
  assertBackupAllowed();
  // Byte for byte the env file's text (with PostgreSQL, the row's text, which is what the file would hold).
  const snapshot = await readConfigSnapshot();
  return {
    content: snapshot.content,
    config_version: snapshot.version,
    ...(snapshot.updatedAt ? { updated_at: snapshot.updatedAt } : {}),
  };
}

export function importSystemConfig(body: TImportSystemConfigRequest): Promise<TUpdateSystemConfigResponse> {
  assertBackupAllowed();
  const values = body.content.trim() === "" ? {} : parseEnv(body.content);
  const items = Object.entries(values).map(([key, value]) => ({ key, value }));
  if (items.length === 0) {
    throw ApiError.of("invalid_import_file", "The import holds no KEY=VALUE line");
  }
  return applyItems(items, {
    configVersion: body.config_version,
    reloadNow: body.reload_now,
    mode: "import",
    maskToken: MASK_TOKEN,
  });
}
