import { getRawSetting } from "@/lib/settings/settings";
import { channelKeyPart } from "@/lib/config/schema";

// The LLM channels configured in settings, in the order they are tried (docs/api.md §8).
//
// - `LLM_CHANNELS=a,b` with `LLM_<CH>_PROTOCOL`, `_BASE_URL`, `_API_KEY` (or `_API_KEYS`, comma list),
//   `_MODELS` (comma list: primary first, then fallbacks) and `_ENABLED`.
// - When no usable channel is listed there, the simple forms: `OPENAI_API_KEY` (+ `OPENAI_BASE_URL`,
//   `OPENAI_MODEL`, which may also be a comma list) and then `DEEPSEEK_API_KEY`.
// - No channel at all: the service runs rule-based only (`llmConfigured() === false`).
//
// Protocols. Only the chat-completions wire format is spoken (the AI SDK's OpenAI providers):
// - `openai` (createOpenAI + provider.chat): structured output through `response_format: json_schema`.
// - `openai-compatible` (createOpenAICompatible, supportsStructuredOutputs false): `json_object` mode with
//   the schema described in the prompt. The reference's deepseek, ollama, gemini and anthropic protocols
//   map here (each offers an OpenAI-compatible chat endpoint); so does any unknown protocol name, the
//   conservative choice, since every such endpoint accepts plain JSON mode.
// Secrets stay in this structure: nothing here is logged, and attempts/diagnostics carry channel names only.

export type LlmProtocol = "openai" | "openai-compatible";

export interface LlmChannel {
  /** Name as written in LLM_CHANNELS (or "openai" / "deepseek" for the simple forms). Safe to show. */
  name: string;
  baseURL: string;
  /** First key; `apiKeys` holds all of them (LLM_<CH>_API_KEYS rotates). Empty only for keyless local servers. */
  apiKey: string;
  apiKeys: string[];
  /** Primary first, then fallbacks. */
  models: string[];
  protocol: LlmProtocol;
  /** The protocol as configured (openai, deepseek, ollama, …), for diagnostics. */
  configuredProtocol: string;
}

/** A configured channel that cannot be used, with the reason (no secrets). */
export interface LlmChannelProblem {
  channel: string;
  reason: string;
}

export interface LlmChannelConfig {
  channels: LlmChannel[];
  problems: LlmChannelProblem[];
  source: "channels" | "simple" | "none";
}

type Reader = (key: string) => string | undefined;

const OPENAI_BASE_URL = "https://api.openai.com/v1";
const DEEPSEEK_BASE_URL = "https://api.deepseek.com";
const OPENAI_DEFAULT_MODEL = "gpt-4o-mini";
const DEEPSEEK_DEFAULT_MODEL = "deepseek-chat";

export const DEFAULT_BASE_URL: Readonly<Record<string, string>> = {
  openai: OPENAI_BASE_URL,
  deepseek: DEEPSEEK_BASE_URL,
  ollama: "http://127.0.0.1:11434/v1",
  gemini: "https://generativelanguage.googleapis.com/v1beta/openai",
  anthropic: "https://api.anthropic.com/v1",
};

const DEFAULT_MODELS: Record<string, string[]> = {
  openai: [OPENAI_DEFAULT_MODEL],
  deepseek: [DEEPSEEK_DEFAULT_MODEL],
};

/** Protocols whose servers do not need a key. */
export const KEYLESS: ReadonlySet<string> = new Set(["ollama"]);

const FALSY = new Set(["0", "false", "no", "off"]);

/** Comma lists as users paste them: ASCII or full-width commas, new lines, stray spaces. */
export function splitList(value: string | undefined): string[] {
  if (!value) return [];
  return value
    .split(/[,，\n;；]/)
    .map((s) => s.trim())
    .filter((s) => s !== "");
}

function trimmed(read: Reader, key: string): string | undefined {
  const v = read(key)?.trim();
  return v ? v : undefined;
}

export function wireProtocol(configured: string): LlmProtocol {
  return configured === "openai" ? "openai" : "openai-compatible";
}

export function normaliseBaseUrl(url: string): string {
  return url.replace(/\/+$/, "");
}

function validUrl(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === "http:" || u.protocol === "https:";
  } catch {
    return false;
  }
}

