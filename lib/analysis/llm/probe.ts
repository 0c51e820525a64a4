import { Output, generateText, streamText, tool, type LanguageModel, type LanguageModelUsage } from "ai";
import { z } from "zod";
import { isMaskValue } from "@/lib/config/mask";
import { channelKeyPart } from "@/lib/config/schema";
import { getRawSetting, getSettings } from "@/lib/settings/settings";
import { assertOutboundAllowed, OutboundRefusedError } from "@/lib/net/outbound-policy";
import { outboundFetch } from "@/lib/net/outbound-fetch";
import { recordLlmUsage } from "@/lib/usage/record-usage";
import {
  DEFAULT_BASE_URL,
  KEYLESS,
  normaliseBaseUrl,
  readLlmChannelConfig,
  splitList,
  wireProtocol,
  type LlmChannel,
} from "./channels";
import { classify, httpModelFactory, scrub, type LlmModelFactory } from "./generate-report";
import type {
  TCapabilityResult,
  TDiscoverModelsRequest,
  TDiscoverModelsResponse,
  TTestChannelRequest,
  TTestChannelResponse,
} from "./probe-schemas";

// The settings page's channel probes (docs/api.md §12.5.2, §12.5.3). A probe never throws for a remote
// failure: it answers success=false with a stage, a code and a short status line. Remote bodies are never
// reflected (they can echo keys or internal detail); only "HTTP <status>" and our own words are.

interface ProbeTarget {
  channel: LlmChannel;
  /** What to redact from any text we return: the key, whether typed or saved. */
  secrets: string[];
}

type Failure = Pick<TDiscoverModelsResponse, "error" | "error_code" | "stage" | "retryable" | "message"> & {
  success: false;
};

export interface ProbeDeps {
  fetch?: typeof fetch;
  modelFactory?: LlmModelFactory;
}

function savedKey(part: string, fallback: string | undefined): string {
  return (
    splitList(getRawSetting(`LLM_${part}_API_KEY`))[0] ??
    splitList(getRawSetting(`LLM_${part}_API_KEYS`))[0] ??
    fallback ??
    ""
  );
}

/**
 * The channel a probe talks to. The saved key is used only with the saved (or default) base URL: a form that
 * types another URL with the masked key must not be able to send the saved key to a host of its choosing.
 */
