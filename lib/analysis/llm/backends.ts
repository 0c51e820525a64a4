import { isMaskValue } from "@/lib/config/mask";
import { channelKeyPart } from "@/lib/config/schema";
import { getRawSetting, getSettings } from "@/lib/settings/settings";
import { readLlmChannelConfig, type LlmChannel, type LlmChannelConfig } from "./channels";
import { testChannel, type ProbeDeps } from "./probe";
import type {
  TAgentBackendStatus,
  TBackendDraft,
  TGenerationBackend,
  TGenerationBackendsStatus,
  TSmokeTestRequest,
  TSmokeTestResponse,
} from "./backend-schemas";

// The generation and agent backends (CONTRACT §14.2) from the configured LLM channels, saved or as a settings
// draft holds them. Reading the status calls nothing; the smoke test makes one call through the channel test.

type Reader = (key: string) => string | undefined;

/** The settings as the draft makes them: its values over the saved ones, a masked value keeping the saved one. */
export function draftReader(draft: TBackendDraft): Reader {
  const values = new Map(draft.items.map((item) => [item.key.toUpperCase(), item.value]));
  return (key) => {
    const value = values.get(key.toUpperCase());
    return value === undefined || isMaskValue(value, draft.mask_token) ? getRawSetting(key) : value;
  };
}

const NOT_CONFIGURED = "No LLM channel is configured: reports are rule-based, and the agent answers its commands only";

function backendOf(channel: LlmChannel, next: LlmChannel | undefined, primary: boolean): TGenerationBackend {
  return {
    backend_id: channel.name,
    backend_type: "ai_sdk",
    provider_id: channel.configuredProtocol,
    available: channel.models.length > 0,
    health_status: channel.models.length > 0 ? "not_tested" : "failed",
    supports_json: true,
    supports_tools: true,
    supports_stream: true,
    supports_vision: false,
    is_primary: primary,
    fallback_target: next?.name ?? null,
    max_concurrency: getSettings().MAX_WORKERS,
    usage_available: true,
    last_error_code: channel.models.length > 0 ? null : "model_missing",
    last_error_message: channel.models.length > 0 ? null : `Channel ${channel.name} names no model`,
    models: channel.models,
  };
}

function unavailable(id: string, code: string, message: string, primary: boolean): TGenerationBackend {
  return {
    backend_id: id,
    backend_type: "ai_sdk",
    provider_id: id,
    available: false,
    health_status: "failed",
    supports_json: true,
    supports_tools: true,
    supports_stream: true,
    supports_vision: false,
    is_primary: primary,
    fallback_target: null,
    max_concurrency: getSettings().MAX_WORKERS,
    usage_available: true,
    last_error_code: code,
    last_error_message: message,
    models: [],
  };
}

function statusOf(config: LlmChannelConfig): TGenerationBackendsStatus {
  const backends = config.channels.map((channel, index) => backendOf(channel, config.channels[index + 1], index === 0));
  // A channel the settings name but cannot use is listed with why (no secret in the reason).
  for (const problem of config.problems)
    backends.push(unavailable(problem.channel, "backend_misconfigured", problem.reason, false));
  if (backends.length === 0 || !backends[0]!.is_primary)
    backends.unshift(unavailable("ai_sdk", "backend_not_configured", NOT_CONFIGURED, true));
  const primary = backends[0]!;
  const fallback = backends.find((b) => b.backend_id === primary.fallback_target) ?? null;
  return {
    primary_backend_id: primary.backend_id,
    fallback_backend_id: fallback?.backend_id ?? null,
    primary,
    fallback,
    backends,
  };
}

export function generationBackendsStatus(draft?: TBackendDraft): TGenerationBackendsStatus {
  return statusOf(readLlmChannelConfig(draft ? draftReader(draft) : getRawSetting));
}

/**
 * One call through a backend of the draft: text mode asks for an exact reply, json mode for a structured object (the
 * channel test's json check). The saved key goes only to the saved base URL (the channel test's rule).
 */
export async function smokeTestBackend(body: TSmokeTestRequest, deps: ProbeDeps = {}): Promise<TSmokeTestResponse> {
  const read = draftReader(body);
  const config = readLlmChannelConfig(read);
  const status = statusOf(config);
  const id = body.backend_id ?? status.primary_backend_id;
  const backend = status.backends.find((b) => b.backend_id === id);
  const channel = config.channels.find((c) => c.name === id);
  if (!backend || !channel || !backend.available) {
    const missing = backend ?? unavailable(id, "backend_not_configured", `No configured channel is named ${id}`, false);
    return { success: false, mode: body.mode, message: missing.last_error_message ?? "not available", status: missing };
  }
  // The key as typed in the draft, if it was: else "" (the saved one, which the channel test sends only to the
  // saved base URL).
  const part = channelKeyPart(id);
  const typed = body.items.find((item) => {
    const key = item.key.toUpperCase();
    return (
      (key.startsWith(`LLM_${part}_API_KEY`) || key === `${part}_API_KEY`) && !isMaskValue(item.value, body.mask_token)
    );
  });
  const result = await testChannel(
    {
      name: id,
      protocol: channel.configuredProtocol,
      base_url: channel.baseURL,
      api_key: typed ? (typed.value.split(",")[0] ?? "").trim() : "",
      models: channel.models.slice(0, 1),
      enabled: true,
      timeout_seconds: Math.min(body.timeout_seconds, 120),
      capability_checks: body.mode === "json" ? ["json"] : [],
    },
    deps,
  );
  const jsonCheck = result.capability_results.json;
  const passed = result.success && (body.mode === "text" || jsonCheck?.status === "passed");
  const failure = !result.success ? result : jsonCheck && jsonCheck.status !== "passed" ? jsonCheck : null;
  return {
    success: passed,
    mode: body.mode,
    message: passed ? `${id}: the ${body.mode} smoke test passed` : (failure?.message ?? result.message),
    status: {
      ...backend,
      health_status: passed ? "passed" : "failed",
      last_error_code: passed ? null : (failure?.error_code ?? "smoke_failed"),
      last_error_message: passed ? null : (failure?.message ?? result.message),
    },
  };
}

export function agentBackendStatus(draft?: TBackendDraft): TAgentBackendStatus {
  const status = generationBackendsStatus(draft);
  const ready = status.primary.available;
  return {
    backend: "ai_sdk",
    available: ready,
    experimental: false,
    version: null,
    error_code: ready ? null : status.primary.last_error_code,
    message: ready
      ? `The agent chat uses the AI SDK through channel ${status.primary_backend_id} (tools, streaming)`
      : (status.primary.last_error_message ?? NOT_CONFIGURED),
  };
}
