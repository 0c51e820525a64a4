import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import {
  APICallError,
  JSONParseError,
  NoObjectGeneratedError,
  NoOutputGeneratedError,
  Output,
  TypeValidationError,
  generateText,
  type LanguageModel,
  type LanguageModelUsage,
} from "ai";
import { getRawSetting } from "@/lib/settings/settings";
import { outboundFetch } from "@/lib/net/outbound-fetch";
import { logger } from "@/lib/log/logger";
import type { LlmCallType } from "@/lib/usage/record-usage";
import { channelSecrets, llmChannels, type LlmChannel } from "./channels";
import { settleAttempt } from "./attempt-record";
import { firstAnswer, type LlmOutputMode, type StepResult } from "./failover";
import { buildReportPrompt, contextPrice, type LlmReportContext } from "./prompt";
import { ZLlmReport, type TLlmReport } from "./report-schema";

// The LLM path of the analysis. Channels are tried in order and, inside a channel, its
// models in order (primary, then fallbacks). Each call has its own time limit; an HTTP error, a timeout,
// an answer that is not valid JSON, does not match the schema, or whose numbers contradict the data
// counts as a failure and the next model is tried. Every call is recorded in LlmUsage. When everything
// fails the caller keeps its rule-based report and shows `reason` in diagnostics.
//
// Nothing secret leaves this module: attempts and reasons carry channel and model names only, and error
// texts from providers are scrubbed of the configured keys before they are stored or logged.

// The AI SDK prints provider warnings (e.g. "schema not sent" in JSON mode) to the console by default;
// they are expected here and go to the debug log instead.
if (globalThis.AI_SDK_LOG_WARNINGS === undefined) globalThis.AI_SDK_LOG_WARNINGS = false;

export const DEFAULT_LLM_TIMEOUT_MS = 60_000;
export const DEFAULT_LLM_TEMPERATURE = 0.3;
/** Price levels further than this fraction from the current price are rejected. */
export const PRICE_BAND = 0.5;

export type { LlmOutputMode } from "./failover";

export type LlmFailureCode =
  | "http_error"
  | "network_error"
  | "timeout"
  | "aborted"
  | "invalid_json"
  | "schema_mismatch"
  | "data_check"
  | "error";

export interface LlmAttempt {
  channel: string;
  model: string;
  ok: boolean;
  /** "ok", or why the call was not accepted (no secrets, at most ~300 characters). */
  reason: string;
  code: "ok" | LlmFailureCode;
  /** HTTP status when the provider answered with an error. */
  status?: number;
  mode: LlmOutputMode;
  ms: number;
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
}

export type LlmReportResult =
  | { ok: true; report: TLlmReport; channel: string; model: string; attempts: LlmAttempt[] }
  | { ok: false; reason: string; attempts: LlmAttempt[] };

export type LlmModelFactory = (
  channel: LlmChannel,
  model: string,
  mode: LlmOutputMode,
  apiKey: string,
) => LanguageModel;

export interface GenerateLlmReportOptions {
  /** The caller's cancellation (request closed, task cancelled); stops all further attempts. */
  signal?: AbortSignal;
  callType?: LlmCallType;
  stockCode?: string | null;
  queryId?: string | null;
  /** Defaults to the channels configured in settings. */
  channels?: readonly LlmChannel[];
  /** Per call; defaults to LLM_TIMEOUT_SEC (seconds) or 60 s. */
  timeoutMs?: number;
  temperature?: number;
  maxOutputTokens?: number;
  /** Tests: build models without HTTP. */
  modelFactory?: LlmModelFactory;
  /** Write LlmUsage rows (default true). */
  recordUsage?: boolean;
}

// ---- settings (read raw: LLM_TIMEOUT_SEC / LLM_TEMPERATURE / LLM_MAX_TOKENS are the reference's keys)

export function numberSetting(key: string, min: number, max: number): number | undefined {
  const raw = getRawSetting(key);
  if (raw === undefined) return undefined;
  const n = Number(raw.trim());
  return Number.isFinite(n) && n >= min && n <= max ? n : undefined;
}

export function settingsTimeoutMs(): number {
  const sec = numberSetting("LLM_TIMEOUT_SEC", 0.1, 600);
  return sec !== undefined ? Math.round(sec * 1000) : DEFAULT_LLM_TIMEOUT_MS;
}

// ---- models

export const httpModelFactory: LlmModelFactory = (channel, model, mode, apiKey) => {
  if (mode === "json_schema") {
    const provider = createOpenAI({ baseURL: channel.baseURL, apiKey, name: channel.name, fetch: outboundFetch });
    return provider.chat(model);
  }
  const provider = createOpenAICompatible({
    name: channel.name,
    baseURL: channel.baseURL,
    apiKey: apiKey || undefined,
    includeUsage: true,
    supportsStructuredOutputs: false,
    fetch: outboundFetch,
  });
  return provider.chatModel(model);
};