function resolveTarget(body: TDiscoverModelsRequest | TTestChannelRequest, models: string[]): ProbeTarget | Failure {
  const protocol = (body.protocol || "openai").toLowerCase().replace(/_/g, "-");
  const part = channelKeyPart(body.name);
  const saved = readLlmChannelConfig().channels.find((c) => channelKeyPart(c.name) === part);
  const savedBase = getRawSetting(`LLM_${part}_BASE_URL`)?.trim() || saved?.baseURL || DEFAULT_BASE_URL[protocol] || "";
  const baseURL = normaliseBaseUrl(body.base_url || savedBase);
  if (!baseURL) return failure("validate", "base_url_missing", `No base URL: enter one for protocol "${protocol}"`);
  let url: URL;
  try {
    url = new URL(baseURL);
  } catch {
    return failure("validate", "base_url_invalid", "The base URL is not a valid URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    return failure("validate", "base_url_invalid", "The base URL must be http or https");
  const typedKey = body.api_key.trim();
  const useSaved = typedKey === "" || isMaskValue(typedKey);
  const sameBase = normaliseBaseUrl(savedBase) === baseURL;
  const apiKey = useSaved ? (sameBase ? savedKey(part, saved?.apiKey) : "") : typedKey;
  if (!apiKey && !KEYLESS.has(protocol)) {
    const why =
      useSaved && !sameBase && savedKey(part, saved?.apiKey)
        ? "the saved key is only sent to the saved base URL; enter the key"
        : "enter the API key";
    return failure("validate", "api_key_missing", `No API key: ${why}`);
  }
  const channelModels = models.length > 0 ? models : (saved?.models ?? splitList(getRawSetting(`LLM_${part}_MODELS`)));
  return {
    channel: {
      name: body.name,
      baseURL,
      apiKey,
      apiKeys: apiKey ? [apiKey] : [],
      models: channelModels,
      protocol: wireProtocol(protocol),
      configuredProtocol: protocol,
    },
    secrets: [apiKey, url.password ? decodeURIComponent(url.password) : ""].filter((s) => s.length >= 4),
  };
}

function failure(
  stage: Failure["stage"],
  code: string,
  message: string,
  retryable = false,
  error: string | null = null,
): Failure {
  return { success: false, message, error: error ?? message, error_code: code, stage, retryable };
}

function isFailure(x: ProbeTarget | Failure): x is Failure {
  return !("channel" in x);
}

/** An HTTP status as a probe failure: the status line only. */
function httpFailure(status: number, what: string): Failure {
  const line = `HTTP ${status}`;
  if (status === 401 || status === 403)
    return failure("auth", "auth_failed", `${what}: the server refused the key (${line})`, false, line);
  if (status === 404)
    return failure("request", "not_found", `${what}: not found (${line}); check the base URL and model`, false, line);
  if (status === 408 || status === 429)
    return failure("request", "rate_limited", `${what}: busy or rate limited (${line})`, true, line);
  if (status >= 500) return failure("request", "upstream_error", `${what}: server error (${line})`, true, line);
  return failure("request", "request_rejected", `${what}: request rejected (${line})`, false, line);
}

async function policyFailure(baseURL: string): Promise<Failure | null> {
  try {
    await assertOutboundAllowed(baseURL, getSettings().OUTBOUND_ALLOW_PRIVATE);
    return null;
  } catch (error) {
    if (error instanceof OutboundRefusedError)
      return failure("validate", "outbound_refused", `Refused by the outbound policy: ${error.message}`);
    return failure("connect", "connect_failed", "The base URL's host could not be resolved", true);
  }
}

function modelIdsOf(body: unknown): string[] | null {
  const record = body as { data?: unknown; models?: unknown } | null;
  const list = Array.isArray(record?.data) ? record.data : Array.isArray(record?.models) ? record.models : null;
  if (!list) return null;
  const ids = list.map((m: unknown) =>
    typeof m === "string" ? m : ((m as { id?: unknown; name?: unknown })?.id ?? (m as { name?: unknown })?.name),
  );
  return [
    ...new Set(ids.filter((id): id is string => typeof id === "string" && id.trim() !== "").map((id) => id.trim())),
  ];
}

const elapsed = (started: number) => Math.round(performance.now() - started);

/** POST /system/config/llm/discover-models: GET <base>/models with the channel's key. */
export async function discoverModels(
  body: TDiscoverModelsRequest,
  deps: ProbeDeps = {},
): Promise<TDiscoverModelsResponse> {
  const protocol = (body.protocol || "openai").toLowerCase();
  const base = { resolved_protocol: protocol, models: [] as string[], details: {}, latency_ms: null };
  const target = resolveTarget(body, body.models ?? []);
  if (isFailure(target)) return { ...base, ...target };
  const refused = deps.fetch ? null : await policyFailure(target.channel.baseURL);
  if (refused) return { ...base, ...refused };

  const started = performance.now();
  const headers: Record<string, string> = { accept: "application/json" };
  if (target.channel.apiKey) headers.authorization = `Bearer ${target.channel.apiKey}`;
  const timeout = AbortSignal.timeout(body.timeout_seconds * 1000);
  let response: Response;
  try {
    response = await (deps.fetch ?? outboundFetch)(`${target.channel.baseURL}/models`, {
      headers,
      signal: timeout,
      redirect: "manual",
    });
  } catch (error) {
    const latency_ms = elapsed(started);
    if (error instanceof OutboundRefusedError)
      return {
        ...base,
        latency_ms,
        ...failure("validate", "outbound_refused", `Refused by the outbound policy: ${error.message}`),
      };
    if (timeout.aborted)
      return {
        ...base,
        latency_ms,
        ...failure("connect", "timeout", `No answer within ${body.timeout_seconds}s`, true),
      };
    return {
      ...base,
      latency_ms,
      ...failure(
        "connect",
        "connect_failed",
        `Could not connect: ${scrub(String((error as Error)?.message ?? error), target.secrets, 120)}`,
        true,
      ),
    };
  }
  const latency_ms = elapsed(started);
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    return { ...base, latency_ms, ...httpFailure(response.status, "Model list") };
  }
  const ids = modelIdsOf(await response.json().catch(() => null));
  if (ids === null)
    return {
      ...base,
      latency_ms,
      ...failure("response", "invalid_response", "The answer is not an OpenAI-style model list"),
    };
  const missing = (body.models ?? []).filter((m) => !ids.includes(m));
  return {
    ...base,
    success: true,
    message:
      ids.length === 0 ? "The server lists no models" : `Found ${ids.length} model${ids.length === 1 ? "" : "s"}`,
    error: null,
    error_code: null,
    stage: null,
    retryable: null,
    models: ids,
    details: missing.length > 0 ? { configured_models_not_listed: missing } : {},
    latency_ms,
  };
}

// ---- test-channel

const BASIC_PROMPT = "Reply with the single word OK.";

interface CallOutcome {
  ok: boolean;
  failure?: Failure;
  usage?: LanguageModelUsage;
  ms: number;
}

function callFailure(error: unknown, timedOut: boolean, timeoutMs: number, secrets: string[], what: string): Failure {
  if (error instanceof OutboundRefusedError || (error as { cause?: unknown })?.cause instanceof OutboundRefusedError) {
    return failure("validate", "outbound_refused", "Refused by the outbound policy");
  }
  const c = classify(error, { timedOut, callerAborted: false, timeoutMs });
  if (c.code === "http_error" && c.status !== undefined) return httpFailure(c.status, what);
  if (c.code === "timeout")
    return failure("request", "timeout", `${what}: no answer within ${Math.round(timeoutMs / 1000)}s`, true);
  if (c.code === "network_error")
    return failure("connect", "connect_failed", `${what}: could not connect`, true, scrub(c.reason, secrets, 120));
  if (c.code === "invalid_json" || c.code === "schema_mismatch")
    return failure("response", "invalid_response", `${what}: the answer was not the JSON asked for`);
  return failure("response", "error", `${what}: ${scrub(c.reason, secrets, 120)}`);
}

async function timedCall(
  run: (signal: AbortSignal) => Promise<{ usage?: LanguageModelUsage; ok: boolean; why?: Failure }>,
  timeoutMs: number,
  secrets: string[],
  what: string,
): Promise<CallOutcome> {
  const timeout = AbortSignal.timeout(timeoutMs);
  const started = performance.now();
  try {
    const r = await run(timeout);
    return { ok: r.ok, failure: r.why, usage: r.usage, ms: elapsed(started) };
  } catch (error) {
    return { ok: false, failure: callFailure(error, timeout.aborted, timeoutMs, secrets, what), ms: elapsed(started) };
  }
}

// A red 1×1 PNG: the smallest image a vision model reads (the watchlist's screenshot import sends images).
const RED_PIXEL_PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";

const CHECKS: Record<
  string,
  (model: LanguageModel, signal: AbortSignal) => Promise<{ usage?: LanguageModelUsage; ok: boolean; why?: Failure }>
> = {
  async json(model, signal) {
    const r = await generateText({
      model,
      prompt: 'Answer with the JSON object {"ok": true} and nothing else.',
      output: Output.object({ schema: z.object({ ok: z.boolean() }) }),
      maxRetries: 0,
      abortSignal: signal,
    });
    return { usage: r.usage, ok: true };
  },
  async stream(model, signal) {
    const r = streamText({ model, prompt: BASIC_PROMPT, maxRetries: 0, abortSignal: signal });
    let text = "";
    for await (const chunk of r.textStream) text += chunk;
    return {
      usage: await r.usage,
      ok: text.trim() !== "",
      why: failure("response", "empty_stream", "The stream carried no text"),
    };
  },
  async vision(model, signal) {
    const r = await generateText({
      model,
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "What colour is this image? Answer with one word." },
            { type: "image", image: Buffer.from(RED_PIXEL_PNG, "base64"), mediaType: "image/png" },
          ],
        },
      ],
      maxRetries: 0,
      abortSignal: signal,
    });
    return {
      usage: r.usage,
      ok: r.text.trim() !== "",
      why: failure("response", "empty_answer", "The model answered the image with no text"),
    };
  },
  async tools(model, signal) {
    const r = await generateText({
      model,
      prompt: "Use the quote tool to look up the price of AAPL.",
      tools: {
        quote: tool({ description: "Latest price of a stock code", inputSchema: z.object({ code: z.string() }) }),
      },
      toolChoice: "required",
      maxRetries: 0,
      abortSignal: signal,
    });
    return {
      usage: r.usage,
      ok: r.toolCalls.length > 0,
      why: failure("response", "no_tool_call", "The model answered without calling the tool"),
    };
  },
};