function fromChannelList(read: Reader, problems: LlmChannelProblem[]): LlmChannel[] {
  const channels: LlmChannel[] = [];
  const seen = new Set<string>();
  for (const name of splitList(read("LLM_CHANNELS"))) {
    const part = channelKeyPart(name);
    if (seen.has(part)) continue;
    seen.add(part);
    const key = (suffix: string) => `LLM_${part}_${suffix}`;
    const enabled = trimmed(read, key("ENABLED"));
    if (enabled && FALSY.has(enabled.toLowerCase())) continue;

    const configuredProtocol = (trimmed(read, key("PROTOCOL")) ?? "openai").toLowerCase().replace(/_/g, "-");
    const baseURL = trimmed(read, key("BASE_URL")) ?? DEFAULT_BASE_URL[configuredProtocol];
    const apiKeys = [...splitList(read(key("API_KEY"))), ...splitList(read(key("API_KEYS")))];
    const models = splitList(read(key("MODELS")));
    if (models.length === 0) models.push(...(DEFAULT_MODELS[configuredProtocol] ?? []));

    if (!baseURL) problems.push({ channel: name, reason: `${key("BASE_URL")} is not set` });
    else if (!validUrl(baseURL)) problems.push({ channel: name, reason: `${key("BASE_URL")} is not an http(s) URL` });
    else if (models.length === 0) problems.push({ channel: name, reason: `${key("MODELS")} is not set` });
    else if (apiKeys.length === 0 && !KEYLESS.has(configuredProtocol)) {
      problems.push({ channel: name, reason: `${key("API_KEY")} is not set` });
    } else {
      channels.push({
        name,
        baseURL: normaliseBaseUrl(baseURL),
        apiKey: apiKeys[0] ?? "",
        apiKeys: [...new Set(apiKeys)],
        models: [...new Set(models)],
        protocol: wireProtocol(configuredProtocol),
        configuredProtocol,
      });
    }
  }
  return channels;
}

function fromSimpleKeys(read: Reader, problems: LlmChannelProblem[]): LlmChannel[] {
  const channels: LlmChannel[] = [];
  const openaiKey = trimmed(read, "OPENAI_API_KEY");
  if (openaiKey) {
    const baseURL = trimmed(read, "OPENAI_BASE_URL") ?? OPENAI_BASE_URL;
    const models = splitList(read("OPENAI_MODEL"));
    if (!validUrl(baseURL)) problems.push({ channel: "openai", reason: "OPENAI_BASE_URL is not an http(s) URL" });
    else {
      channels.push({
        name: "openai",
        baseURL: normaliseBaseUrl(baseURL),
        apiKey: openaiKey,
        apiKeys: [openaiKey],
        models: models.length > 0 ? [...new Set(models)] : [OPENAI_DEFAULT_MODEL],
        protocol: "openai",
        configuredProtocol: "openai",
      });
    }
  }
  const deepseekKey = trimmed(read, "DEEPSEEK_API_KEY");
  if (deepseekKey) {
    channels.push({
      name: "deepseek",
      baseURL: DEEPSEEK_BASE_URL,
      apiKey: deepseekKey,
      apiKeys: [deepseekKey],
      models: [DEEPSEEK_DEFAULT_MODEL],
      protocol: "openai-compatible",
      configuredProtocol: "deepseek",
    });
  }
  return channels;
}

/** The channels from a key reader (settings by default), with the reasons configured ones were skipped. */
export function readLlmChannelConfig(read: Reader = getRawSetting): LlmChannelConfig {
  const problems: LlmChannelProblem[] = [];
  const listed = fromChannelList(read, problems);
  if (listed.length > 0) return { channels: listed, problems, source: "channels" };
  const simple = fromSimpleKeys(read, problems);
  if (simple.length > 0) return { channels: simple, problems, source: "simple" };
  return { channels: [], problems, source: "none" };
}

export function llmChannels(read: Reader = getRawSetting): LlmChannel[] {
  return readLlmChannelConfig(read).channels;
}

/** False: no usable channel, the service writes rule-based reports only. */
export function llmConfigured(read: Reader = getRawSetting): boolean {
  return llmChannels(read).length > 0;
}

/** What may be shown about the channels (status pages, diagnostics): names, protocols, models, no keys or URLs' credentials. */
export function describeLlmChannels(read: Reader = getRawSetting) {
  const config = readLlmChannelConfig(read);
  return {
    source: config.source,
    channels: config.channels.map((c) => ({
      name: c.name,
      protocol: c.protocol,
      configured_protocol: c.configuredProtocol,
      host: safeHost(c.baseURL),
      models: c.models,
      keys: c.apiKeys.length,
    })),
    problems: config.problems,
  };
}

function safeHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return "";
  }
}

/** Every secret of the configured channels, for redaction of error texts. */
export function channelSecrets(channels: readonly LlmChannel[]): string[] {
  const out = new Set<string>();
  for (const c of channels) {
    for (const k of c.apiKeys) if (k.length >= 4) out.add(k);
    try {
      const u = new URL(c.baseURL);
      if (u.password) out.add(decodeURIComponent(u.password));
    } catch {
      /* ignore */
    }
  }
  return [...out];
}