// ---- checks against the data

const BUYISH = new Set(["buy", "add"]);
const SELLISH = new Set(["sell", "avoid"]);

function fmt(n: number): string {
  return String(Math.round(n * 10000) / 10000);
}

/**
 * What a schema cannot check: empty conclusions, price levels against the current price and each other,
 * and the action against the score. Empty list: the answer is usable.
 */
export function checkReportAgainstData(report: TLlmReport, price: number | null, band = PRICE_BAND): string[] {
  const issues: string[] = [];
  const { core_conclusion: core } = report;
  if (core.one_sentence.trim() === "") issues.push("core_conclusion.one_sentence is empty");
  if (report.operation_advice.trim() === "") issues.push("operation_advice is empty");
  if (!Number.isFinite(core.score) || core.score < 0 || core.score > 100)
    issues.push(`score ${core.score} is outside 0–100`);
  if (BUYISH.has(core.action) && core.score < 40) issues.push(`action ${core.action} contradicts score ${core.score}`);
  if (SELLISH.has(core.action) && core.score > 60) issues.push(`action ${core.action} contradicts score ${core.score}`);

  const levels = report.battle_plan.sniper_points;
  for (const [name, value] of Object.entries(levels) as [string, number | null][]) {
    if (value === null) continue;
    if (!Number.isFinite(value) || value <= 0) issues.push(`${name} ${value} is not a positive price`);
    else if (price !== null && Math.abs(value - price) > price * band) {
      issues.push(`${name} ${fmt(value)} is more than ${Math.round(band * 100)}% away from the price ${fmt(price)}`);
    }
  }
  if (issues.some((i) => i.includes("not a positive price"))) return issues;

  const { stop_loss: stop, take_profit: target, ideal_buy: ideal, secondary_buy: secondary } = levels;
  if (stop !== null && target !== null && stop >= target) {
    issues.push(`stop_loss ${fmt(stop)} is not below take_profit ${fmt(target)}`);
  }
  if (BUYISH.has(core.action)) {
    if (stop === null) issues.push(`a ${core.action} plan needs a stop_loss`);
    if (target === null) issues.push(`a ${core.action} plan needs a take_profit`);
    for (const [name, value] of [
      ["ideal_buy", ideal],
      ["secondary_buy", secondary],
    ] as const) {
      if (value === null) continue;
      if (stop !== null && value <= stop) issues.push(`${name} ${fmt(value)} is not above stop_loss ${fmt(stop)}`);
      if (target !== null && value >= target)
        issues.push(`${name} ${fmt(value)} is not below take_profit ${fmt(target)}`);
    }
  }
  if (price !== null && (BUYISH.has(core.action) || core.action === "hold")) {
    if (stop !== null && stop >= price)
      issues.push(`stop_loss ${fmt(stop)} is not below the price ${fmt(price)} for ${core.action}`);
    if (target !== null && target <= price)
      issues.push(`take_profit ${fmt(target)} is not above the price ${fmt(price)} for ${core.action}`);
  }
  return issues;
}

// ---- errors

export { scrub } from "./attempt-record";

interface Classified {
  code: LlmFailureCode;
  reason: string;
  status?: number;
  usage?: LanguageModelUsage;
}

function causeSummary(error: unknown): string {
  const cause = (error as { cause?: unknown })?.cause;
  const issues = (cause as { issues?: unknown })?.issues ?? (cause as { cause?: { issues?: unknown } })?.cause?.issues;
  if (Array.isArray(issues) && issues.length > 0) {
    return issues
      .slice(0, 3)
      .map(
        (i: { path?: PropertyKey[]; message?: string }) =>
          `${(i.path ?? []).map(String).join(".") || "(root)"}: ${i.message ?? "invalid"}`,
      )
      .join("; ");
  }
  return cause instanceof Error ? cause.message : String((error as Error)?.message ?? error);
}