function capabilityOf(outcome: CallOutcome, passed: string): TCapabilityResult {
  if (outcome.ok)
    return {
      status: "passed",
      message: passed,
      error_code: null,
      stage: null,
      retryable: null,
      latency_ms: outcome.ms,
      details: {},
    };
  const f = outcome.failure ?? failure("response", "error", "failed");
  return {
    status: "failed",
    message: f.message,
    error_code: f.error_code,
    stage: f.stage,
    retryable: f.retryable,
    latency_ms: outcome.ms,
    details: {},
  };
}

function skipped(message: string): TCapabilityResult {
  return { status: "skipped", message, error_code: null, stage: null, retryable: null, latency_ms: null, details: {} };
}

/** POST /system/config/llm/test-channel: one short chat call, then the capability checks asked for. */
export async function testChannel(body: TTestChannelRequest, deps: ProbeDeps = {}): Promise<TTestChannelResponse> {
  const protocol = (body.protocol || "openai").toLowerCase();
  const checks = [...new Set(body.capability_checks ?? [])];
  const base = {
    resolved_protocol: protocol,
    resolved_model: null,
    // Every channel is called through chat completions; a client asking for the responses API is told so.
    resolved_api_surface: "chat_completions" as const,
    details: {
      enabled: body.enabled,
      ...(body.api_surface === "responses"
        ? { api_surface_note: "DSA calls chat completions, not the responses API" }
        : {}),
    },
    latency_ms: null,
    capability_results: {},
  };
  const skipAll = (why: string) => Object.fromEntries(checks.map((c) => [c, skipped(why)]));
  const target = resolveTarget(body, body.models);
  if (isFailure(target)) return { ...base, ...target, capability_results: skipAll("the channel is not usable") };
  const model = target.channel.models[0];
  if (!model)
    return {
      ...base,
      ...failure("validate", "model_missing", "No model: enter at least one model name"),
      capability_results: skipAll("no model"),
    };
  const refused = deps.modelFactory ? null : await policyFailure(target.channel.baseURL);
  if (refused)
    return { ...base, resolved_model: model, ...refused, capability_results: skipAll("the base URL is refused") };

  const timeoutMs = body.timeout_seconds * 1000;
  const mode = target.channel.protocol === "openai" ? "json_schema" : "json_object";
  const llm = (deps.modelFactory ?? httpModelFactory)(target.channel, model, mode, target.channel.apiKey);
  const record = (outcome: CallOutcome) =>
    recordLlmUsage({
      callType: "channel_test",
      channel: body.name,
      model,
      stockCode: null,
      queryId: null,
      promptTokens: outcome.usage?.inputTokens ?? 0,
      completionTokens: outcome.usage?.outputTokens ?? 0,
      totalTokens: outcome.usage?.totalTokens ?? 0,
      durationMs: outcome.ms,
      success: outcome.ok,
      error: outcome.failure ? `${outcome.failure.error_code}: ${outcome.failure.error}` : null,
    });

  const basic = await timedCall(
    async (signal) => {
      const r = await generateText({ model: llm, prompt: BASIC_PROMPT, maxRetries: 0, abortSignal: signal });
      return {
        usage: r.usage,
        ok: r.text.trim() !== "",
        why: failure("response", "empty_answer", "The model answered with no text"),
      };
    },
    timeoutMs,
    target.secrets,
    "Chat call",
  );
  await record(basic);
  if (!basic.ok) {
    return {
      ...base,
      resolved_model: model,
      latency_ms: basic.ms,
      ...(basic.failure ?? failure("response", "error", "failed")),
      capability_results: skipAll("the basic chat call failed"),
    };
  }

  const capability_results: Record<string, TCapabilityResult> = {};
  for (const check of checks) {
    const run = CHECKS[check];
    if (!run) {
      capability_results[check] = skipped(`${check} is not a check DSA runs`);
      continue;
    }
    const outcome = await timedCall((signal) => run(llm, signal), timeoutMs, target.secrets, `${check} check`);
    await record(outcome);
    capability_results[check] = capabilityOf(outcome, `${check}: passed`);
  }
  const failed = Object.entries(capability_results)
    .filter(([, r]) => r.status === "failed")
    .map(([k]) => k);
  return {
    ...base,
    success: true,
    message:
      failed.length === 0
        ? `${model} answered in ${basic.ms} ms`
        : `${model} answered; failed checks: ${failed.join(", ")}`,
    error: null,
    error_code: null,
    stage: null,
    retryable: null,
    resolved_model: model,
    latency_ms: basic.ms,
    capability_results,
  };
}