export function classify(
  error: unknown,
  state: { timedOut: boolean; callerAborted: boolean; timeoutMs: number },
): Classified {
  if (state.callerAborted) return { code: "aborted", reason: "aborted by the caller" };
  if (state.timedOut) return { code: "timeout", reason: `no answer within ${Math.round(state.timeoutMs / 100) / 10}s` };
  if (NoObjectGeneratedError.isInstance(error)) {
    const cause = (error as { cause?: unknown }).cause;
    const json = JSONParseError.isInstance(cause) || (cause instanceof Error && /json/i.test(cause.name));
    const typed = TypeValidationError.isInstance(cause);
    if (json && !typed)
      return { code: "invalid_json", reason: `answer is not valid JSON: ${causeSummary(error)}`, usage: error.usage };
    return {
      code: "schema_mismatch",
      reason: `answer does not match the report schema: ${causeSummary(error)}`,
      usage: error.usage,
    };
  }
  if (NoOutputGeneratedError.isInstance(error))
    return { code: "invalid_json", reason: `no output: ${causeSummary(error)}` };
  if (APICallError.isInstance(error)) {
    if (error.statusCode !== undefined) {
      return { code: "http_error", status: error.statusCode, reason: `HTTP ${error.statusCode}: ${error.message}` };
    }
    return { code: "network_error", reason: `request failed: ${error.message}` };
  }
  if (error instanceof Error && (error.name === "AbortError" || error.name === "TimeoutError")) {
    return { code: "timeout", reason: `no answer within ${Math.round(state.timeoutMs / 100) / 10}s` };
  }
  if (error instanceof TypeError) return { code: "network_error", reason: `request failed: ${error.message}` };
  return { code: "error", reason: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
}

/** An OpenAI-protocol endpoint that rejects `response_format: json_schema` (DeepSeek behind OPENAI_BASE_URL…). */
function rejectsJsonSchema(c: Classified): boolean {
  return (
    c.code === "http_error" &&
    (c.status === 400 || c.status === 422) &&
    /response_format|json_schema|structured/i.test(c.reason)
  );
}

// ---- the loop

export async function generateLlmReport(
  context: LlmReportContext,
  options: GenerateLlmReportOptions = {},
): Promise<LlmReportResult> {
  const channels = options.channels ?? llmChannels();
  const attempts: LlmAttempt[] = [];
  if (channels.length === 0) return { ok: false, reason: "no LLM channel configured", attempts };

  const secrets = channelSecrets(channels);
  const factory = options.modelFactory ?? httpModelFactory;
  const timeoutMs = options.timeoutMs ?? settingsTimeoutMs();
  const temperature = options.temperature ?? numberSetting("LLM_TEMPERATURE", 0, 2) ?? DEFAULT_LLM_TEMPERATURE;
  const maxOutputTokens = options.maxOutputTokens ?? numberSetting("LLM_MAX_TOKENS", 256, 200_000);
  const callType = options.callType ?? "analysis";
  const price = contextPrice(context);
  const log = logger.child({
    component: "llm",
    query_id: options.queryId ?? undefined,
    stock_code: options.stockCode ?? undefined,
  });

  const attempt = async (channel: LlmChannel, model: string, mode: LlmOutputMode, apiKey: string) => {
    const { instructions, messages } = (() => {
      const p = buildReportPrompt(context, { describeSchema: mode === "json_object" });
      return { instructions: p.system, messages: p.messages };
    })();
    const timeout = AbortSignal.timeout(timeoutMs);
    const abortSignal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    const started = performance.now();
    let report: TLlmReport | undefined;
    let failure: Classified | undefined;
    let usage: LanguageModelUsage | undefined;
    try {
      const result = await generateText({
        model: factory(channel, model, mode, apiKey),
        system: instructions,
        messages,
        output: Output.object({ schema: ZLlmReport }),
        temperature,
        maxOutputTokens,
        maxRetries: 0,
        abortSignal,
      });
      usage = result.usage;
      if (result.warnings?.length)
        log.debug({ channel: channel.name, model, warnings: result.warnings.map((w) => w.type) }, "llm warnings");
      const issues = checkReportAgainstData(result.output, price);
      if (issues.length > 0)
        failure = { code: "data_check", reason: `numbers contradict the data: ${issues.slice(0, 3).join("; ")}` };
      else report = result.output;
    } catch (error) {
      failure = classify(error, {
        timedOut: timeout.aborted,
        callerAborted: options.signal?.aborted === true,
        timeoutMs,
      });
      usage = failure.usage;
    }
    const settled = await settleAttempt({
      channel,
      model,
      started,
      usage,
      failure,
      secrets,
      log,
      logFields: { mode },
      logPrefix: "llm",
      usageRow:
        options.recordUsage === false
          ? null
          : { callType, stockCode: options.stockCode ?? null, queryId: options.queryId ?? null },
    });
    attempts.push({ ...settled, mode });
    return { report, failure };
  };

  const answer = await firstAnswer(
    channels,
    async ({ channel, model, mode, apiKey }): Promise<StepResult<TLlmReport>> => {
      const { report, failure } = await attempt(channel, model, mode, apiKey);
      if (report) return { ok: true, value: report };
      return {
        ok: false,
        aborted: failure?.code === "aborted",
        refusedJsonSchema: failure !== undefined && rejectsJsonSchema(failure),
      };
    },
    { signal: options.signal },
  );
  if (answer.ok)
    return { ok: true, report: answer.value, channel: answer.step.channel.name, model: answer.step.model, attempts };
  if (answer.aborted) return { ok: false, reason: "aborted by the caller", attempts };
  const last = attempts.at(-1);
  return {
    ok: false,
    reason: `all ${attempts.length} LLM attempt(s) failed; last (${last?.channel}/${last?.model}): ${last?.reason}`,
    attempts,
  };
}
